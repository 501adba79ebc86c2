'use strict';

/**
 * GitHub-style heading anchors.
 *
 * slugify("Install & Setup!") === "install--setup"
 *
 * The text is lowercased. Everything that is not a letter, a digit, a space,
 * "-" or "_" is removed, and each space becomes "-" (runs are not collapsed,
 * as on GitHub).
 *
 * @param {string} text plain heading text
 * @returns {string}
 */
function slugify(text) {
  return String(text)
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

/**
 * Makes unique slugs for one document: the second "Usage" heading becomes
 * "usage-1", the third "usage-2", and so on.
 */
class Slugger {
  constructor() {
    this.seen = new Map();
  }

  /**
   * @param {string} text plain heading text
   * @returns {string} a slug not returned before by this Slugger
   */
  slug(text) {
    const base = slugify(text) || 'section';
    let slug = base;
    while (this.seen.has(slug)) {
      const n = this.seen.get(base) + 1;
      this.seen.set(base, n);
      slug = `${base}-${n}`;
    }
    this.seen.set(slug, 0);
    return slug;
  }
}

module.exports = { slugify, Slugger };
