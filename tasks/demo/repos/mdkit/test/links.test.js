'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { links, formatLinks } = require('../lib/links');

const guide = fs.readFileSync(path.join(__dirname, 'fixtures', 'guide.md'), 'utf8');

test('links in document order; code is skipped; references are resolved', () => {
  assert.equal(formatLinks(links(guide)), [
    'changelog\thttps://widget.example.org/CHANGELOG.md',
    'https://widget.example.org\thttps://widget.example.org',
    'https://git.example.org/widget.git\thttps://git.example.org/widget.git',
    '',
  ].join('\n'));
});

test('images only with images option; badge links keep order', () => {
  const md = '[![ci](https://ci.org/b.svg)](https://ci.org/job) and ![logo](logo.png)';
  assert.deepEqual(links(md).map((l) => [l.text, l.url]), [['ci', 'https://ci.org/job']]);
  assert.deepEqual(links(md, { images: true }).map((l) => [l.type, l.text, l.url]), [
    ['link', 'ci', 'https://ci.org/job'],
    ['image', 'ci', 'https://ci.org/b.svg'],
    ['image', 'logo', 'logo.png'],
  ]);
});

test('unique and base options', () => {
  const md = '[a](docs/x.md) [b](docs/x.md) [c](#top) [d](https://other.org/)';
  assert.deepEqual(links(md, { unique: true }).map((l) => l.text), ['a', 'c', 'd']);
  assert.deepEqual(links(md, { base: 'https://site.org/repo/' }).map((l) => l.url), [
    'https://site.org/repo/docs/x.md',
    'https://site.org/repo/docs/x.md',
    'https://site.org/repo/#top',
    'https://other.org/',
  ]);
});

test('text is plain: markup stripped, whitespace collapsed, empty text falls back to the URL', () => {
  assert.deepEqual(links('[**Bold**\n`code` &amp; more](u1) [](u2) <me@x.org>').map((l) => [l.text, l.url]), [
    ['Bold code & more', 'u1'],
    ['u2', 'u2'],
    ['me@x.org', 'mailto:me@x.org'],
  ]);
});
