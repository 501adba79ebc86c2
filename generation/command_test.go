package generation_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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
