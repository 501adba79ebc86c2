package static

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestSourceModelGolden reads the command line each synthetic program of
// testdata/source/*.txtar defines in its source (the archive's files, but
// "want.json", are the repository) and compares the command models, one
// per entry point, with the file "want.json". Go programs are read with
// go/ast; Python programs with pyscan.py, which needs a python3 and is
// skipped under -short. Refresh with `go test ./generation/static -run
// TestSourceModelGolden -update` and read the diff.
func TestSourceModelGolden(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "source", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden source programs (%v)", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			repoFiles := map[string]string{}
			python := false
			for _, f := range ar.Files {
				if f.Name != "want.json" {
					repoFiles[f.Name] = string(f.Data)
					python = python || strings.HasSuffix(f.Name, ".py")
				}
			}
			if python && testing.Short() {
				t.Skip("reading Python source runs python3; skipped under -short")
			}
			if _, err := exec.LookPath("python3"); python && err != nil {
				t.Skip("no python3")
			}
			got, err := json.MarshalIndent(sourceModel(t, repoFiles, python), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			if *update {
				setSection(ar, "want.json", got)
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if want := section(ar, "want.json"); !bytes.Equal(got, want) {
				t.Errorf("%s: the command model changed (refresh with -update and read the diff):\n%s", file, got)
			}
		})
	}
}

// sourceModel returns the command model each entry point of a repository
// defines in its source, by the entry point's name.
func sourceModel(t *testing.T, files map[string]string, python bool) map[string]*Command {
	t.Helper()
	out := map[string]*Command{}
	if !python {
		for _, tool := range goTools(mustScan(t, writeRepo(t, files))) {
			out[tool.Name] = tool.Root
		}
		return out
	}
	sc := scanPython(t, files)
	for _, en := range sc.Entries {
		switch {
		case en.Argparse != nil:
			out[en.Name] = argparseCommand(en.Argparse)
		case len(en.Click) > 0:
			out[en.Name] = clickCommand(en.Click[0])
		default:
			out[en.Name] = &Command{}
		}
	}
	return out
}
