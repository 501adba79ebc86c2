'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { toHtml, render, plainText, decodeEntities } = require('../lib/markdown');
const { slugify, Slugger } = require('../lib/slug');

const html = (md) => toHtml(md).trim();

test('ATX headings get GitHub-style ids; closing hashes are dropped', () => {
  assert.equal(html('# Hello *World*'), '<h1 id="hello-world">Hello <em>World</em></h1>');
  assert.equal(html('### Install & Setup! ###'), '<h3 id="install--setup">Install &amp; Setup!</h3>');
  assert.equal(html('#NoSpace'), '<p>#NoSpace</p>');
});

test('setext headings', () => {
  assert.equal(html('Title\n====='), '<h1 id="title">Title</h1>');
  assert.equal(html('Sub\n---'), '<h2 id="sub">Sub</h2>');
});

test('repeated headings get unique ids', () => {
  assert.equal(html('## A\n\n## A\n\n## A'), '<h2 id="a">A</h2>\n<h2 id="a-1">A</h2>\n<h2 id="a-2">A</h2>');
});

test('paragraphs, hard line breaks and escaping', () => {
  assert.equal(html('one\ntwo'), '<p>one\ntwo</p>');
  assert.equal(html('one  \ntwo'), '<p>one<br />\ntwo</p>');
  assert.equal(html('one\\\ntwo'), '<p>one<br />\ntwo</p>');
  assert.equal(html('a < b & c &copy; "q"'), '<p>a &lt; b &amp; c &copy; &quot;q&quot;</p>');
  assert.equal(html('\\*not em\\* \\[x\\]'), '<p>*not em* [x]</p>');
  assert.equal(html('one\n\n\ntwo'), '<p>one</p>\n<p>two</p>');
});

test('emphasis, strong, strikethrough', () => {
  assert.equal(html('*a* _b_ **c** __d__ ***e*** ~~f~~'),
    '<p><em>a</em> <em>b</em> <strong>c</strong> <strong>d</strong> <em><strong>e</strong></em> <del>f</del></p>');
  assert.equal(html('*outer **inner** outer*'), '<p><em>outer <strong>inner</strong> outer</em></p>');
  assert.equal(html('snake_case_name and 2 * 3 * 4'), '<p>snake_case_name and 2 * 3 * 4</p>');
});

test('inline code keeps its content literal', () => {
  assert.equal(html('use `a < *b*` now'), '<p>use <code>a &lt; *b*</code> now</p>');
  assert.equal(html('``has ` tick``'), '<p><code>has ` tick</code></p>');
  assert.equal(html('`unclosed'), '<p>`unclosed</p>');
});

test('fenced and indented code blocks', () => {
  assert.equal(html('```js\nif (a < b) {}\n```'), '<pre><code class="language-js">if (a &lt; b) {}\n</code></pre>');
  assert.equal(html('~~~\n# not a heading\n\n*x*\n~~~'), '<pre><code># not a heading\n\n*x*\n</code></pre>');
  assert.equal(html('    code line\n      more'), '<pre><code>code line\n  more\n</code></pre>');
  assert.equal(html('```\nunclosed'), '<pre><code>unclosed\n</code></pre>');
});

test('links: inline, titles, parentheses, references, autolinks, bare URLs', () => {
  assert.equal(html('[a](https://x.org/p "T")'), '<p><a href="https://x.org/p" title="T">a</a></p>');
  assert.equal(html('[w](https://en.wikipedia.org/wiki/Foo_(bar))'),
    '<p><a href="https://en.wikipedia.org/wiki/Foo_(bar)">w</a></p>');
  assert.equal(html('[a][r] [R][] [r]\n\n[r]: /u "t"'),
    '<p><a href="/u" title="t">a</a> <a href="/u" title="t">R</a> <a href="/u" title="t">r</a></p>');
  assert.equal(html('[undefined][nope]'), '<p>[undefined][nope]</p>');
  assert.equal(html('<https://a.org/x> <me@b.org>'),
    '<p><a href="https://a.org/x">https://a.org/x</a> <a href="mailto:me@b.org">me@b.org</a></p>');
  assert.equal(html('see https://a.org/x_y. or www.b.org'),
    '<p>see <a href="https://a.org/x_y">https://a.org/x_y</a>. or <a href="http://www.b.org">www.b.org</a></p>');
  assert.equal(html('[sp](my file.md)'), '<p>[sp](my file.md)</p>');
  assert.equal(html('[sp](<my file.md>)'), '<p><a href="my%20file.md">sp</a></p>');
});

test('images, also inside links', () => {
  assert.equal(html('![A *cat*](cat.png "Cat")'), '<p><img src="cat.png" alt="A cat" title="Cat" /></p>');
  assert.equal(html('[![ci](b.svg)](https://ci.org)'), '<p><a href="https://ci.org"><img src="b.svg" alt="ci" /></a></p>');
});

test('tight and loose lists, nesting, ordered start, tasks', () => {
  assert.equal(html('- a\n- b\n  - c'), '<ul>\n<li>a</li>\n<li>b\n<ul>\n<li>c</li>\n</ul>\n</li>\n</ul>');
  assert.equal(html('1. a\n\n2. b'), '<ol>\n<li>\n<p>a</p>\n</li>\n<li>\n<p>b</p>\n</li>\n</ol>');
  assert.equal(html('3) x\n4) y'), '<ol start="3">\n<li>x</li>\n<li>y</li>\n</ol>');
  assert.equal(html('- [x] done\n- [ ] todo'),
    '<ul>\n<li class="task-list-item"><input type="checkbox" disabled="" checked="" /> done</li>\n' +
    '<li class="task-list-item"><input type="checkbox" disabled="" /> todo</li>\n</ul>');
  assert.equal(html('- a\n+ b'), '<ul>\n<li>a</li>\n</ul>\n<ul>\n<li>b</li>\n</ul>');
  assert.equal(html('para\n- item'), '<p>para</p>\n<ul>\n<li>item</li>\n</ul>');
  assert.equal(html('- item\n\n  ```\n  code\n  ```'), '<ul>\n<li>\n<p>item</p>\n<pre><code>code\n</code></pre>\n</li>\n</ul>');
});

test('block quotes with lazy continuation and nested blocks', () => {
  assert.equal(html('> a\nlazy\n>\n> - b'), '<blockquote>\n<p>a\nlazy</p>\n<ul>\n<li>b</li>\n</ul>\n</blockquote>');
});

test('thematic breaks', () => {
  assert.equal(html('a\n\n***\n\n- - -'), '<p>a</p>\n<hr />\n<hr />');
});

test('tables with alignment, escaped pipes, code spans and short rows', () => {
  const out = html('| a | b | c |\n|:--|:-:|--:|\n| 1 \\| 2 | `x|y` | **z** |\n| only |');
  assert.equal(out, [
    '<table>', '<thead>', '<tr>',
    '<th align="left">a</th>', '<th align="center">b</th>', '<th align="right">c</th>',
    '</tr>', '</thead>', '<tbody>', '<tr>',
    '<td align="left">1 | 2</td>', '<td align="center"><code>x|y</code></td>', '<td align="right"><strong>z</strong></td>',
    '</tr>', '<tr>',
    '<td align="left">only</td>', '<td align="center"></td>', '<td align="right"></td>',
    '</tr>', '</tbody>', '</table>'].join('\n'));
  assert.equal(html('a | b\n--|--'), '<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n</thead>\n</table>');
  assert.match(html('text before\n| h |\n|---|\n| v |'), /^<p>text before<\/p>\n<table>/);
});

test('raw HTML blocks and inline tags pass through', () => {
  assert.equal(html('<div class="x">\n*raw*\n</div>'), '<div class="x">\n*raw*\n</div>');
  assert.equal(html('a <kbd>Ctrl</kbd> b'), '<p>a <kbd>Ctrl</kbd> b</p>');
  assert.equal(html('<!-- note\n\nstill comment -->\ntext'), '<!-- note\n\nstill comment -->\n<p>text</p>');
});

test('CRLF, tabs and BOM are normalised', () => {
  assert.equal(html('\uFEFF# T\r\n\r\n-\tx\r\n'), '<h1 id="t">T</h1>\n<ul>\n<li>x</li>\n</ul>');
});

test('render collects headings, links and counts tables', () => {
  const r = render('# A\n\n[x](u) ![i](p.png)\n\n|h|\n|-|\n|v|');
  assert.deepEqual(r.headings, [{ level: 1, text: 'A', id: 'a' }]);
  assert.deepEqual(r.links, [{ type: 'link', text: 'x', url: 'u' }, { type: 'image', text: 'i', url: 'p.png' }]);
  assert.equal(r.tables, 1);
});

test('standalone documents get a title', () => {
  const doc = toHtml('intro\n\n# Fish & *Chips*', { standalone: true });
  assert.match(doc, /^<!DOCTYPE html>\n<html lang="en">/);
  assert.match(doc, /<title>Fish &amp; Chips<\/title>/);
  assert.match(doc, /<body>\n<p>intro<\/p>\n<h1 id="fish--chips">Fish &amp; <em>Chips<\/em><\/h1>\n<\/body>\n<\/html>\n$/);
  assert.match(toHtml('x', { standalone: true, title: 'Given' }), /<title>Given<\/title>/);
});

test('slugs and entities', () => {
  assert.equal(slugify('Héllo, Wörld 2.0!'), 'héllo-wörld-20');
  const s = new Slugger();
  assert.deepEqual(['x', 'x', 'x-1', 'x'].map((t) => s.slug(t)), ['x', 'x-1', 'x-1-1', 'x-2']);
  assert.equal(decodeEntities('&lt;&#65;&#x42;&copy;&bogus;'), '<AB\u00a9&bogus;');
  assert.equal(plainText('<a href="#">x &amp; <img alt="y" src="z"></a>'), 'x & y');
});
