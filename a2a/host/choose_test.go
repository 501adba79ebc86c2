package host

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentnet/agentnet/bundle"
)

// TestBindGrade: a file of the type a parameter takes (a .csv, typed
// "text/csv; charset=utf-8" by its name) binds cleanly; one of another
// type does not.
func TestBindGrade(t *testing.T) {
	t.Parallel()
	b, err := bundle.Parse("agent.yaml", []byte(`version: 1
name: rows
description: d
skills:
  - id: batch
    name: batch
    description: Add a total column to a table.
    params:
      type: object
      properties:
        file: {type: string, format: path, x-role: input-file, description: Read a CSV file with a header row.}
      required: [file]
    run: [batch, "{{file}}"]
`))
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	for _, f := range []string{"rows.csv", "photo.png"} {
		if err := os.WriteFile(filepath.Join(work, f), []byte("a,b\n1,2\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	req := &request{text: "Add a total.", instruction: "Add a total."}
	if g := bindGrade(b.Skill("batch"), work, req, []string{"rows.csv"}); g != 2 {
		t.Errorf("bindGrade(rows.csv) = %d, want 2", g)
	}
	if g := bindGrade(b.Skill("batch"), work, req, []string{"photo.png"}); g != 0 {
		t.Errorf("bindGrade(photo.png) = %d, want 0", g)
	}
}
