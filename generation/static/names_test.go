package static

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFlagAliasesOneParam checks that an option with several names is one
// parameter, named by its longest long name (from a help) or its dest
// (from argparse source), and that a usage's brackets bring back neither an
// alias nor a version switch the help's list left out.
func TestFlagAliasesOneParam(t *testing.T) {
	t.Parallel()
	help := `usage: sorter [-h] [-V] [--vn] [-v] [--ac] [-l LINE_LENGTH] [--df] [files ...]

positional arguments:
  files                 One or more files to sort.

options:
  -h, --help            show this help message and exit
  -V, --version         Displays the currently installed version of sorter.
  --vn, --version-number
                        Returns just the current version number
  -v, --verbose         Shows verbose output.
  --ac, --atomic        Ensures the output doesn't save on errors.
  -l LINE_LENGTH, -w LINE_LENGTH, --line-length LINE_LENGTH, --line-width LINE_LENGTH
                        The max length of an import line.
  --df, --diff          Prints a diff of the changes.
`
	src := &pyParser{Args: []pyArg{
		{Names: []string{"-V", "--version"}, Action: "store_true", Dest: "show_version"},
		{Names: []string{"--vn", "--version-number"}, Action: "version"},
		{Names: []string{"-v", "--verbose"}, Action: "store_true", Dest: "verbose"},
		{Names: []string{"--ac", "--atomic"}, Action: "store_true", Dest: "atomic"},
		{Names: []string{"-l", "-w", "--line-length", "--line-width"}, Dest: "line_length", Type: "integer"},
		{Names: []string{"--df", "--diff"}, Action: "store_true", Dest: "show_diff"},
		{Names: []string{"files"}, Nargs: "*"},
	}}
	for _, tc := range []struct {
		name      string
		root      *Command
		wantProps []string
	}{
		{"help", parseHelp(help), []string{"atomic", "diff", "files", "line_length", "verbose"}},
		{"argparse source", argparseCommand(src), []string{"atomic", "files", "line_length", "show_diff", "show_version", "verbose"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tl := &Tool{Name: "sorter", Prog: []string{"sorter"}, Root: tc.root}
			sk := skillFor(tl, nil, tc.root, "", nil, "", nil)
			props := sk.Params["properties"].(map[string]any)
			var got []string
			for k := range props {
				got = append(got, k)
			}
			sort.Strings(got)
			if diff := cmp.Diff(tc.wantProps, got); diff != "" {
				t.Errorf("skillFor() params (-want +got):\n%s", diff)
			}
			run := strings.Join(sk.Run, " ")
			if strings.Count(run, "{{line_length}}") != 1 || slices.Contains(sk.Run, "-l") || slices.Contains(sk.Run, "-V") {
				t.Errorf("skillFor() run = %s, want --line-length once, no -l, no -V", run)
			}
		})
	}
}

// TestPathFlagNameParts checks that "file" makes a path only as a part of
// an option's name, not as letters inside a word ("profile").
func TestPathFlagNameParts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		long, meta string
		want       bool
	}{
		{"profile", "PROFILE", false},
		{"use-file-vars", "USE_FILE_VARS", false},
		{"settings-file", "SETTINGS_FILE", true},
		{"input-file", "X", true},
		{"infile", "X", true},
		{"filename", "X", true},
		{"link-patterns-file", "LINK_PATTERNS_FILE", true},
		{"files", "X", true},
	} {
		f := &Flag{Long: tc.long, Metavar: tc.meta, Type: "string"}
		if got := isPathFlag(f); got != tc.want {
			t.Errorf("isPathFlag(--%s %s) = %v, want %v", tc.long, tc.meta, got, tc.want)
		}
	}
}
