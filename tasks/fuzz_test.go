package tasks

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentnet/agentnet/internal/yamlx"
)

// FuzzParse feeds arbitrary bytes to the suite loader: it must never panic,
// and whatever it rejects it rejects with positioned problems.
func FuzzParse(f *testing.F) {
	for _, pattern := range []string{"testdata/good/*.yaml", "testdata/bad/*.yaml"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Add([]byte(`{"version":1,"name":"j","repos":[{"id":"a","source":".","skills":[{"id":"s","description":"d"}]}]}`))
	f.Add([]byte("&a [*a]"))
	f.Add([]byte("version: 1\nrepos: &r [*r]\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse(filepath.Join(dir, "suite.yaml"), data)
		if err == nil {
			return
		}
		ps, ok := yamlx.AsProblems(err)
		if !ok {
			t.Fatalf("Parse error is not a list of problems: %v", err)
		}
		for _, p := range ps {
			if p.Line <= 0 || p.Msg == "" {
				t.Fatalf("problem without a position or message: %+v", p)
			}
		}
	})
}
