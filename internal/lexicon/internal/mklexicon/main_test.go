package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

const wordnetDir = "/usr/share/wordnet"

// TestTableUpToDate rebuilds the table from the installed WordNet database
// (Debian's wordnet-base) and compares it with the embedded one, so the
// table never drifts from its generator.
func TestTableUpToDate(t *testing.T) {
	if _, err := os.Stat(filepath.Join(wordnetDir, "index.noun")); err != nil {
		t.Skip("WordNet database not installed (apt-get install wordnet-base)")
	}
	dir := t.TempDir()
	out, derived, antonyms := filepath.Join(dir, "wordnet.txt.gz"), filepath.Join(dir, "derived.txt.gz"), filepath.Join(dir, "antonyms.txt.gz")
	if err := run(wordnetDir, out, derived, antonyms); err != nil {
		t.Fatal(err)
	}
	for built, embedded := range map[string]string{out: "../../wordnet.txt.gz", derived: "../../derived.txt.gz", antonyms: "../../antonyms.txt.gz"} {
		got, want := unzip(t, built), unzip(t, embedded)
		if !bytes.Equal(got, want) {
			t.Errorf("embedded %s differs from the one built from %s (%d vs %d bytes): run go generate ./internal/lexicon", filepath.Base(embedded), wordnetDir, len(want), len(got))
		}
	}
}

// TestBadDatabase: a missing or malformed database file is an error, not a
// partial table.
func TestBadDatabase(t *testing.T) {
	dir := t.TempDir()
	if err := run(dir, filepath.Join(dir, "out.gz"), filepath.Join(dir, "derived.gz"), filepath.Join(dir, "antonyms.gz")); err == nil {
		t.Error("run succeeded without database files")
	}
	for _, pos := range posFiles {
		os.WriteFile(filepath.Join(dir, "index."+pos), []byte("walk v x\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "data."+pos), nil, 0o644)
	}
	if err := run(dir, filepath.Join(dir, "out.gz"), filepath.Join(dir, "derived.gz"), filepath.Join(dir, "antonyms.gz")); err == nil {
		t.Error("run accepted a malformed index line")
	}
}

func unzip(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
