package static

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadmeSections(t *testing.T) {
	t.Parallel()
	readme := "# logtool\n\n" +
		"* **errors**: error lines with their timestamps,\n" +
		"  oldest first\n" +
		"* **error rate**: the share of requests that failed\n" +
		"- `rate FILE [--by hour]` — requests per minute\n\n" +
		"| command | output |\n| --- | --- |\n| `tail FILE` | lines as they are written, `<pre>` kept |\n\n" +
		"### rate — busiest minutes\n\n```console\n$ logtool rate access.log\n```\n\nBuckets are minutes unless --by says otherwise.\n\n" +
		"## error handling\n\nExit status 2 on bad input.\n"
	got := readmeSections(readme, []string{"errors", "error", "rate", "tail"})
	want := map[string]readmeNote{
		// a list item that wraps onto an indented line
		"errors": {Line: "error lines with their timestamps, oldest first"},
		// "error rate" is a phrase, not the command "error" with arguments;
		// "error handling" is a heading about errors, not a label
		"error": {Section: "Exit status 2 on bad input."},
		// the list item wins over the heading's subtitle; the section is the
		// prose after the example
		"rate": {Line: "requests per minute", Section: "Buckets are minutes unless --by says otherwise."},
		// a table row; code spans keep what looks like HTML
		"tail": {Line: "lines as they are written, <pre> kept"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("readmeSections() mismatch (-want +got):\n%s", diff)
	}

	got = readmeSections("### `mass` — molar mass of formulas\n\nGrams per mole.\n", []string{"mass"})
	if want := (readmeNote{Line: "molar mass of formulas", Section: "Grams per mole."}); got["mass"] != want {
		t.Errorf("readmeSections(heading with subtitle)[mass] = %+v, want %+v", got["mass"], want)
	}
}

func TestDescribe(t *testing.T) {
	t.Parallel()
	tool := &Tool{Name: "logtool", Summary: "Tools for server logs."}
	for _, tc := range []struct {
		name    string
		tool    *Tool
		path    []string
		cmd     *Command
		notes   map[string]readmeNote
		project string // the README's opening sentence
		want    string
	}{
		{
			name:  "summary, README label and first sentence of help",
			path:  []string{"errors"},
			cmd:   &Command{Summary: "error lines of a log", About: "Scan FILE for error and fatal entries and print them with their timestamps. Continuation lines are joined.\n\nMore detail."},
			notes: map[string]readmeNote{"errors": {Line: "errors with severity, oldest first", Section: "Error lines are found by level."}},
			want:  "Error lines of a log. Errors with severity, oldest first. Scan FILE for error and fatal entries and print them with their timestamps.",
		},
		{
			name:  "a label that restates the summary is left out",
			path:  []string{"rate"},
			cmd:   &Command{Summary: "requests per minute (stable)", About: "Count the requests of each minute and print the busiest ones."},
			notes: map[string]readmeNote{"rate": {Line: "the requests per minute"}},
			want:  "Requests per minute (stable). Count the requests of each minute and print the busiest ones.",
		},
		{
			name:  "without help text, the README section",
			path:  []string{"tail"},
			cmd:   &Command{},
			notes: map[string]readmeNote{"tail": {Section: "Follow a growing log. It never exits."}},
			want:  "Follow a growing log.",
		},
		{
			name: "nothing said at all",
			tool: &Tool{Name: "logtool"},
			path: []string{"x"},
			cmd:  &Command{},
			want: "Run the x command of logtool.",
		},
		{
			name: "the tool itself: its doc",
			cmd:  &Command{},
			want: "Tools for server logs.",
		},
		{
			name: "a summary the listing cut short gives way to the whole sentence",
			path: []string{"memory"},
			cmd: &Command{Summary: "Execute SQL query against an in-memory database,...",
				About: "Execute SQL query against an in-memory database, optionally populated by imported data. More."},
			want: "Execute SQL query against an in-memory database, optionally populated by imported data.",
		},
		{
			name:    "a tool whose help is two words: its README's opening sentence follows",
			tool:    &Tool{Name: "slugify"},
			cmd:     &Command{About: "Slug string."},
			project: "A Python slugify application that handles unicode.",
			want:    "Slug string. A Python slugify application that handles unicode.",
		},
		{
			name:    "a subcommand's short help stays its own",
			tool:    &Tool{Name: "slugify"},
			path:    []string{"lower"},
			cmd:     &Command{Summary: "Lower-case."},
			project: "A Python slugify application that handles unicode.",
			want:    "Lower-case.",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tl := tool
			if tc.tool != nil {
				tl = tc.tool
			}
			if got := describe(tl, tc.path, tc.cmd, tc.notes, tc.project); got != tc.want {
				t.Errorf("describe(%v) = %q, want %q", tc.path, got, tc.want)
			}
		})
	}
}

// TestPathParameters checks which flags and arguments name files: by their
// metavar, name or help, and not a TEXT that is the text itself.
func TestPathParameters(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		flag Flag
		want bool
	}{
		{Flag{Long: "title", Metavar: "TEXT", Type: "string", Help: "document title"}, false},
		{Flag{Long: "replacement", Metavar: "TEXT", Type: "string", Help: "text that replaces each secret"}, false},
		{Flag{Long: "config", Metavar: "FILE", Type: "string"}, true},
		{Flag{Long: "in", Metavar: "FILE.md", Type: "string"}, true},
		{Flag{Long: "exclude-dir", Metavar: "DIR", Type: "string"}, false},
	} {
		if got := isPathFlag(&tc.flag); got != tc.want {
			t.Errorf("isPathFlag(--%s %s) = %v, want %v", tc.flag.Long, tc.flag.Metavar, got, tc.want)
		}
	}
	for _, tc := range []struct {
		arg  Arg
		want bool
	}{
		{Arg{Name: "TEXT", Variadic: true}, false},
		{Arg{Name: "input_string", Help: "Text to slugify"}, false},
		{Arg{Name: "FILE"}, true},
		{Arg{Name: "doc", Help: "a plain text file to read"}, true},
		{Arg{Name: "file_to_scan", Variadic: true}, true},
		{Arg{Name: "path-to-config"}, true},
		{Arg{Name: "filesystem_label"}, false},
		{Arg{Name: "yaml_file1", Variadic: true}, true},
		{Arg{Name: "pages", Variadic: true}, false}, // page numbers, not web pages
	} {
		if got := isPathArg(&tc.arg); got != tc.want {
			t.Errorf("isPathArg(%s) = %v, want %v", tc.arg.Name, got, tc.want)
		}
	}
}
