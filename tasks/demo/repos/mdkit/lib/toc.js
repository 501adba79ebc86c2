'use strict';

const { render } = require('./markdown');

/**
 * Headings of a Markdown document, with the anchor ids that `mdkit html`
 * gives them.
 *
 * @param {string} source Markdown text
 * @param {{depth?: number}} [opts] depth: deepest heading level to keep (1-6)
 * @returns {{level: number, text: string, id: string}[]}
 */
function headings(source, opts = {}) {
  const depth = opts.depth || 6;
  return render(source).headings.filter((h) => h.level <= depth);
}

/** Escape the characters that would break a Markdown link text. */
function escapeLinkText(text) {
  return text.replace(/([\\[\]*_`])/g, '\\$1');
}

/**
 * A nested Markdown list of links to the document's headings.
 *
 * Nesting follows the heading structure, not the raw levels. A level-3
 * heading right under a level-1 heading is indented one step, and several
 * top-level headings become several top-level items.
 *
 * @param {string} source Markdown text
 * @param {{depth?: number, numbered?: boolean}} [opts]
 * @returns {string} Markdown, one "- [Text](#id)" line per heading
 */
function toc(source, opts = {}) {
  const list = headings(source, opts);
  const stack = [];
  const counters = [];
  const lines = [];
  for (const h of list) {
    while (stack.length && stack[stack.length - 1] >= h.level) stack.pop();
    const depth = stack.length;
    stack.push(h.level);
    counters.length = depth + 1;
    counters[depth] = (counters[depth] || 0) + 1;
    const marker = opts.numbered ? `${counters[depth]}.` : '-';
    const indent = opts.numbered ? '   ' : '  ';
    lines.push(`${indent.repeat(depth)}${marker} [${escapeLinkText(h.text)}](#${h.id})`);
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

module.exports = { toc, headings };
