'use strict';

/**
 * mdkit: Markdown to HTML, tables of contents and link lists.
 *
 *   const mdkit = require('mdkit');
 *   mdkit.toHtml('# Hi\n\nSome *text*.');     // '<h1 id="hi">Hi</h1>\n<p>Some <em>text</em>.</p>\n'
 *   mdkit.toc(source, { depth: 2 });          // '- [Hi](#hi)\n'
 *   mdkit.links(source);                      // [{ type: 'link', text, url }, ...]
 */

const { render, toHtml, wrapDocument } = require('./markdown');
const { toc, headings } = require('./toc');
const { links, formatLinks } = require('./links');
const { slugify, Slugger } = require('./slug');

module.exports = { render, toHtml, wrapDocument, toc, headings, links, formatLinks, slugify, Slugger };
