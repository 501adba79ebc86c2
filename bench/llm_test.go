package bench

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/eval"
	"github.com/agentnet/agentnet/internal/llm"
	"github.com/agentnet/agentnet/internal/llm/llmtest"
	"github.com/agentnet/agentnet/tasks"
)

var skillIDRE = regexp.MustCompile(`(?m)^- ("(?:[^"\\]|\\.)*"):`)

// fakeModel answers each kind of request a bench run makes of a model in
// the real chat-completions wire format: the hosts' skill choice (a tool
// call), the llm router (the first card), the llm judge (a pass) and the llm
// skill matcher (every skill covered by the first of the other list).
func fakeModel(t *testing.T, req *llm.Request) llm.Message {
	sys, user := req.Messages[0].Content, req.Messages[len(req.Messages)-1].Content
	switch {
	case len(req.Tools) > 0:
		return llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{{ID: "c1", Type: "function",
			Function: llm.FunctionCall{Name: req.Tools[0].Function.Name, Arguments: "{}"}}}}
	case strings.Contains(sys, "You route one step"):
		return llm.Message{Role: "assistant", Content: `{"agent": "A1", "skill": "", "score": 0.9, "reason": "the first card"}`}
	case strings.Contains(sys, "Grade every criterion"):
		crit, _, _ := strings.Cut(strings.SplitN(user, "Criteria:\n", 2)[1], "\n\n")
		var grades []map[string]any
		for i := range strings.Split(crit, "\n") {
			grades = append(grades, map[string]any{"n": i + 1, "score": 100, "reason": "met"})
		}
		b, _ := json.Marshal(map[string]any{"pass": true, "criteria": grades, "reason": "looks right"})
		return llm.Message{Role: "assistant", Content: string(b)}
	case strings.Contains(sys, "You grade the output"):
		return llm.Message{Role: "assistant", Content: `{"pass": true, "score": 100, "reason": "looks right"}`}
	case strings.Contains(sys, "You compare the skills"):
		blocks := strings.Split(user, "<skills>")
		ids := func(block string) []string {
			var out []string
			for _, m := range skillIDRE.FindAllStringSubmatch(block, -1) {
				var s string
				json.Unmarshal([]byte(m[1]), &s)
				out = append(out, s)
			}
			return out
		}
		gen, ref := ids(blocks[1]), ids(blocks[2])
		covered, supported := map[string]string{}, map[string]string{}
		for _, r := range ref {
			covered[r] = gen[0]
		}
		for _, g := range gen {
			supported[g] = ref[0]
		}
		b, _ := json.Marshal(map[string]any{"covered": covered, "supported": supported})
		return llm.Message{Role: "assistant", Content: string(b)}
	}
	t.Errorf("the fake model got a request it does not know: %.200s", sys)
	return llm.Message{Role: "assistant", Content: "?"}
}

// TestRunWithModel runs a small suite with every model-backed choice — the
// llm router, the llm judge, the llm skill matcher and the hosts' model skill
// choice — against a fake OpenAI-compatible endpoint, and checks that each
// is used and its tokens counted.
func TestRunWithModel(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and deploys agents")
	}
	exe := filepath.Join(t.TempDir(), "agentnet")
	if out, err := exec.CommandContext(t.Context(), "go", "build", "-o", exe, "github.com/agentnet/agentnet/cmd/agentnet").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	fake := llmtest.NewFakeServer(func(req *llm.Request) llm.Message { return fakeModel(t, req) })
	defer fake.Close()
	cfg := fake.Config()

	demo, _ := filepath.Abs("../tasks/demo")
	dir := t.TempDir()
	suite := `version: 1
name: model
repos:
  - id: textstats
    source: ` + filepath.Join(demo, "repos/textstats") + `
    skills: [{id: word-frequency, description: Count word frequencies in a text.}, {id: text-counts, description: Count lines and words.}]
  - id: mdkit
    source: ` + filepath.Join(demo, "repos/mdkit") + `
    skills: [{id: markdown-to-html, description: Convert Markdown to HTML.}]
tasks:
  - id: top-words
    type: single
    repo: textstats
    instruction: List the most frequent words.
    input: {files: [` + filepath.Join(demo, "inputs/textstats/lighthouse.txt") + `]}
    rubric: Lists words with counts.
  - id: md-words
    type: chain
    input: {files: [` + filepath.Join(demo, "inputs/mdkit/report.md") + `]}
    steps:
      - {repo: mdkit, instruction: Render the document as HTML.}
      - {repo: textstats, instruction: Count the words.}
    rubric: Gives counts.
`
	if err := os.WriteFile(filepath.Join(dir, "suite.yaml"), []byte(suite), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := tasks.Load(filepath.Join(dir, "suite.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), llm.EnvBaseURL+"="+cfg.BaseURL, llm.EnvModel+"="+cfg.Model, llm.EnvAPIKey+"=k")
	res, err := Run(t.Context(), Options{
		Suite: s, Out: filepath.Join(dir, "run"), Router: "llm", Judge: "llm", LLM: &cfg,
		Self: exe, Env: env,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary.Skills.AvgRecall != 100 {
		t.Errorf("llm matcher: average recall %v, want 100 (every reference skill covered)", res.Summary.Skills.AvgRecall)
	}
	kinds := map[string]int{}
	for _, r := range fake.Requests() {
		switch sys := r.Messages[0].Content; {
		case len(r.Tools) > 0:
			kinds["host"]++
		case strings.Contains(sys, "You route"):
			kinds["router"]++
		case strings.Contains(sys, "You grade"):
			kinds["judge"]++
		case strings.Contains(sys, "You compare"):
			kinds["matcher"]++
		}
	}
	if kinds["router"] != 2 || kinds["judge"] == 0 || kinds["matcher"] != 2 || kinds["host"] == 0 {
		t.Errorf("model requests by kind = %v, want 2 routing, judging, 2 matching and host skill choices", kinds)
	}
	for _, tr := range res.Tasks {
		if tr.Status == eval.StatusInfraError {
			t.Errorf("task %s: infra error %s", tr.ID, tr.Reason)
		}
		if tr.Status == eval.StatusPassed && tr.TokensIn == 0 {
			t.Errorf("task %s passed by the llm judge with no tokens counted", tr.ID)
		}
		// The llm router ranks nothing: a step records its choice alone,
		// by the repo of the agent that got it.
		for _, st := range tr.Steps {
			if len(st.Ranking) != 1 || st.Ranking[0].Repo != st.Routed || st.Ranking[0].Score != st.Score {
				t.Errorf("task %s step %d: ranking %+v, routed %s (score %v); want the choice alone", tr.ID, st.Index, st.Ranking, st.Routed, st.Score)
			}
		}
	}
	if rt := res.Summary.Chains.Routing; rt == nil || rt.Accuracy.Overall.N != 2 || rt.RecallAt1.Overall != rt.Accuracy.Overall {
		t.Errorf("routing summary = %+v; want 2 steps, Recall@1 equal to the accuracy of a router that ranks its choice alone", rt)
	}
}
