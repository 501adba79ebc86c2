'use strict';

const { render } = require('./markdown');

/**
 * Links of a Markdown document, in document order.
 *
 * Covered: inline links, reference links (resolved through their
 * definitions), autolinks <https://...>, e-mail autolinks and bare URLs.
 * Links in code spans and code blocks are not links and are skipped.
 *
 * @param {string} source Markdown text
 * @param {{images?: boolean, unique?: boolean, base?: string}} [opts]
 *   images: include images (alt text as text); unique: keep only the first
 *   link to each URL; base: resolve relative URLs against this absolute URL
 * @returns {{type: string, text: string, url: string}[]}
 */
function links(source, opts = {}) {
  let list = render(source).links.filter((l) => opts.images || l.type === 'link');
  if (opts.base) {
    list = list.map((l) => ({ ...l, url: resolve(l.url, opts.base) }));
  }
  if (opts.unique) {
    const seen = new Set();
    list = list.filter((l) => (seen.has(l.url) ? false : seen.add(l.url)));
  }
  return list.map((l) => ({ ...l, text: l.text.replace(/\s+/g, ' ').trim() || l.url }));
}

/** Resolve url against base; URLs that cannot be resolved stay as they are. */
function resolve(url, base) {
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}

/** Format links as "text<TAB>url" lines. */
function formatLinks(list) {
  return list.map((l) => `${l.text}\t${l.url}\n`).join('');
}

module.exports = { links, formatLinks };
