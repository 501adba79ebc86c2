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

// TestPackageSummaryOnce checks that the summary two console scripts of
// one package share describes only the one named like the repository.
func TestPackageSummaryOnce(t *testing.T) {
	t.Parallel()
	mk := func(name, about string) *Tool {
		root := parseHelp("usage: " + name + " [-h] [files ...]\n\n" + about + "\n\npositional arguments:\n  files  One or more Python source files.\n")
		return &Tool{Name: name, Prog: []string{name}, Root: root, Summary: "A Python utility / library to sort Python imports."}
	}
	tools := []*Tool{mk("sortimp-identify", "Get all import definitions."), mk("sortimp", "Sort Python import definitions alphabetically within logical sections.")}
	b := compose(&repo{}, tools, "", Options{Name: "sortimp"})
	for _, sk := range b.Skills {
		if sk.ID != "sortimp" && strings.Contains(sk.Description, "utility / library") {
			t.Errorf("%s: description %q; want the package summary only on sortimp", sk.ID, sk.Description)
		}
	}
}
