package generation_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/generation"
	"github.com/agentnet/agentnet/internal/llm"
	"github.com/agentnet/agentnet/internal/llm/llmtest"
)

const modelBundle = "```yaml\n" + `version: 1
name: textstats
description: Word frequencies, text counts and readability scores of plain-text files.
repo: {source: repo}
check: [[./textstats, --help]]
skills:
  - id: word-frequency
    name: Word frequency
    description: List the most frequent words of a text file, leaving out English stop words.
    params:
      type: object
      properties:
        file: {type: string, format: path}
        n: {type: integer, default: 10}
      required: [file]
    run: ["{{repo}}/textstats", top, "{{file}}", -n, "{{n}}"]
` + "```\n"

// TestLLMGenerator runs the llm generator against an OpenAI-compatible
// endpoint on httptest: the first answer lacks a run template, the
// generator sends the problems back, the repaired answer passes the gate,
// and the tokens are the sum of the API's usage fields.
func TestLLMGenerator(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		repairs   int
		wantOK    bool
		wantCalls int
	}{
		{"repaired", 2, true, 2},
		{"no repairs left", -1, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := llmtest.NewFakeServer(func(req *llm.Request) llm.Message {
				last := req.Messages[len(req.Messages)-1].Content
				if strings.Contains(last, "has problems") {
					return llm.Message{Content: "Here it is:\n" + modelBundle}
				}
				return llm.Message{Content: strings.Replace(modelBundle, `    run: ["{{repo}}/textstats", top, "{{file}}", -n, "{{n}}"]`+"\n", "", 1)}
			})
			defer fake.Close()
			cfg := fake.Config()
			rep, err := generation.Run(t.Context(), generation.Config{
				Repo: "../tasks/demo/repos/textstats", Out: filepath.Join(t.TempDir(), "out"),
				Generator: "llm", LLM: &cfg, Repairs: tt.repairs, Env: os.Environ(),
			})
			if err != nil {
				t.Fatal(err)
			}
			a := rep.Attempts[0]
			if a.OK != tt.wantOK {
				t.Fatalf("attempt ok = %v (stage %s: %s), want %v", a.OK, a.Stage, a.Reason, tt.wantOK)
			}
			reqs := fake.Requests()
			if len(reqs) != tt.wantCalls {
				t.Fatalf("model calls = %d, want %d", len(reqs), tt.wantCalls)
			}
			digest := reqs[0].Messages[1].Content
			for _, want := range []string{"## Files", "textstats", "README.md", "static analysis proposes"} {
				if !strings.Contains(digest, want) {
					t.Errorf("digest lacks %q", want)
				}
			}
			if tt.wantCalls > 1 && !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Content, "run") {
				t.Errorf("repair request does not name the missing run: %q", reqs[1].Messages[len(reqs[1].Messages)-1].Content)
			}
			// The fake reports 10 prompt and 5 completion tokens per call.
			if a.Tokens.In == nil || *a.Tokens.In != int64(10*tt.wantCalls) || *a.Tokens.Out != int64(5*tt.wantCalls) {
				t.Errorf("tokens = %s, want %d in, %d out", a.Tokens, 10*tt.wantCalls, 5*tt.wantCalls)
			}
			if !tt.wantOK && !strings.Contains(a.Reason, "still invalid") {
				t.Errorf("reason = %q, want it to say the bundle is still invalid", a.Reason)
			}
		})
	}
}
