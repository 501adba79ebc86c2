"""Command-line interface of htmltext.

Run ``htmltext --help`` (or ``python3 -m htmltext --help``) for usage.
"""

import argparse
import json
import os
import sys

from . import __version__
from .base import HTMLError, read_html
from .links import extract_links
from .meta import extract_meta
from .tables import extract_tables, table_to_csv
from .text import html_to_text

PROG = "htmltext"


class CLIError(Exception):
    """An error reported as one line on stderr with exit status 1."""


def _read(path):
    try:
        return read_html(path)
    except HTMLError as exc:
        raise CLIError(str(exc))


def _emit(text, output, summary):
    """Write ``text`` to ``output`` (and print ``summary``) or to stdout."""
    if output:
        try:
            with open(output, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
        except OSError as exc:
            raise CLIError("cannot write %s: %s" % (output, exc.strerror or exc))
        print(summary)
    else:
        sys.stdout.write(text)


def cmd_text(args):
    text = html_to_text(_read(args.page), markdown=args.markdown, alt=args.alt)
    words = len(text.split())
    _emit(text, args.output, "wrote %s: %d lines, %d words" % (args.output, text.count("\n"), words))
    return 0


def cmd_links(args):
    links = extract_links(
        _read(args.page),
        base=args.base,
        unique=not args.all,
        fragments=args.fragments,
        resources=args.resources,
    )
    if args.external:
        from urllib.parse import urlsplit

        host = urlsplit(args.base or "").netloc
        links = [(u, t) for u, t in links
                 if urlsplit(u).scheme in ("http", "https") and urlsplit(u).netloc != host]
    if args.text:
        out = "".join("%s\t%s\n" % (u, t) for u, t in links)
    else:
        out = "".join(u + "\n" for u, _ in links)
    _emit(out, args.output, "wrote %s: %d links" % (args.output, len(links)))
    return 0


def cmd_tables(args):
    tables = extract_tables(_read(args.page))
    if args.list:
        if not tables:
            print("no tables")
        for i, t in enumerate(tables, start=1):
            rows, cols = t.shape
            head = t.header
            parts = ["%d: %d rows x %d columns" % (i, rows, cols)]
            if t.id:
                parts.append("id=%s" % t.id)
            if t.caption:
                parts.append("caption: %s" % t.caption)
            parts.append("header: %s" % (", ".join(head) if head else "(none)"))
            print("; ".join(parts))
        return 0
    if not tables:
        raise CLIError("no tables found in %s" % args.page)
    if args.index < 1 or args.index > len(tables):
        raise CLIError("table %d does not exist; the page has %d table(s) (see --list)"
                       % (args.index, len(tables)))
    t = tables[args.index - 1]
    text = table_to_csv(t, header=not args.no_header)
    rows, cols = t.shape
    _emit(text, args.output, "wrote %s: table %d, %d rows x %d columns"
          % (args.output, args.index, text.count("\n"), cols))
    return 0


def cmd_meta(args):
    meta = extract_meta(_read(args.page))
    print(json.dumps(meta, ensure_ascii=False, indent=2))
    return 0


def build_parser():
    """Build the argparse parser with all subcommands."""
    fmt = argparse.RawDescriptionHelpFormatter
    p = argparse.ArgumentParser(
        prog=PROG,
        formatter_class=fmt,
        description=(
            "Extract readable text, links, tables and metadata from HTML pages.\n"
            "PAGE is a local HTML file ('-' reads standard input)."
        ),
        epilog=(
            "examples:\n"
            "  htmltext text page.html\n"
            "  htmltext links page.html --base https://example.org/blog/\n"
            "  htmltext tables page.html --list\n"
            "  htmltext tables page.html --index 2 -o table.csv\n"
            "  htmltext meta page.html"
        ),
    )
    p.add_argument("--version", action="version", version="%(prog)s " + __version__)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    s = sub.add_parser(
        "text",
        formatter_class=fmt,
        help="readable text of a page",
        description=(
            "Print the readable text of an HTML page: scripts, styles, <head>,\n"
            "comments and hidden elements are dropped, entities decoded and\n"
            "whitespace collapsed (except in <pre>). Headings, paragraphs and\n"
            "other blocks are separated by a blank line; list items become\n"
            "'- item' / '1. item' lines; table cells are joined with ' | '."
        ),
        epilog="examples:\n  htmltext text article.html\n  htmltext text article.html --markdown -o article.md",
    )
    s.add_argument("page", metavar="PAGE", help="HTML file ('-' for stdin)")
    s.add_argument("--markdown", action="store_true", help="mark headings with '#' and write links as [text](url)")
    s.add_argument("--alt", action="store_true", help="keep the alt text of images as [alt]")
    s.add_argument("-o", "--output", metavar="FILE", help="write the text to FILE instead of stdout")
    s.set_defaults(func=cmd_text)

    s = sub.add_parser(
        "links",
        formatter_class=fmt,
        help="list the links of a page as absolute URLs",
        description=(
            "Print the URL of every <a href> and <area href>, one per line, in\n"
            "document order and without duplicates. Relative URLs are resolved\n"
            "against --base (or the page's <base href>). javascript: links and\n"
            "same-page #anchors are left out."
        ),
        epilog="examples:\n  htmltext links page.html --base https://example.org/docs/index.html\n"
        "  htmltext links page.html --text          # URL<TAB>link text",
    )
    s.add_argument("page", metavar="PAGE", help="HTML file ('-' for stdin)")
    s.add_argument("--base", metavar="URL", help="URL the page was served from, to resolve relative links")
    s.add_argument("--text", action="store_true", help="print 'URL<TAB>link text' lines")
    s.add_argument("--all", action="store_true", help="keep duplicate URLs")
    s.add_argument("--fragments", action="store_true", help="keep same-page #anchor links")
    s.add_argument("--resources", action="store_true",
                   help="also list images, scripts, stylesheets, frames and form actions")
    s.add_argument("--external", action="store_true",
                   help="only http(s) links to other hosts than the --base host")
    s.add_argument("-o", "--output", metavar="FILE", help="write the list to FILE instead of stdout")
    s.set_defaults(func=cmd_links)

    s = sub.add_parser(
        "tables",
        formatter_class=fmt,
        help="convert an HTML table to CSV",
        description=(
            "Print table N of the page (1 = first, in document order; nested\n"
            "tables count separately) as CSV. Rows of <th> cells (or <thead>)\n"
            "give the header row; colspan/rowspan cells are repeated into every\n"
            "column/row they cover; inline markup such as H<sub>2</sub>O is\n"
            "flattened to H2O. Use --list to see which tables exist."
        ),
        epilog="examples:\n  htmltext tables page.html --list\n  htmltext tables page.html --index 2\n"
        "  htmltext tables page.html --index 2 -o compounds.csv",
    )
    s.add_argument("page", metavar="PAGE", help="HTML file ('-' for stdin)")
    s.add_argument("--index", "-n", type=int, default=1, metavar="N", help="which table, 1-based (default 1)")
    s.add_argument("--list", action="store_true", help="list the tables (size, caption, header) instead")
    s.add_argument("--no-header", action="store_true", help="leave out the header row(s)")
    s.add_argument("-o", "--output", metavar="FILE", help="write the CSV to FILE instead of stdout")
    s.set_defaults(func=cmd_tables)

    s = sub.add_parser(
        "meta",
        formatter_class=fmt,
        help="page metadata as JSON (title, description, headings, lang)",
        description=(
            "Print JSON with the page title, meta description, language, the\n"
            "outline of headings [{level, text}], keywords, author, canonical URL\n"
            "and counts of links, images, tables and paragraphs."
        ),
        epilog="example:\n  htmltext meta page.html",
    )
    s.add_argument("page", metavar="PAGE", help="HTML file ('-' for stdin)")
    s.set_defaults(func=cmd_meta)
    return p


def main(argv=None):
    """Entry point of the ``htmltext`` command. Returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except CLIError as exc:
        print("%s: error: %s" % (PROG, exc), file=sys.stderr)
        return 1
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # last resort: one line, never a traceback
        print("%s: error: %s: %s" % (PROG, type(exc).__name__, exc), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
