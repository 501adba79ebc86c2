package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// call runs the command line and returns stdout, stderr and the exit status.
func call(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return out.String(), errOut.String(), code
}

func TestDistanceCommand(t *testing.T) {
	out, _, code := call(t, "distance", "kitten", "sitting")
	if code != 0 || out != "distance: 3\nratio: 0.5714\n" {
		t.Fatalf("got %d %q", code, out)
	}
	out, _, _ = call(t, "distance", "--ops", "kitten", "sitting")
	for _, want := range []string{"substitute 'k' -> 's' at 1", "substitute 'e' -> 'i' at 5", "insert 'g' at 7"} {
		if !strings.Contains(out, want) {
			t.Errorf("--ops output lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = call(t, "distance", "ACME", "acme", "-i", "--json")
	var v struct {
		Distance int
		Ratio    float64
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.Distance != 0 || v.Ratio != 1 {
		t.Errorf("json: %v %+v from %s", err, v, out)
	}
}

func TestBestCommand(t *testing.T) {
	out, _, code := call(t, "best", "jon smith", "testdata/names.txt", "-n", "2")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	want := "1.0000\tJon Smith\n0.9000\tJohn Smith\n"
	if out != want {
		t.Errorf("got %q, want %q", out, want)
	}
	// --exact keeps case: "JON SMITH" then matches nothing exactly.
	out, _, _ = call(t, "best", "--exact", "-n", "1", "JON SMITH", "testdata/names.txt")
	if strings.HasPrefix(out, "1.0000") {
		t.Errorf("--exact should be case-sensitive: %q", out)
	}
	out, _, _ = call(t, "best", "--min", "0.95", "jon smith", "testdata/names.txt")
	if out != "1.0000\tJon Smith\n" {
		t.Errorf("--min: %q", out)
	}
}

func TestBestCSVColumn(t *testing.T) {
	out, _, code := call(t, "best", "blu widgit", "testdata/products.csv", "--column", "NAME", "-n", "1", "--row")
	if code != 0 || out != "0.8182\tB2;Blue Widget;3,10\n" {
		t.Errorf("got %d %q", code, out)
	}
	_, errOut, code := call(t, "best", "x", "testdata/products.csv", "--column", "colour")
	if code != 1 || !strings.Contains(errOut, `no column "colour"`) {
		t.Errorf("got %d %q", code, errOut)
	}
}

func TestDedupeCommand(t *testing.T) {
	out, _, code := call(t, "dedupe", "testdata/names.txt", "--summary")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	want := "3\tJon Smith\n2\tJane Doe\n1\tAlice Walker\n6 entries in 3 clusters\n"
	if out != want {
		t.Errorf("got %q, want %q", out, want)
	}
	out, _, _ = call(t, "dedupe", "--plain", "--sort", "size", "--threshold", "0.95", "testdata/names.txt")
	if out != "John Smith\nJon Smith\nJane Doe\nJane Dow\nAlice Walker\n" {
		t.Errorf("strict threshold: %q", out)
	}
}

func TestDedupeRepresentativeIsMostFrequent(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "cities.txt")
	data := "Munchen\nMünchen\nMünchen\nBerlin\nMuenchen\nberlin\n"
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, _ := call(t, "dedupe", "-t", "0.7", file)
	if out != "4\tMünchen\n2\tBerlin\n" {
		t.Errorf("got %q", out)
	}
	var clusters []Cluster
	out, _, _ = call(t, "dedupe", "-t", "0.7", "--json", file)
	if err := json.Unmarshal([]byte(out), &clusters); err != nil || len(clusters) != 2 || len(clusters[0].Variants) != 3 {
		t.Errorf("json: %v %s", err, out)
	}
}

func TestErrorsAndHelp(t *testing.T) {
	if _, errOut, code := call(t, "dedupe"); code != 2 || strings.Count(errOut, "\n") != 1 {
		t.Errorf("missing argument: %d %q", code, errOut)
	}
	if _, errOut, code := call(t, "dedupe", "nope.txt"); code != 1 || !strings.Contains(errOut, "nope.txt") {
		t.Errorf("missing file: %d %q", code, errOut)
	}
	if _, _, code := call(t, "best", "--bogus", "a", "b"); code != 2 {
		t.Errorf("unknown flag: exit %d", code)
	}
	if _, _, code := call(t, "frobnicate"); code != 2 {
		t.Errorf("unknown command: exit %d", code)
	}
	out, _, code := call(t, "--help")
	if code != 0 || !strings.Contains(out, "dedupe") || !strings.Contains(out, "distance") {
		t.Errorf("--help: %d %q", code, out)
	}
	for _, c := range commands {
		out, _, code := call(t, c.name, "--help")
		if code != 0 || !strings.Contains(out, "Usage: fuzzymatch "+c.name) || !strings.Contains(out, "Flags:") {
			t.Errorf("%s --help: %d %q", c.name, code, out)
		}
	}
}
