package static

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestReadmeLeaves keeps every subcommand of a command line, those its
// README runs (options may stand between the program and the subcommand)
// first.
func TestReadmeLeaves(t *testing.T) {
	tool := func(n int) *Tool {
		root := &Command{}
		for i := range n {
			root.Subs = append(root.Subs, &Command{Name: fmt.Sprintf("cmd%02d", i)})
		}
		return &Tool{Name: "datakit", Source: "pyproject.toml", Root: root}
	}
	readme := "# datakit\n\n```\n$ datakit cmd03 data.db rows.csv\n$ datakit --verbose cmd07 data.db\n```\n\nOr `datakit -o out.json cmd11`.\n\nSee datakit cmd99 (no such command) and cmd05 alone.\n"
	names := func(ls []leaf) []string {
		var out []string
		for _, l := range ls {
			out = append(out, strings.Join(l.path, " "))
		}
		return out
	}
	big := tool(20)
	kept, notes := readmeLeaves(big, leaves(big), readme)
	if got := names(kept); len(got) != 20 || !slices.Equal(got[:3], []string{"cmd03", "cmd07", "cmd11"}) || notes != nil {
		t.Errorf("kept %v (notes %q), want all 20, the README's runs first", got, notes)
	}
	if kept, _ := readmeLeaves(big, leaves(big), ""); names(kept)[0] != "cmd00" || len(kept) != 20 {
		t.Errorf("no README: kept %v, want all in order", names(kept))
	}
}

// Subcommands that serve the tool itself (help, version, shell
// completion under any name) are no capability.
func TestHiddenCommands(t *testing.T) {
	for name, want := range map[string]bool{"help": true, "completion": true, "genautocomplete": true, "gen-completions": true,
		"csv2json": false, "complete-rows": false, "summary": false} {
		if got := isHiddenCommand(name); got != want {
			t.Errorf("isHiddenCommand(%q) = %v, want %v", name, got, want)
		}
	}
}
