package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentnet/agentnet/internal/llm"
	"github.com/agentnet/agentnet/tasks"
)

// copySuite copies the commission test suite, which names a repo, input
// files, a case file with inputs of its own, hidden tests, a reference and a
// control, and loads the copy.
func copySuite(t *testing.T) *tasks.Suite {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "suite")
	if err := os.CopyFS(dir, os.DirFS("testdata/commission")); err != nil {
		t.Fatal(err)
	}
	s, err := tasks.Load(filepath.Join(dir, "suite.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSuiteDigest(t *testing.T) {
	t.Parallel()
	base := copySuite(t)
	want, err := SuiteDigest(base)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(want, "sha256:") || len(want) != len("sha256:")+64 {
		t.Fatalf("SuiteDigest = %q, want sha256:HEX", want)
	}
	if other := copySuite(t); mustDigest(t, other) != want {
		t.Errorf("two copies of one suite have different digests")
	}
	// Every file the suite names counts: changing one changes the digest.
	for _, rel := range []string{"suite.yaml", "repos/noop/README.md", "inputs/greeting.txt", "heldout.yaml",
		"heldout-inputs/secret.txt", "hidden/run.sh", "reference/shout.sh", "hollow/agent.yaml"} {
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			s := copySuite(t)
			appendTo(t, filepath.Join(s.Dir, rel), "\n# changed\n")
			if got := mustDigest(t, s); got == want {
				t.Errorf("changing %s left the digest %s", rel, got)
			}
		})
	}
	// Files the suite does not name, and version control data, do not.
	s := copySuite(t)
	if err := os.WriteFile(filepath.Join(s.Dir, "notes.txt"), []byte("unrelated"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(s.Dir, "repos/noop/.git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Dir, "repos/noop/.git/HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := mustDigest(t, s); got != want {
		t.Errorf("an unnamed file or a .git directory changed the digest: %s, want %s", got, want)
	}
}

func TestProvenanceModels(t *testing.T) {
	t.Parallel()
	o := Options{Suite: copySuite(t), Generator: "static", Router: "llm", Judge: "llm",
		LLM: &llm.Config{Model: "m-7"}, Build: Build{Version: "v9", Commit: "abc"}}
	o.defaults()
	p, err := o.provenance(time.Date(2026, 1, 1, 0, 0, 0, 5, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if p.Agentnet != "v9" || p.Commit != "abc" || p.Host == "" || p.SuiteDigest == "" || p.Started.Nanosecond() != 0 {
		t.Errorf("provenance = %+v", p)
	}
	if len(p.Models) != 2 || p.Models["router"] != "m-7" || p.Models["judge"] != "m-7" {
		t.Errorf("models = %v, want the router's and the judge's (the generator is static)", p.Models)
	}
}

func mustDigest(t *testing.T, s *tasks.Suite) string {
	t.Helper()
	d, err := SuiteDigest(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func appendTo(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}
