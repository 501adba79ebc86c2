'use strict';

/**
 * A small Markdown parser and HTML renderer, without dependencies.
 *
 * Supported: ATX and setext headings, paragraphs with hard line breaks,
 * emphasis (*em*, _em_, **strong**, __strong__, ***both***, ~~strike~~),
 * inline code, fenced code (``` and ~~~, with a language class), indented
 * code, block quotes, nested ordered/unordered lists (tight and loose, task
 * list items), thematic breaks, inline links and images with titles,
 * reference links ([text][ref], [text][], [ref]), autolinks (<https://...>,
 * <me@example.com>), bare URLs (https://..., www....), GFM tables with
 * column alignment, backslash escapes, entities and raw HTML blocks/tags.
 *
 * Parsing happens in two steps: parseBlocks() turns lines into a tree of
 * block nodes (collecting link reference definitions), and render() turns
 * the tree into HTML, parsing inline content on the way. The render context
 * records the headings (with their anchor ids) and links that were seen,
 * which toc and links use.
 */

const { Slugger } = require('./slug');

// ---------------------------------------------------------------------------
// helpers

/** Escape &, <, >, " for HTML text and attribute values. */
function escapeHtml(s) {
  return String(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** Like escapeHtml, but keeps entity references such as &copy; or &#169;. */
function escapeText(s) {
  return String(s)
    .replace(/&(?!#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]{1,31};)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** Percent-encode characters that may not appear in a URL, then HTML-escape. */
function escapeUrl(url) {
  const encoded = String(url).replace(/[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/g, (c) => {
    try {
      return encodeURIComponent(c);
    } catch {
      return '';
    }
  });
  return escapeHtml(encoded);
}

const NAMED_ENTITIES = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', copy: '\u00a9',
  reg: '\u00ae', trade: '\u2122', mdash: '\u2014', ndash: '\u2013', hellip: '\u2026',
  laquo: '\u00ab', raquo: '\u00bb', ldquo: '\u201c', rdquo: '\u201d', lsquo: '\u2018',
  rsquo: '\u2019', euro: '\u20ac', times: '\u00d7', deg: '\u00b0', middot: '\u00b7',
};

/** Decode the common HTML entities of a string. */
function decodeEntities(s) {
  return String(s).replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/g, (m, e) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      try {
        return String.fromCodePoint(code);
      } catch {
        return m;
      }
    }
    return Object.prototype.hasOwnProperty.call(NAMED_ENTITIES, e) ? NAMED_ENTITIES[e] : m;
  });
}

/** Plain text of an HTML fragment: images become their alt text, tags go. */
function plainText(html) {
  const text = String(html)
    .replace(/<img\b[^>]*?\balt="([^"]*)"[^>]*>/gi, '$1')
    .replace(/<[^>]*>/g, '');
  return decodeEntities(text).replace(/\s+/g, ' ').trim();
}

/** Normalise a link reference label: case-folded, whitespace collapsed. */
function normLabel(label) {
  return label.trim().replace(/\s+/g, ' ').toLowerCase();
}

const ESCAPABLE = /[!-/:-@[-`{-~]/;

/** Remove backslash escapes and decode entities (for URLs and titles). */
function unescapeMd(s) {
  return decodeEntities(String(s).replace(/\\([!-/:-@[-`{-~])/g, '$1'));
}

function isBlank(line) {
  return /^[ \t]*$/.test(line);
}

/** Expand tabs in the leading whitespace to 4-column tab stops. */
function expandTabs(line) {
  const m = /^[ \t]*/.exec(line)[0];
  if (!m.includes('\t')) return line;
  let col = 0;
  let out = '';
  for (const ch of m) {
    if (ch === '\t') {
      const n = 4 - (col % 4);
      out += ' '.repeat(n);
      col += n;
    } else {
      out += ch;
      col += 1;
    }
  }
  return out + line.slice(m.length);
}

function leadingSpaces(line) {
  return /^ */.exec(line)[0].length;
}

/** Remove up to n leading spaces. */
function stripIndent(line, n) {
  let i = 0;
  while (i < n && line[i] === ' ') i++;
  return line.slice(i);
}

// ---------------------------------------------------------------------------
// block structure

const RE = {
  atx: /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/,
  fence: /^( {0,3})(`{3,}|~{3,})(.*)$/,
  hr: /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/,
  setext1: /^ {0,3}=+[ \t]*$/,
  setext2: /^ {0,3}-+[ \t]*$/,
  quote: /^ {0,3}>/,
  indented: /^ {4}/,
  htmlBlock: /^ {0,3}(?:<!--|<\/?(?:address|article|aside|blockquote|details|dialog|div|dl|dt|dd|fieldset|figcaption|figure|footer|form|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|summary|table|tbody|td|tfoot|th|thead|tr|ul|style|script)(?=[\s/>]|$))/i,
  tableDelim: /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/,
  refDef: /^ {0,3}\[((?:[^\]\\]|\\.){1,999})\]:[ \t]*(?:<([^>\n]*)>|(\S+))(?:[ \t]+(?:"([^"]*)"|'([^']*)'|\(([^)]*)\)))?[ \t]*$/,
};

/**
 * List item marker of a line, or null.
 * @returns {{indent:number, ordered:boolean, char:string, start:number, offset:number, rest:string}|null}
 */
function listMarker(line) {
  const m = /^( {0,3})(?:([-+*])|([0-9]{1,9})([.)]))([ \t]+|$)(.*)$/.exec(line);
  if (!m) return null;
  const indent = m[1].length;
  const marker = m[2] || m[3] + m[4];
  let col = indent + marker.length;
  for (const ch of m[5]) col += ch === '\t' ? 4 - (col % 4) : 1;
  let spaces = col - indent - marker.length;
  let rest = m[6];
  if (rest === '') spaces = 1;
  else if (spaces > 4) {
    rest = ' '.repeat(spaces - 1) + rest;
    spaces = 1;
  }
  return {
    indent,
    ordered: !m[2],
    char: m[2] || m[4],
    start: m[3] ? parseInt(m[3], 10) : 1,
    offset: indent + marker.length + spaces,
    rest,
  };
}

function isTableStart(lines, i) {
  return (
    i + 1 < lines.length &&
    lines[i].includes('|') &&
    lines[i + 1].includes('|') &&
    RE.tableDelim.test(lines[i + 1]) &&
    splitRow(lines[i]).length === splitRow(lines[i + 1]).length
  );
}

/** Can this line interrupt a paragraph? */
function interrupts(line) {
  if (RE.atx.test(line) || RE.hr.test(line) || RE.quote.test(line) || RE.htmlBlock.test(line)) return true;
  const f = RE.fence.exec(line);
  if (f && !(f[2][0] === '`' && f[3].includes('`'))) return true;
  const mk = listMarker(line);
  return Boolean(mk && mk.rest.trim() !== '' && (!mk.ordered || mk.start === 1));
}

/** Split a table row into cell strings (pipes in code spans or escaped stay). */
function splitRow(line) {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  const cells = [];
  let cur = '';
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === '\\' && s[i + 1] === '|') {
      cur += '|';
      i += 2;
    } else if (c === '`') {
      const run = /^`+/.exec(s.slice(i))[0];
      const end = s.indexOf(run, i + run.length);
      if (end >= 0) {
        cur += s.slice(i, end + run.length);
        i = end + run.length;
      } else {
        cur += run;
        i += run.length;
      }
    } else if (c === '|') {
      cells.push(cur.trim());
      cur = '';
      i++;
    } else {
      cur += c;
      i++;
    }
  }
  cells.push(cur.trim());
  return cells;
}

function alignOf(cell) {
  const left = cell.startsWith(':');
  const right = cell.endsWith(':');
  if (left && right) return 'center';
  if (right) return 'right';
  if (left) return 'left';
  return '';
}

/**
 * Parse lines into block nodes.
 * @param {string[]} lines lines without line breaks, tabs already expanded
 * @param {{refs: Map}} ctx collects link reference definitions
 * @returns {object[]} block nodes
 */
function parseBlocks(lines, ctx) {
  ctx.depth = (ctx.depth || 0) + 1;
  try {
    return parseBlockList(lines, ctx);
  } finally {
    ctx.depth -= 1;
  }
}

// Block quotes and lists nested deeper than this are read as plain text.
const MAX_NESTING = 50;

function parseBlockList(lines, ctx) {
  const out = [];
  const nest = ctx.depth <= MAX_NESTING;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    let m;
    if (isBlank(line)) {
      i++;
      continue;
    }

    // fenced code
    m = RE.fence.exec(line);
    if (m && !(m[2][0] === '`' && m[3].includes('`'))) {
      const indent = m[1].length;
      const fence = m[2];
      const close = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
      const body = [];
      i++;
      while (i < lines.length && !close.test(lines[i])) {
        body.push(stripIndent(lines[i], indent));
        i++;
      }
      i++; // closing fence (or end of input)
      const info = unescapeMd(m[3].trim());
      out.push({ type: 'code', lang: info.split(/\s+/)[0] || '', text: body.join('\n') });
      continue;
    }

    // ATX heading
    m = RE.atx.exec(line);
    if (m) {
      let text = (m[2] || '').replace(/(?:^|[ \t]+)#+$/, '').trim();
      if (/^#+$/.test(text)) text = '';
      out.push({ type: 'heading', level: m[1].length, text });
      i++;
      continue;
    }

    if (RE.hr.test(line)) {
      out.push({ type: 'hr' });
      i++;
      continue;
    }

    // block quote (with lazy paragraph continuation lines)
    if (nest && RE.quote.test(line)) {
      const body = [];
      while (i < lines.length) {
        const l = lines[i];
        if (RE.quote.test(l)) {
          body.push(expandTabs(l.replace(/^ {0,3}> ?/, '')));
          i++;
        } else if (!isBlank(l) && body.length && !isBlank(body[body.length - 1]) && !interrupts(l)) {
          body.push(l);
          i++;
        } else break;
      }
      out.push({ type: 'blockquote', children: parseBlocks(body, ctx) });
      continue;
    }

    // lists
    if (nest && listMarker(line)) {
      i = parseList(lines, i, ctx, out);
      continue;
    }

    // indented code
    if (RE.indented.test(line)) {
      const body = [];
      while (i < lines.length && (RE.indented.test(lines[i]) || isBlank(lines[i]))) {
        body.push(stripIndent(lines[i], 4));
        i++;
      }
      while (body.length && isBlank(body[body.length - 1])) body.pop();
      out.push({ type: 'code', lang: '', text: body.join('\n') });
      continue;
    }

    // raw HTML block
    if (RE.htmlBlock.test(line)) {
      const body = [];
      if (/^ {0,3}<!--/.test(line)) {
        while (i < lines.length) {
          body.push(lines[i]);
          i++;
          if (body[body.length - 1].includes('-->')) break;
        }
      } else {
        while (i < lines.length && !isBlank(lines[i])) {
          body.push(lines[i]);
          i++;
        }
      }
      out.push({ type: 'html', text: body.join('\n') });
      continue;
    }

    // table
    if (isTableStart(lines, i)) {
      const header = splitRow(line);
      const align = splitRow(lines[i + 1]).map(alignOf);
      const rows = [];
      i += 2;
      while (i < lines.length && !isBlank(lines[i]) && !interrupts(lines[i])) {
        const cells = splitRow(lines[i]).slice(0, header.length);
        while (cells.length < header.length) cells.push('');
        rows.push(cells);
        i++;
      }
      out.push({ type: 'table', header, align, rows });
      continue;
    }

    // link reference definition
    m = RE.refDef.exec(line);
    if (m) {
      const label = normLabel(m[1]);
      if (label && !ctx.refs.has(label)) {
        ctx.refs.set(label, {
          url: unescapeMd(m[2] !== undefined ? m[2] : m[3]),
          title: [m[4], m[5], m[6]].find((t) => t !== undefined),
        });
      }
      i++;
      continue;
    }

    // paragraph, maybe turned into a setext heading
    const para = [line.replace(/^[ \t]+/, '')];
    i++;
    let setext = 0;
    while (i < lines.length) {
      const l = lines[i];
      if (isBlank(l)) break;
      if (RE.setext1.test(l)) {
        setext = 1;
        i++;
        break;
      }
      if (RE.setext2.test(l)) {
        setext = 2;
        i++;
        break;
      }
      if (interrupts(l) || isTableStart(lines, i)) break;
      para.push(l.replace(/^[ \t]+/, ''));
      i++;
    }
    const text = para.join('\n').replace(/[ \t]+$/, '');
    if (setext) out.push({ type: 'heading', level: setext, text: text.trim() });
    else out.push({ type: 'paragraph', text });
  }
  return out;
}

function sameList(a, b) {
  return b && a.ordered === b.ordered && a.char === b.char;
}

/** Parse a list starting at lines[i]; pushes the node, returns the next index. */
function parseList(lines, i, ctx, out) {
  const first = listMarker(lines[i]);
  const list = { type: 'list', ordered: first.ordered, start: first.start, loose: false, items: [] };
  while (i < lines.length) {
    const mk = listMarker(lines[i]);
    if (!sameList(first, mk) || RE.hr.test(lines[i])) break;
    const body = [mk.rest];
    let blanks = 0;
    let blankInside = false;
    i++;
    while (i < lines.length) {
      const l = lines[i];
      if (isBlank(l)) {
        body.push('');
        blanks++;
        i++;
        continue;
      }
      if (leadingSpaces(l) >= mk.offset) {
        if (blanks && body.some((b) => !isBlank(b))) blankInside = true;
        body.push(l.slice(mk.offset));
        blanks = 0;
        i++;
        continue;
      }
      // lazy continuation of a paragraph
      if (!blanks && !isBlank(body[body.length - 1]) && !interrupts(l) && !listMarker(l)) {
        body.push(l.replace(/^[ \t]+/, ''));
        i++;
        continue;
      }
      break;
    }
    while (body.length && isBlank(body[body.length - 1])) body.pop();
    const children = parseBlocks(body, ctx);
    if (blankInside && children.length > 1) list.loose = true;
    let task = null;
    if (children[0] && children[0].type === 'paragraph') {
      const t = /^\[([ xX])\][ \t]+/.exec(children[0].text);
      if (t) {
        task = t[1] !== ' ';
        children[0].text = children[0].text.slice(t[0].length);
      }
    }
    list.items.push({ children, task });
    if (blanks) {
      if (i < lines.length && sameList(first, listMarker(lines[i])) && !RE.hr.test(lines[i])) list.loose = true;
      else break;
    }
  }
  out.push(list);
  return i;
}

// ---------------------------------------------------------------------------
// inline content

/** Index of the "]" matching the "[" at src[i], or -1. */
function findBracketClose(src, i) {
  let depth = 0;
  for (let p = i; p < src.length; p++) {
    const c = src[p];
    if (c === '\\') {
      p++;
    } else if (c === '`') {
      const run = /^`+/.exec(src.slice(p))[0];
      const end = src.indexOf(run, p + run.length);
      if (end >= 0) p = end + run.length - 1;
      else p += run.length - 1;
    } else if (c === '[') depth++;
    else if (c === ']') {
      depth--;
      if (depth === 0) return p;
    }
  }
  return -1;
}

/** Parse "(dest "title")" starting after the "(" at src[k-1]. */
function parseDestination(src, k) {
  let p = k;
  const skipWs = () => {
    while (p < src.length && /[ \t\n]/.test(src[p])) p++;
  };
  skipWs();
  let url;
  if (src[p] === '<') {
    const e = src.indexOf('>', p);
    if (e < 0 || src.slice(p + 1, e).includes('\n')) return null;
    url = src.slice(p + 1, e);
    p = e + 1;
  } else {
    const s = p;
    let depth = 0;
    while (p < src.length) {
      const ch = src[p];
      if (ch === '\\' && p + 1 < src.length) {
        p += 2;
        continue;
      }
      if (/\s/.test(ch)) break;
      if (ch === '(') depth++;
      else if (ch === ')') {
        if (depth === 0) break;
        depth--;
      }
      p++;
    }
    url = src.slice(s, p);
  }
  const beforeTitle = p;
  skipWs();
  let title;
  const open = src[p];
  if ((open === '"' || open === "'" || open === '(') && p > beforeTitle) {
    const closeCh = open === '(' ? ')' : open;
    let q = p + 1;
    while (q < src.length && src[q] !== closeCh) {
      if (src[q] === '\\') q++;
      q++;
    }
    if (q >= src.length) return null;
    title = unescapeMd(src.slice(p + 1, q));
    p = q + 1;
    skipWs();
  }
  if (src[p] !== ')') return null;
  return { url: unescapeMd(url), title, end: p + 1 };
}

const RAW_TAG = /^(?:<!--[\s\S]*?-->|<\/?[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>)/;
const AUTOLINK = /^<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*)>/;
const EMAIL = /^<([A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+)>/;
const BARE_URL = /^(?:https?:\/\/|www\.)[^\s<]+/i;

/** Trim trailing punctuation from a bare URL the way GitHub does. */
function trimBareUrl(url) {
  let u = url.replace(/[?!.,:*_~'"]+$/, '');
  while (u.endsWith(')')) {
    const opens = (u.match(/\(/g) || []).length;
    const closes = (u.match(/\)/g) || []).length;
    if (closes <= opens) break;
    u = u.slice(0, -1).replace(/[?!.,:*_~'"]+$/, '');
  }
  return u;
}

/** Apply emphasis and strikethrough to escaped text with placeholders. */
function emphasis(s) {
  const W = '\\p{L}\\p{N}_';
  return s
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '<del>$1</del>')
    .replace(/\*\*\*(?=\S)([\s\S]*?\S)\*\*\*/g, '<em><strong>$1</strong></em>')
    .replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, '<strong>$1</strong>')
    .replace(new RegExp(`(^|[^${W}])___(?=\\S)([\\s\\S]*?\\S)___(?![${W}])`, 'gu'), '$1<em><strong>$2</strong></em>')
    .replace(new RegExp(`(^|[^${W}])__(?=\\S)([\\s\\S]*?\\S)__(?![${W}])`, 'gu'), '$1<strong>$2</strong>')
    .replace(/\*(?=[^\s*])([\s\S]*?[^\s*]|[^\s*])\*/g, '<em>$1</em>')
    .replace(new RegExp(`(^|[^${W}])_(?=[^\\s_])([\\s\\S]*?[^\\s_]|[^\\s_])_(?![${W}])`, 'gu'), '$1<em>$2</em>');
}

/**
 * Render inline Markdown to HTML.
 * @param {string} src inline source (may contain line breaks)
 * @param {object} ctx render context (refs, links, inLink)
 */
function inline(src, ctx) {
  const store = [];
  const hold = (html) => {
    store.push(html);
    return `\u0000${store.length - 1}\u0000`;
  };
  let out = '';
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    const rest = src.slice(i);
    let m;

    if (c === '\\') {
      const n = src[i + 1];
      if (n === '\n') {
        out += hold('<br />\n');
        i += 2;
        continue;
      }
      if (n !== undefined && ESCAPABLE.test(n)) {
        out += hold(escapeHtml(n));
        i += 2;
        continue;
      }
      out += c;
      i++;
      continue;
    }

    if (c === '`') {
      const run = /^`+/.exec(rest)[0];
      let end = -1;
      let p = i + run.length;
      while ((p = src.indexOf(run, p)) >= 0) {
        if (src[p + run.length] !== '`' && src[p - 1] !== '`') {
          end = p;
          break;
        }
        p += run.length;
      }
      if (end >= 0) {
        let code = src.slice(i + run.length, end).replace(/\n/g, ' ');
        if (/^ [\s\S]* $/.test(code) && code.trim() !== '') code = code.slice(1, -1);
        out += hold(`<code>${escapeHtml(code)}</code>`);
        i = end + run.length;
      } else {
        out += hold(run);
        i += run.length;
      }
      continue;
    }

    if ((c === '!' && src[i + 1] === '[') || c === '[') {
      const image = c === '!';
      const r = image || !ctx.inLink ? parseLink(src, image ? i + 1 : i, ctx, image) : null;
      if (r) {
        out += hold(r.html);
        i = r.end;
        continue;
      }
      out += image ? '![' : '[';
      i += image ? 2 : 1;
      continue;
    }

    if (c === '<') {
      if ((m = AUTOLINK.exec(rest)) && !ctx.inLink) {
        out += hold(linkHtml(m[1], null, escapeHtml(m[1]), ctx, m[1]));
        i += m[0].length;
        continue;
      }
      if ((m = EMAIL.exec(rest)) && !ctx.inLink) {
        out += hold(linkHtml(`mailto:${m[1]}`, null, escapeHtml(m[1]), ctx, m[1]));
        i += m[0].length;
        continue;
      }
      if ((m = RAW_TAG.exec(rest))) {
        out += hold(m[0]);
        i += m[0].length;
        continue;
      }
    }

    if ((c === 'h' || c === 'H' || c === 'w' || c === 'W') && !ctx.inLink && (i === 0 || /[\s*_~(]/.test(src[i - 1]))) {
      m = BARE_URL.exec(rest);
      if (m) {
        const text = trimBareUrl(m[0]);
        if (!/^www\.$/i.test(text) && text.length > 4) {
          const href = /^www\./i.test(text) ? `http://${text}` : text;
          out += hold(linkHtml(href, null, escapeHtml(text), ctx, text));
          i += text.length;
          continue;
        }
      }
    }

    if (c === '\n') {
      if (/ {2,}$/.test(out)) {
        out = out.replace(/ +$/, '');
        out += hold('<br />\n');
      } else {
        out = out.replace(/ +$/, '');
        out += '\n';
      }
      i++;
      continue;
    }

    out += c;
    i++;
  }
  const html = emphasis(escapeText(out));
  return html.replace(/\u0000(\d+)\u0000/g, (_, n) => store[Number(n)]);
}

function linkHtml(url, title, innerHtml, ctx, text) {
  if (ctx.links) ctx.links.push({ type: 'link', text: text !== undefined ? text : plainText(innerHtml), url });
  const t = title ? ` title="${escapeHtml(title)}"` : '';
  return `<a href="${escapeUrl(url)}"${t}>${innerHtml}</a>`;
}

/**
 * Parse a link or image whose "[" is at src[i].
 * @returns {{html: string, end: number}|null}
 */
function parseLink(src, i, ctx, image) {
  const close = findBracketClose(src, i);
  if (close < 0) return null;
  const label = src.slice(i + 1, close);
  let j = close + 1;
  let url;
  let title;
  if (src[j] === '(') {
    const d = parseDestination(src, j + 1);
    if (d) {
      url = d.url;
      title = d.title;
      j = d.end;
    }
  }
  if (url === undefined) {
    const m = /^\[((?:[^\]\\]|\\.)*)\]/.exec(src.slice(j));
    let key;
    if (m) {
      key = normLabel(m[1] || label);
      if (!ctx.refs.has(key)) return null;
      j += m[0].length;
    } else {
      key = normLabel(label);
      if (!key || !ctx.refs.has(key)) return null;
    }
    ({ url, title } = ctx.refs.get(key));
  }

  if (image) {
    const alt = plainText(inline(label, { ...ctx, links: null, inLink: true }));
    if (ctx.links) ctx.links.push({ type: 'image', text: alt, url });
    const t = title ? ` title="${escapeHtml(title)}"` : '';
    return { html: `<img src="${escapeUrl(url)}" alt="${escapeHtml(alt)}"${t} />`, end: j };
  }
  // reserve the entry first so that links keep document order when the
  // label itself holds an image (badges: [![ci](badge.svg)](ci-url))
  const entry = { type: 'link', text: '', url };
  if (ctx.links) ctx.links.push(entry);
  const inner = inline(label, { ...ctx, inLink: true });
  entry.text = plainText(inner);
  const t = title ? ` title="${escapeHtml(title)}"` : '';
  return { html: `<a href="${escapeUrl(url)}"${t}>${inner}</a>`, end: j };
}

// ---------------------------------------------------------------------------
// rendering

function renderBlocks(nodes, ctx, tight = false) {
  return nodes.map((n) => renderBlock(n, ctx, tight)).join('\n');
}

function renderBlock(node, ctx, tight) {
  switch (node.type) {
    case 'heading': {
      const html = inline(node.text, ctx);
      const text = plainText(html);
      const id = ctx.slugger.slug(text);
      ctx.headings.push({ level: node.level, text, id });
      return `<h${node.level} id="${id}">${html}</h${node.level}>`;
    }
    case 'paragraph': {
      const html = inline(node.text, ctx);
      return tight ? html : `<p>${html}</p>`;
    }
    case 'code': {
      const cls = node.lang ? ` class="language-${escapeHtml(node.lang)}"` : '';
      const body = node.text === '' ? '' : `${escapeHtml(node.text)}\n`;
      ctx.stats.code++;
      return `<pre><code${cls}>${body}</code></pre>`;
    }
    case 'hr':
      return '<hr />';
    case 'html':
      return node.text;
    case 'blockquote':
      return `<blockquote>\n${renderBlocks(node.children, ctx)}\n</blockquote>`;
    case 'list': {
      const tag = node.ordered ? 'ol' : 'ul';
      const start = node.ordered && node.start !== 1 ? ` start="${node.start}"` : '';
      const items = node.items.map((item) => {
        let body = renderBlocks(item.children, ctx, !node.loose);
        if (item.task !== null) {
          const box = `<input type="checkbox" disabled=""${item.task ? ' checked=""' : ''} /> `;
          body = node.loose ? body.replace(/^<p>/, `<p>${box}`) : box + body;
        }
        const cls = item.task !== null ? ' class="task-list-item"' : '';
        if (item.children.length === 0) return `<li${cls}></li>`;
        const first = item.children[0];
        const last = item.children[item.children.length - 1];
        const lead = !node.loose && first.type === 'paragraph' ? '' : '\n';
        const trail = !node.loose && last.type === 'paragraph' ? '' : '\n';
        return `<li${cls}>${lead}${body}${trail}</li>`;
      });
      return `<${tag}${start}>\n${items.join('\n')}\n</${tag}>`;
    }
    case 'table': {
      ctx.stats.tables++;
      const attr = (k) => (node.align[k] ? ` align="${node.align[k]}"` : '');
      const head = node.header.map((c, k) => `<th${attr(k)}>${inline(c, ctx)}</th>`).join('\n');
      let html = `<table>\n<thead>\n<tr>\n${head}\n</tr>\n</thead>`;
      if (node.rows.length) {
        const rows = node.rows.map(
          (r) => `<tr>\n${r.map((c, k) => `<td${attr(k)}>${inline(c, ctx)}</td>`).join('\n')}\n</tr>`,
        );
        html += `\n<tbody>\n${rows.join('\n')}\n</tbody>`;
      }
      return `${html}\n</table>`;
    }
    default:
      return '';
  }
}

/** Split Markdown source into normalised lines. */
function toLines(source) {
  return String(source)
    .replace(/^\uFEFF/, '')
    .replace(/\u0000/g, '\uFFFD')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map(expandTabs);
}

/**
 * Parse and render a Markdown document.
 * @param {string} source Markdown text
 * @returns {{html: string, headings: {level:number,text:string,id:string}[],
 *   links: {type:string,text:string,url:string}[], tables: number, codeBlocks: number}}
 */
function render(source) {
  const ctx = { refs: new Map() };
  const nodes = parseBlocks(toLines(source), ctx);
  Object.assign(ctx, { slugger: new Slugger(), headings: [], links: [], stats: { tables: 0, code: 0 }, inLink: false });
  const body = renderBlocks(nodes, ctx);
  return {
    html: body ? `${body}\n` : '',
    headings: ctx.headings,
    links: ctx.links,
    tables: ctx.stats.tables,
    codeBlocks: ctx.stats.code,
  };
}

/**
 * Convert Markdown to an HTML fragment (or a full document).
 * @param {string} source Markdown text
 * @param {{standalone?: boolean, title?: string}} [opts]
 * @returns {string}
 */
function toHtml(source, opts = {}) {
  const r = render(source);
  if (!opts.standalone) return r.html;
  return wrapDocument(r, opts.title);
}

/** Wrap a render() result in a complete HTML5 document. */
function wrapDocument(r, title) {
  const h1 = r.headings.find((h) => h.level === 1);
  const t = title || (h1 ? h1.text : r.headings.length ? r.headings[0].text : 'Document');
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8" />',
    '<meta name="viewport" content="width=device-width, initial-scale=1" />',
    `<title>${escapeHtml(t)}</title>`,
    '</head>',
    '<body>',
    r.html + '</body>',
    '</html>',
    '',
  ].join('\n');
}

module.exports = {
  render,
  toHtml,
  wrapDocument,
  parseBlocks,
  toLines,
  inline,
  escapeHtml,
  decodeEntities,
  plainText,
};
