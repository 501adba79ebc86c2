package static

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/help")

// TestParseHelpGolden parses each help text in testdata/help/*.txtar (the
// file "help") and compares the command model with the file "want.json".
// Refresh with `go test ./generation/static -run TestParseHelpGolden
// -update` and read the diff: it is what the change does to every help.
func TestParseHelpGolden(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "help", "*.txtar"))
	if err != nil || len(files) < 20 {
		t.Fatalf("want at least 20 golden help texts, found %d (%v)", len(files), err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			help, want := section(ar, "help"), section(ar, "want.json")
			if help == nil {
				t.Fatalf("%s: no help section", file)
			}
			got, err := json.MarshalIndent(parseHelp(string(help)), "", "  ")
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
			if !bytes.Equal(got, want) {
				t.Errorf("%s: the command model changed (refresh with -update and read the diff):\n%s", file, got)
			}
		})
	}
}

func section(ar *txtar.Archive, name string) []byte {
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	return nil
}

func setSection(ar *txtar.Archive, name string, data []byte) {
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			ar.Files[i].Data = data
			return
		}
	}
	ar.Files = append(ar.Files, txtar.File{Name: name, Data: data})
}
