'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const BIN = path.join(__dirname, '..', 'bin', 'mdkit.js');
const GUIDE = path.join(__dirname, 'fixtures', 'guide.md');

function run(args, opts = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', ...opts });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('html prints a fragment', () => {
  const r = run(['html', GUIDE]);
  assert.equal(r.code, 0);
  assert.match(r.out, /^<h1 id="widget-guide">Widget Guide<\/h1>\n/);
  assert.match(r.out, /<th align="right">Default<\/th>/);
  assert.match(r.out, /<td align="center">size in cm<\/td>/);
  assert.match(r.out, /<pre><code class="language-sh">npm install widget {3}# \[not a link\]/);
  assert.doesNotMatch(r.out, /<!DOCTYPE/);
});

test('html -o writes the file relative to the working directory and reports', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mdkit-'));
  try {
    const r = run(['html', GUIDE, '-o', 'out.html', '--standalone'], { cwd: dir });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^wrote out\.html: 5 headings, 1 table, 3 links, \d+ bytes\n$/);
    const doc = fs.readFileSync(path.join(dir, 'out.html'), 'utf8');
    assert.match(doc, /<title>Widget Guide<\/title>/);
    assert.match(doc, /<\/body>\n<\/html>\n$/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('toc and links from a file and from standard input', () => {
  assert.equal(run(['toc', GUIDE, '--depth', '1']).out, '- [Widget Guide](#widget-guide)\n');
  const r = run(['links', '-', '--unique'], { input: '[a](x) [b](x) <https://y.org>' });
  assert.equal(r.out, 'a\tx\nhttps://y.org\thttps://y.org\n');
  const j = JSON.parse(run(['toc', GUIDE, '--json', '-d', '2']).out);
  assert.deepEqual(j[1], { level: 2, text: 'Install', id: 'install' });
});

test('help on the tool and on every command', () => {
  const main = run(['--help']);
  assert.equal(main.code, 0);
  assert.match(main.out, /^Usage: mdkit COMMAND FILE\.md/);
  for (const cmd of ['html', 'toc', 'links']) {
    const r = run([cmd, '--help']);
    assert.equal(r.code, 0);
    assert.match(r.out, new RegExp(`^Usage: mdkit ${cmd} FILE\\.md`));
  }
  assert.match(run(['--version']).out, /^mdkit \d+\.\d+\.\d+\n$/);
});

test('errors: one line on stderr, exit 1 for bad input, 2 for usage', () => {
  const cases = [
    [['html', 'missing.md'], 1, /^mdkit: cannot read 'missing\.md': no such file\n$/],
    [['toc', __dirname], 1, /is a directory\n$/],
    [[], 2, /^mdkit: missing command/],
    [['render', GUIDE], 2, /unknown command 'render'/],
    [['toc', GUIDE, '--depth', '7'], 2, /--depth must be a number from 1 to 6/],
    [['links', GUIDE, '--wat'], 2, /unknown option '--wat'/],
    [['links', GUIDE, '--base', 'relative/'], 2, /--base must be an absolute URL/],
    [['html'], 2, /needs exactly one FILE\.md argument, got 0/],
    [['html', GUIDE, '-o', path.join(__dirname, 'no', 'such', 'dir', 'x.html')], 1, /cannot write/],
  ];
  for (const [args, code, re] of cases) {
    const r = run(args);
    assert.equal(r.code, code, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, re);
    assert.equal(r.err.split('\n').length, 2, `one line for ${args.join(' ')}`);
    assert.equal(r.out, '');
  }
});
