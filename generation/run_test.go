package generation_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/generation"
)

// TestDeterministic generates the same repo twice: the bundles are equal
// byte for byte.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	for _, repo := range []string{"chemcalc", "imgtool", "mdkit", "csvtool"} {
		t.Run(repo, func(t *testing.T) {
			t.Parallel()
			var got [][]byte
			for i := 0; i < 2; i++ {
				out := filepath.Join(t.TempDir(), "out")
				rep, err := generation.Run(t.Context(), generation.Config{Repo: "../tasks/demo/repos/" + repo, Out: out, Env: os.Environ()})
				if err != nil || !rep.OK() {
					t.Fatalf("Run(%s) = %v, %+v", repo, err, rep)
				}
				data, err := os.ReadFile(filepath.Join(out, bundle.FileName))
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, data)
			}
			if !bytes.Equal(got[0], got[1]) {
				t.Errorf("two generations of %s differ:\n%s\n---\n%s", repo, got[0], got[1])
			}
		})
	}
}

// TestGitSourceAndAttempts clones a git repository through the system git
// at a ref, runs every attempt (Pass@k), and keeps the first bundle, whose
// repo field records the URL and ref.
func TestGitSourceAndAttempts(t *testing.T) {
	t.Parallel()
	src := filepath.Join(t.TempDir(), "textstats")
	if out, err := exec.Command("cp", "-r", "../tasks/demo/repos/textstats", src).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", src, "-c", "user.name=t", "-c", "user.email=t@example.org"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "init")
	git("tag", "v1")
	url := "file://" + src
	out := filepath.Join(t.TempDir(), "out")
	rep, err := generation.Run(t.Context(), generation.Config{Repo: url, Ref: "v1", Out: out, Attempts: 3, AllAttempts: true, Env: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Attempts) != 3 || rep.Successes() != 3 || rep.Chosen != 1 || rep.Tries() != 1 {
		t.Fatalf("report = %d attempts, %d successes, chosen %d, want 3, 3, 1", len(rep.Attempts), rep.Successes(), rep.Chosen)
	}
	b, err := bundle.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if b.Repo == nil || b.Repo.Source != url || b.Repo.Ref != "v1" {
		t.Errorf("bundle repo = %+v, want %s at v1", b.Repo, url)
	}
	if _, err := os.Stat(filepath.Join(b.RepoDir(), "textstats")); err != nil {
		t.Errorf("the clone is not at the bundle's repo dir: %v", err)
	}
	for n := 1; n <= 3; n++ {
		if _, err := os.Stat(filepath.Join(out, ".agentnet", "attempts", string(rune('0'+n)), "attempt.json")); err != nil {
			t.Errorf("attempt %d record: %v", n, err)
		}
	}
	// Stopping at the first success.
	rep, err = generation.Run(t.Context(), generation.Config{Repo: url, Out: filepath.Join(t.TempDir(), "o2"), Attempts: 3, Env: os.Environ()})
	if err != nil || len(rep.Attempts) != 1 {
		t.Errorf("Run without AllAttempts made %d attempts (err %v), want 1", len(rep.Attempts), err)
	}
}

// TestDeterministicProgramPath generates twice, into two directories, a Go
// command whose help is the flag package's default: "Usage of <its own
// path>:". The bundles are equal byte for byte, and name the program by its
// name only.
func TestDeterministicProgramPath(t *testing.T) {
	t.Parallel()
	src := t.TempDir()
	for name, content := range map[string]string{
		"go.mod":  "module example.com/greet\n\ngo 1.21\n",
		"main.go": "// Command greet greets.\npackage main\n\nimport (\n\t\"flag\"\n\t\"fmt\"\n)\n\nfunc main() {\n\tname := flag.String(\"name\", \"world\", \"who to greet\")\n\tflag.Parse()\n\tfmt.Println(\"hello \" + *name)\n}\n",
	} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var got [][]byte
	for i := 0; i < 2; i++ {
		out := filepath.Join(t.TempDir(), fmt.Sprintf("out-%d-with-a-longer-name", i))
		rep, err := generation.Run(t.Context(), generation.Config{Repo: src, Out: out, Env: os.Environ()})
		if err != nil || !rep.OK() {
			t.Fatalf("Run = %v, %+v", err, rep)
		}
		data, err := os.ReadFile(filepath.Join(out, bundle.FileName))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte(out)) || bytes.Contains(data, []byte("Usage of")) {
			t.Errorf("the bundle holds the help's usage line or its own path:\n%s", data)
		}
		got = append(got, data)
	}
	if !bytes.Equal(got[0], got[1]) {
		t.Errorf("two generations differ:\n%s\n---\n%s", got[0], got[1])
	}
}
