package static

import (
	"errors"
	"strings"
	"testing"
)

// TestMergeKeepsSourceName checks that a flag the help and the source both
// give keeps the source's name for its parameter (argparse's dest).
func TestMergeKeepsSourceName(t *testing.T) {
	t.Parallel()
	src := &Command{Flags: []*Flag{{Long: "diff", Name: "show_diff", Type: "boolean", Typed: true}}}
	help := parseHelp("usage: isort [--diff] [files ...]\n\noptions:\n  --df, --diff  Prints a diff of all the changes isort would make to a file.\n")
	mergeCommand(src, help, true)
	if len(src.Flags) == 0 || src.Flags[0].Name != "show_diff" {
		t.Errorf("merged flags = %+v, want the source's name show_diff", src.Flags)
	}
}

// TestMissingNote checks the reason a generation gives for modules the
// interpreter lacks: the option is suggested only when it was not given.
func TestMissingNote(t *testing.T) {
	t.Parallel()
	base := errors.New("no tool runs")
	missing := []Missing{{Module: "pathspec", Debian: "python3-pathspec"}, {Module: "pytokens"}}
	got := withMissingNote(base, missing, false).Error()
	for _, want := range []string{"pathspec (Debian: python3-pathspec)", "pytokens (no Debian package known)", "--install-system-deps installs them"} {
		if !strings.Contains(got, want) {
			t.Errorf("note without the option = %q, want %q in it", got, want)
		}
	}
	got = withMissingNote(base, missing, true).Error()
	if strings.Contains(got, "installs them") || !strings.Contains(got, "not provided by the Debian packages") {
		t.Errorf("note with the option = %q, want no suggestion to pass it", got)
	}
}
