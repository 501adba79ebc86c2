package generation_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/deploy/deploytest"
	"github.com/agentnet/agentnet/generation"
)

// fakeModel answers like the OpenAI and Anthropic APIs: a chat completion
// with usage, and a streamed Anthropic message whose usage arrives in its
// message_start and message_delta events.
func fakeModel(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/chat/completions":
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{
				"id": "c1", "object": "chat.completion", "model": "m",
				"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": "ok"}, "finish_reason": "stop"}},
				"usage":   map[string]any{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
			})
		case "/v1/messages":
			w.Header().Set("Content-Type", "text/event-stream")
			for _, ev := range []string{
				`{"type":"message_start","message":{"id":"m1","role":"assistant","usage":{"input_tokens":50,"output_tokens":1}}}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok"}}`,
				`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":7}}`,
				`{"type":"message_stop"}`,
			} {
				fmt.Fprintf(w, "event: x\ndata: %s\n\n", ev)
			}
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestCommandGenerator runs a fake coding agent as the command generator's
// builder: its model calls go through the metering proxy (tokens counted
// from the responses), or it only reports usage in its JSON output, or
// neither (tokens unknown, never 0), or it fails.
func TestCommandGenerator(t *testing.T) {
	t.Parallel()
	agent := filepath.Join(t.TempDir(), "fakeagent")
	if out, err := exec.Command("go", "build", "-o", agent, "./testdata/fakeagent").CombinedOutput(); err != nil {
		t.Fatalf("build fake agent: %v\n%s", err, out)
	}
	model := fakeModel(t)
	tests := []struct {
		mode       string
		wantOK     bool
		wantSource string
		wantIn     int64
		wantOut    int64
	}{
		{"proxy", true, "proxy", 150, 27},
		{"json", true, "agent-output", 1200, 340},
		{"silent", true, "unknown", 0, 0},
		{"fail", false, "unknown", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			rep, err := generation.Run(t.Context(), generation.Config{
				Repo: "../tasks/demo/repos/textstats", Out: filepath.Join(t.TempDir(), "out"),
				Generator: "command", BuilderCmd: fmt.Sprintf("'%s' --prompt {prompt_file}", agent),
				Upstreams: map[string]string{"openai": model.URL + "/v1", "anthropic": model.URL},
				Env:       append(os.Environ(), "FAKE_MODE="+tt.mode),
			})
			if err != nil {
				t.Fatal(err)
			}
			a := rep.Attempts[0]
			if a.OK != tt.wantOK {
				t.Fatalf("attempt ok = %v (stage %s: %s), want %v", a.OK, a.Stage, a.Reason, tt.wantOK)
			}
			if a.Tokens.Source != tt.wantSource {
				t.Errorf("tokens = %s, want source %s", a.Tokens, tt.wantSource)
			}
			if tt.wantSource == "unknown" {
				if a.Tokens.In != nil || a.Tokens.Out != nil {
					t.Errorf("tokens = %s, want unknown (null), never 0", a.Tokens)
				}
				data, _ := json.Marshal(a.Tokens)
				if !strings.Contains(string(data), `"in":null`) {
					t.Errorf("tokens JSON = %s, want in: null", data)
				}
			} else if a.Tokens.In == nil || *a.Tokens.In != tt.wantIn || *a.Tokens.Out != tt.wantOut {
				t.Errorf("tokens = %s, want %d in, %d out", a.Tokens, tt.wantIn, tt.wantOut)
			}
			if !tt.wantOK && !strings.Contains(a.Reason, "giving up") {
				t.Errorf("reason = %q, want the agent's stderr", a.Reason)
			}
		})
	}
}

// TestCommandGeneratorDocker runs the fake coding agent as the command
// generator's builder in a container (--runtime docker): it sees the
// attempt's bundle directory and not the rest of this machine, its model
// calls reach the fake model through the metering proxy, and its tokens
// are counted there; a hanging agent is killed at the attempt's budget and
// its container removed.
func TestCommandGeneratorDocker(t *testing.T) {
	t.Parallel()
	jobs := deploytest.Jobs(t)
	agent := filepath.Join(t.TempDir(), "fakeagent")
	if out, err := exec.Command("go", "build", "-o", agent, "./testdata/fakeagent").CombinedOutput(); err != nil {
		t.Fatalf("build fake agent: %v\n%s", err, out)
	}
	model := fakeModel(t)
	var b [4]byte
	rand.Read(b[:])
	name := "gt-" + hex.EncodeToString(b[:])
	probe, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	run := func(t *testing.T, mode string, timeout time.Duration) (*generation.Report, string) {
		out := filepath.Join(t.TempDir(), "out")
		rep, err := generation.Run(t.Context(), generation.Config{
			Repo: "../tasks/demo/repos/textstats", Out: out, Timeout: timeout,
			Generator: "command", BuilderCmd: fmt.Sprintf("'%s' --prompt {prompt_file}", agent),
			Upstreams: map[string]string{"openai": model.URL + "/v1", "anthropic": model.URL},
			Env:       append(os.Environ(), "FAKE_MODE="+mode, "FAKE_PROBE="+probe),
			Sandbox:   jobs.Sandbox(name),
		})
		if err != nil {
			t.Fatal(err)
		}
		return rep, out
	}
	t.Run("proxy", func(t *testing.T) {
		t.Parallel()
		rep, out := run(t, "proxy", 5*time.Minute)
		a := rep.Attempts[0]
		if !a.OK {
			t.Fatalf("attempt failed at %s: %s", a.Stage, a.Reason)
		}
		if a.Tokens.Source != "proxy" || a.Tokens.In == nil || *a.Tokens.In != 150 || *a.Tokens.Out != 27 {
			t.Errorf("tokens = %s, want 150 in, 27 out (proxy)", a.Tokens)
		}
		seen, err := os.ReadFile(filepath.Join(out, "seen.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("probe %s: visible false\nhome /tmp\n", probe); string(seen) != want {
			t.Errorf("the agent saw:\n%s\nwant:\n%s(this machine's files out of its reach, in a container)", seen, want)
		}
	})
	t.Run("hang", func(t *testing.T) {
		t.Parallel()
		rep, _ := run(t, "hang", 20*time.Second)
		a := rep.Attempts[0]
		if a.OK || a.Stage != "generate" || !strings.Contains(a.Reason, "timed out") {
			t.Errorf("attempt = ok %v, stage %s, reason %q; want failed at generate, timed out", a.OK, a.Stage, a.Reason)
		}
		ids, err := jobs.Containers(context.Background(), name)
		if err != nil || len(ids) != 0 {
			t.Errorf("containers of the job after the attempt = %v (%v), want none", ids, err)
		}
	})
}

// TestCommandGeneratorPythonEnvironment gives a coding agent the static
// generator's environment synthesis: the prompt names the interpreter, the
// modules no interpreter has (reported in the attempt too) and a setup
// command that builds a venv and installs the repository; the fake agent's
// bundle starts its setup with that command, passes the gate, and its skill
// runs the package with the venv's interpreter.
func TestCommandGeneratorPythonEnvironment(t *testing.T) {
	t.Parallel()
	agent := filepath.Join(t.TempDir(), "fakeagent")
	if out, err := exec.Command("go", "build", "-o", agent, "./testdata/fakeagent").CombinedOutput(); err != nil {
		t.Fatalf("build fake agent: %v\n%s", err, out)
	}
	repo := t.TempDir()
	files := map[string]string{
		"pyproject.toml":       "[project]\nname = \"shouty\"\nversion = \"0.1\"\n",
		"shouty/__init__.py":   "def optional():\n    import zz_agentnet_absent_module\n    return zz_agentnet_absent_module\n",
		"shouty/__main__.py":   "import sys\nprint(' '.join(sys.argv[1:]).upper())\nprint(sys.prefix)\n",
		"README.md":            "# shouty\n\nShouts words.\n",
		"shouty/py.typed":      "",
		"tests/test_shouty.py": "import shouty\n",
	}
	for name, text := range files {
		p := filepath.Join(repo, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "out")
	rep, err := generation.Run(t.Context(), generation.Config{
		Repo: repo, Out: out, Generator: "command", BuilderCmd: fmt.Sprintf("'%s' --prompt {prompt_file}", agent),
		Env: append(os.Environ(), "FAKE_MODE=python", "FAKE_PACKAGE=shouty"),
	})
	if err != nil {
		t.Fatal(err)
	}
	a := rep.Attempts[0]
	if !a.OK {
		t.Fatalf("attempt failed at %s: %s", a.Stage, a.Reason)
	}
	if len(a.Missing) != 1 || a.Missing[0].Module != "zz_agentnet_absent_module" {
		t.Errorf("missing = %+v, want the absent module reported", a.Missing)
	}
	data, err := os.ReadFile(filepath.Join(out, "agent.yaml"))
	if err != nil || !strings.Contains(string(data), ".agentnet/python-env.py") || !strings.Contains(string(data), ".agentnet/venv/bin/python") {
		t.Fatalf("bundle does not use the environment (%v):\n%s", err, data)
	}
	b, err := bundle.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	argv, err := bundle.Expand(b.Skills[0].Run, bundle.Vars{Repo: b.RepoDir(), Bundle: b.AbsDir()}, map[string]any{"text": "hello there"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := exec.Command(argv[0], argv[1:]...).Output()
	if err != nil {
		t.Fatalf("%v: %v", argv, err)
	}
	if lines := strings.Split(strings.TrimSpace(string(got)), "\n"); len(lines) != 2 || lines[0] != "HELLO THERE" || !strings.HasSuffix(lines[1], filepath.Join(".agentnet", "venv")) {
		t.Errorf("skill output = %q, want the shout and the venv's prefix", got)
	}
}
