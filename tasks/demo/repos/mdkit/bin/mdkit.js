#!/usr/bin/env node
'use strict';

/**
 * mdkit command-line interface.
 *
 *   mdkit html FILE.md [-o out.html] [--standalone] [--title TEXT]
 *   mdkit toc FILE.md [--depth N] [--numbered] [--json]
 *   mdkit links FILE.md [--images] [--unique] [--base URL] [--json]
 *
 * Exit codes: 0 success, 1 bad input (unreadable file), 2 usage error.
 */

const fs = require('node:fs');
const { parseArgs } = require('node:util');
const { render, wrapDocument } = require('../lib/markdown');
const { toc, headings } = require('../lib/toc');
const { links, formatLinks } = require('../lib/links');

const VERSION = require('../package.json').version;

const HELP = {
  main: `Usage: mdkit COMMAND FILE.md [OPTIONS]

Markdown tools: convert to HTML, build a table of contents, list the links.

Commands:
  html FILE.md [-o out.html] [--standalone]   convert Markdown to HTML (headings, emphasis, code,
                                              lists, links, images, tables, block quotes)
  toc FILE.md [--depth N]                     nested table of contents with anchor links
  links FILE.md [--images] [--unique]         links as "text<TAB>url" lines

Options:
  -h, --help       show help; "mdkit COMMAND --help" shows a command's help
  --version        print the version

FILE.md may be "-" to read standard input.

Examples:
  mdkit html README.md -o README.html --standalone
  mdkit toc guide.md --depth 2
  mdkit links README.md --unique
`,
  html: `Usage: mdkit html FILE.md [-o FILE] [--standalone] [--title TEXT]

Convert Markdown (CommonMark with GitHub extensions) to HTML. Covered:
ATX and setext headings (with GitHub-style id anchors), paragraphs, hard
line breaks, *emphasis*, **strong**, ~~strikethrough~~, \`inline code\`,
fenced code blocks (\`\`\`lang adds class="language-lang"), indented code,
block quotes, nested ordered/unordered lists, task lists, horizontal
rules, links, reference links, autolinks, bare URLs, images, tables with
column alignment, and raw HTML.

Arguments:
  FILE.md                 Markdown file ("-" for standard input)

Options:
  -o, --output FILE       write the HTML to FILE and print a summary line
                          instead of printing the HTML
  -s, --standalone        emit a complete HTML document (<!DOCTYPE html>,
                          <head> with <title>) instead of a fragment
  --title TEXT            document title for --standalone (default: the
                          first level-1 heading)
  -h, --help              show this help

Examples:
  mdkit html notes.md
  mdkit html report.md -o report.html --standalone --title "Q3 report"
`,
  toc: `Usage: mdkit toc FILE.md [--depth N] [--numbered] [--json]

Print a table of contents: a nested Markdown list with one
"- [Heading](#anchor)" line per heading. Anchors are the ids that
"mdkit html" gives the headings (GitHub style: lowercase, punctuation
removed, spaces as "-", "-1", "-2" added to repeated headings). Headings
inside code blocks are ignored.

Arguments:
  FILE.md                 Markdown file ("-" for standard input)

Options:
  -d, --depth N           deepest heading level to include, 1-6 (default 3)
  -n, --numbered          numbered list (1., 2., ...) instead of bullets
  --json                  print [{"level", "text", "id"}, ...] as JSON
  -h, --help              show this help

Examples:
  mdkit toc README.md
  mdkit toc guide.md --depth 2 --numbered
`,
  links: `Usage: mdkit links FILE.md [--images] [--unique] [--base URL] [--json]

List the links of a Markdown document in document order, one
"text<TAB>url" line each. Covered: inline links [text](url), reference
links [text][ref] resolved through their definitions, autolinks
<https://...>, e-mail autolinks and bare URLs. Links shown inside code are
skipped. A link without text is listed with its URL as text.

Arguments:
  FILE.md                 Markdown file ("-" for standard input)

Options:
  -i, --images            include images (alt text as text)
  -u, --unique            list each URL only once (first occurrence)
  -b, --base URL          resolve relative URLs against this absolute URL
  --json                  print [{"type", "text", "url"}, ...] as JSON
  -h, --help              show this help

Examples:
  mdkit links README.md
  mdkit links docs/index.md --unique --base https://example.org/docs/
`,
};

const OPTIONS = {
  html: {
    output: { type: 'string', short: 'o' },
    standalone: { type: 'boolean', short: 's' },
    title: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
  toc: {
    depth: { type: 'string', short: 'd' },
    numbered: { type: 'boolean', short: 'n' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
  links: {
    images: { type: 'boolean', short: 'i' },
    unique: { type: 'boolean', short: 'u' },
    base: { type: 'string', short: 'b' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
};

class UsageError extends Error {}
class InputError extends Error {}

function readInput(file) {
  try {
    return fs.readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (err) {
    const why = {
      ENOENT: 'no such file',
      EISDIR: 'is a directory',
      EACCES: 'permission denied',
    }[err.code] || err.message;
    throw new InputError(`cannot read '${file}': ${why}`);
  }
}

function writeOutput(file, text) {
  try {
    fs.writeFileSync(file, text);
  } catch (err) {
    throw new InputError(`cannot write '${file}': ${err.code === 'ENOENT' ? 'no such directory' : err.message}`);
  }
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function cmdHtml(file, opts, out) {
  const result = render(readInput(file));
  const html = opts.standalone ? wrapDocument(result, opts.title) : result.html;
  if (opts.output) {
    writeOutput(opts.output, html);
    const nLinks = result.links.filter((l) => l.type === 'link').length;
    out.write(
      `wrote ${opts.output}: ${plural(result.headings.length, 'heading')}, ` +
        `${plural(result.tables, 'table')}, ${plural(nLinks, 'link')}, ` +
        `${plural(Buffer.byteLength(html), 'byte')}\n`,
    );
  } else {
    out.write(html);
  }
}

function cmdToc(file, opts, out) {
  let depth = 3;
  if (opts.depth !== undefined) {
    if (!/^[1-6]$/.test(opts.depth)) throw new UsageError(`--depth must be a number from 1 to 6, got '${opts.depth}'`);
    depth = Number(opts.depth);
  }
  const source = readInput(file);
  if (opts.json) out.write(`${JSON.stringify(headings(source, { depth }), null, 2)}\n`);
  else out.write(toc(source, { depth, numbered: opts.numbered }));
}

function cmdLinks(file, opts, out) {
  if (opts.base !== undefined) {
    try {
      new URL(opts.base);
    } catch {
      throw new UsageError(`--base must be an absolute URL, got '${opts.base}'`);
    }
  }
  const list = links(readInput(file), { images: opts.images, unique: opts.unique, base: opts.base });
  if (opts.json) out.write(`${JSON.stringify(list, null, 2)}\n`);
  else out.write(formatLinks(list));
}

const COMMANDS = { html: cmdHtml, toc: cmdToc, links: cmdLinks };

/**
 * Run the CLI.
 * @param {string[]} argv arguments after the program name
 * @param {{out?: NodeJS.WritableStream, err?: NodeJS.WritableStream}} [io]
 * @returns {number} exit code
 */
function main(argv, io = {}) {
  const out = io.out || process.stdout;
  const err = io.err || process.stderr;
  const [cmd, ...rest] = argv;
  try {
    if (cmd === undefined) {
      throw new UsageError('missing command (html, toc or links)');
    }
    if (cmd === '-h' || cmd === '--help' || cmd === 'help') {
      out.write(HELP.main);
      return 0;
    }
    if (cmd === '--version') {
      out.write(`mdkit ${VERSION}\n`);
      return 0;
    }
    if (!Object.prototype.hasOwnProperty.call(COMMANDS, cmd)) {
      throw new UsageError(`unknown command '${cmd}'`);
    }
    let parsed;
    try {
      parsed = parseArgs({ args: rest, options: OPTIONS[cmd], allowPositionals: true, strict: true });
    } catch (e) {
      const msg = e.message.split('\n')[0].replace(/\. To specify a positional.*$/, '');
      throw new UsageError(msg.charAt(0).toLowerCase() + msg.slice(1));
    }
    if (parsed.values.help) {
      out.write(HELP[cmd]);
      return 0;
    }
    const pos = parsed.positionals;
    if (pos.length !== 1) {
      throw new UsageError(`${cmd} needs exactly one FILE.md argument, got ${pos.length}`);
    }
    COMMANDS[cmd](pos[0], parsed.values, out);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      const where = COMMANDS[cmd] ? `mdkit ${cmd} --help` : 'mdkit --help';
      err.write(`mdkit: ${e.message} (see "${where}")\n`);
      return 2;
    }
    if (e instanceof InputError) {
      err.write(`mdkit: ${e.message}\n`);
      return 1;
    }
    err.write(`mdkit: ${e && e.message ? e.message.split('\n')[0] : String(e)}\n`);
    return 1;
  }
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2));
}

module.exports = { main, HELP };
