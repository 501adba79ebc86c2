package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestProvenanceRecorded checks that a run's provenance reaches config.json,
// results.json, report.html and the tables, and that every file of the run
// directory is readable by all.
func TestProvenanceRecorded(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "run")
	cfg := RunConfig{Suite: "sample", SuiteSHA256: "abc", Generator: "llm", Attempts: 1,
		Runtime: "process", Router: "bm25", Judge: "rules", Model: "m-1"}
	s, err := Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	started := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	prov := Provenance{Agentnet: "v1.2.3", Commit: "c0ffee", Host: "bench-host", Started: started,
		Models: map[string]string{"generator": "m-1"}, SuiteDigest: "sha256:0123"}
	if err := s.Stamp(prov); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveRepo(RepoResult{ID: "a"}); err != nil {
		t.Fatal(err)
	}
	r := sampleResults()
	Summarize(r, 1)
	if err := s.WriteResults(r); err != nil {
		t.Fatal(err)
	}

	var conf configFile
	if err := readJSONFile(filepath.Join(dir, "config.json"), &conf); err != nil {
		t.Fatal(err)
	}
	back, err := LoadResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]*Provenance{"config.json": conf.Provenance, "results.json": back.Provenance} {
		if got == nil || got.Finished == nil {
			t.Fatalf("%s: provenance %+v, want one with a finish time", name, got)
		}
		want := prov
		want.Finished = got.Finished
		if diff := cmp.Diff(want, *got); diff != "" {
			t.Errorf("%s provenance (-want +got):\n%s", name, diff)
		}
	}
	if diff := cmp.Diff(cfg, conf.RunConfig); diff != "" {
		t.Errorf("config.json configuration (-want +got):\n%s", diff)
	}
	if back.Config == nil || *back.Config != cfg {
		t.Errorf("results.json config = %+v, want %+v", back.Config, cfg)
	}

	html, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	var text bytes.Buffer
	if err := WriteTables(&text, back); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"agentnet v1.2.3 (commit c0ffee)", "host bench-host", "started 2026-12-01 10:00:00 UTC",
		"generator m-1", "Generator llm, runtime process, router bm25, judge rules", "sha256:0123"} {
		if !bytes.Contains(html, []byte(want)) {
			t.Errorf("report.html lacks %q", want)
		}
		if !strings.Contains(text.String(), want) {
			t.Errorf("tables lack %q:\n%s", want, text.String())
		}
	}

	err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, want 0644", path, fi.Mode().Perm())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestProvenanceResumed checks that a resumed run keeps its first
// provenance and records the resumption, with a changed suite named.
func TestProvenanceResumed(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "run")
	cfg := RunConfig{Suite: "sample", Router: "bm25"}
	s, err := Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	first := Provenance{Agentnet: "v1", Host: "h1", Started: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), SuiteDigest: "sha256:aa"}
	if err := s.Stamp(first); err != nil {
		t.Fatal(err)
	}
	r, err := Resume(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	again := Provenance{Agentnet: "v2", Host: "h2", Started: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), SuiteDigest: "sha256:bb"}
	if err := r.Stamp(again); err != nil {
		t.Fatal(err)
	}
	want := first
	want.Resumed = []Resumption{{At: again.Started, Agentnet: "v2", Host: "h2", SuiteDigest: "sha256:bb"}}
	if diff := cmp.Diff(&want, r.Provenance()); diff != "" {
		t.Errorf("resumed provenance (-want +got):\n%s", diff)
	}
	lines := strings.Join(provenanceLines(&Results{Provenance: r.Provenance()}), "\n")
	if !strings.Contains(lines, "resumed 1 time(s)") || !strings.Contains(lines, "suite's files changed") {
		t.Errorf("provenance lines lack the resumption and the changed suite:\n%s", lines)
	}
}

// TestResumeOlderRun checks that a run recorded before provenance existed
// still resumes, and still refuses a changed configuration.
func TestResumeOlderRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := `{"suite": "sample", "suite_sha256": "abc", "generator": "static", "attempts": 1, "all_attempts": false,
		"runtime": "process", "router": "bm25", "judge": "rules"}`
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	var cfg RunConfig
	if err := json.Unmarshal([]byte(old), &cfg); err != nil {
		t.Fatal(err)
	}
	s, err := Resume(dir, cfg)
	if err != nil {
		t.Fatalf("Resume of an older run = %v", err)
	}
	if s.Provenance() != nil {
		t.Errorf("older run provenance = %+v, want none", s.Provenance())
	}
	// It spoke JSON-RPC: resuming it with jsonrpc said goes on, another
	// binding is a change.
	cfg.Binding = "jsonrpc"
	if _, err := Resume(dir, cfg); err != nil {
		t.Errorf("Resume of an older run with binding jsonrpc = %v", err)
	}
	var mm *ConfigMismatchError
	cfg.Binding = "grpc"
	if _, err := Resume(dir, cfg); !errors.As(err, &mm) || !strings.Contains(err.Error(), "binding: jsonrpc → grpc") {
		t.Errorf("Resume of an older run with binding grpc = %v, want a mismatch naming the binding", err)
	}
	cfg.Binding = ""
	cfg.Router = "llm"
	if _, err := Resume(dir, cfg); !errors.As(err, &mm) {
		t.Errorf("Resume of an older run with another router = %v, want a mismatch", err)
	}
}

// TestWriteHTMLProvenance renders a report of a run with provenance: the
// page names the agentnet build and the host that made it.
func TestWriteHTMLProvenance(t *testing.T) {
	t.Parallel()
	r := &Results{Suite: "s", Provenance: &Provenance{
		Agentnet: "v1.2.3", Commit: "abc123", Host: "build-7",
		Started: time.Date(2026, 12, 2, 6, 0, 0, 0, time.UTC),
	}}
	var buf bytes.Buffer
	if err := WriteHTML(&buf, r); err != nil {
		t.Fatalf("WriteHTML() error = %v", err)
	}
	for _, want := range []string{"agentnet v1.2.3 (commit abc123)", "build-7"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("WriteHTML() page lacks %q", want)
		}
	}
}
