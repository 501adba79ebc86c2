package static

import (
	"slices"
	"strings"
	"testing"
)

// TestSiblingLeaves leaves out a subcommand that undoes or refreshes a
// sibling's work, the plural of a sibling and a store's maintenance, each
// with a note, and keeps a removal or refresh that has no creating sibling, one that changes the caller's data, and
// commands of the same name under different parents.
func TestSiblingLeaves(t *testing.T) {
	root := &Command{}
	for _, n := range []string{"create-table", "drop-table", "enable-wal", "disable-wal", "add-key", "add-keys",
		"insert-rows", "delete-rows", "drop-header", "stats", "os", "create-index", "rebuild-index", "refresh-header", "vacuum"} {
		root.Subs = append(root.Subs, &Command{Name: n})
	}
	root.Subs = append(root.Subs, &Command{Name: "cache", Subs: []*Command{{Name: "disable-table"}}})
	tool := &Tool{Name: "dbkit", Source: "pyproject.toml", Root: root}
	kept, notes := siblingLeaves(tool, leaves(tool))
	var got []string
	for _, l := range kept {
		got = append(got, leafKey(l))
	}
	want := []string{"create-table", "enable-wal", "add-key", "insert-rows", "delete-rows", "drop-header", "stats", "os", "create-index", "refresh-header", "cache disable-table"}
	if !slices.Equal(got, want) {
		t.Errorf("kept %q, want %q", got, want)
	}
	if len(notes) != 5 || !strings.Contains(notes[0], "dbkit drop-table (pyproject.toml): left out: it undoes what its sibling \"create-table\" does") ||
		!strings.Contains(notes[2], "add-keys") || !strings.Contains(notes[2], "plural") ||
		!strings.Contains(notes[3], "rebuild-index") || !strings.Contains(notes[3], "refreshes") || !strings.Contains(notes[4], "vacuum") {
		t.Errorf("notes %q, want drop-table, disable-wal, add-keys, rebuild-index and vacuum with their reasons", notes)
	}
}
