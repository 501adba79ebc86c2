'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { toc, headings } = require('../lib/toc');

const guide = fs.readFileSync(path.join(__dirname, 'fixtures', 'guide.md'), 'utf8');

test('nested table of contents; headings in code blocks are ignored', () => {
  assert.equal(toc(guide), [
    '- [Widget Guide](#widget-guide)',
    '  - [Install](#install)',
    '    - [From source](#from-source)',
    '  - [Usage](#usage)',
    '  - [Usage](#usage-1)',
    '',
  ].join('\n'));
});

test('depth limits the levels', () => {
  assert.equal(toc(guide, { depth: 2 }), [
    '- [Widget Guide](#widget-guide)',
    '  - [Install](#install)',
    '  - [Usage](#usage)',
    '  - [Usage](#usage-1)',
    '',
  ].join('\n'));
  assert.equal(toc(guide, { depth: 1 }), '- [Widget Guide](#widget-guide)\n');
});

test('numbered lists count per level', () => {
  assert.equal(toc('# A\n## B\n## C\n### D\n# E', { numbered: true }), [
    '1. [A](#a)',
    '   1. [B](#b)',
    '   2. [C](#c)',
    '      1. [D](#d)',
    '2. [E](#e)',
    '',
  ].join('\n'));
});

test('skipped levels nest one step; documents without a top heading', () => {
  assert.equal(toc('# A\n### Deep\n## Mid'), '- [A](#a)\n  - [Deep](#deep)\n  - [Mid](#mid)\n');
  assert.equal(toc('## One\n## Two'), '- [One](#one)\n- [Two](#two)\n');
  assert.equal(toc('no headings here'), '');
});

test('link text is escaped, markup removed', () => {
  assert.equal(toc('## The `[x]` *option*'), '- [The \\[x\\] option](#the-x-option)\n');
});

test('headings() returns level, text and id', () => {
  assert.deepEqual(headings('Title\n=====\n\n## Sub: *one*'), [
    { level: 1, text: 'Title', id: 'title' },
    { level: 2, text: 'Sub: one', id: 'sub-one' },
  ]);
});
