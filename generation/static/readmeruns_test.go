package static

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestReadmeLeaves keeps, of a command line with many subcommands, those
// its README runs (options may stand between the program and the
// subcommand), noting the others; with few subcommands, or a README that
// runs fewer than two, every subcommand stays.
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
	if want := []string{"cmd03", "cmd07", "cmd11"}; !slices.Equal(names(kept), want) {
		t.Errorf("kept %v, want %v", names(kept), want)
	}
	if len(notes) != 17 || !strings.Contains(notes[0], "datakit cmd00 (pyproject.toml): left out: one of 20 subcommands") {
		t.Errorf("notes = %d %q", len(notes), notes[:min(2, len(notes))])
	}
	small := tool(5)
	if kept, notes := readmeLeaves(small, leaves(small), readme); len(kept) != 5 || notes != nil {
		t.Errorf("5 subcommands: kept %d, notes %q; want all", len(kept), notes)
	}
	if kept, _ := readmeLeaves(big, leaves(big), "# datakit\n\nRun `datakit cmd03`.\n"); len(kept) != 20 {
		t.Errorf("a README that runs one subcommand: kept %d, want all 20", len(kept))
	}
}
