package eval

import (
	"strings"
	"testing"

	"github.com/agentnet/agentnet/internal/llm"
	"github.com/agentnet/agentnet/internal/llm/llmtest"
	"github.com/agentnet/agentnet/tasks"
)

func str(s string) *string { return &s }

func TestRulesJudge(t *testing.T) {
	t.Parallel()
	j, err := NewJudge("rules", JudgeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checks := []tasks.Check{{Contains: str("rabbit")}, {NotContains: str("Traceback")}, {File: &tasks.FileCheck{Name: "*.png"}}}
	v, err := j.Judge(t.Context(), Judgement{Checks: checks, Output: tasks.Output{Text: "the rabbit ran"}})
	if err != nil {
		t.Fatal(err)
	}
	if v.Pass || v.Score != 66.67 || !strings.Contains(v.Reason, `no output file matches "*.png"`) {
		t.Errorf("verdict = %+v, want a fail scoring 66.67 naming the missing file", v)
	}
	v, _ = j.Judge(t.Context(), Judgement{Checks: checks, Output: tasks.Output{Text: "rabbit", Files: []tasks.File{{Name: "chart.png"}}}})
	if !v.Pass || v.Score != 100 {
		t.Errorf("verdict = %+v, want a pass", v)
	}
	if _, err := j.Judge(t.Context(), Judgement{Rubric: tasks.Rubric{{Criterion: "x"}}}); err == nil {
		t.Error("rules judge judged a rubric-only case")
	}
}

func TestLLMJudge(t *testing.T) {
	t.Parallel()
	calls := 0
	fake := llmtest.NewFakeServer(func(req *llm.Request) llm.Message {
		calls++
		if calls == 1 {
			return llm.Message{Role: "assistant", Content: "I think it passes."} // malformed: repaired once
		}
		if !strings.Contains(req.Messages[1].Content, "<output>\nthe rabbit ran\n</output>") {
			t.Errorf("prompt does not carry the output as data: %q", req.Messages[1].Content)
		}
		return llm.Message{Role: "assistant", Content: "```json\n{\"pass\": true, \"score\": 90, \"reason\": \"names the words\"}\n```"}
	})
	defer fake.Close()
	j, err := NewJudge("llm", JudgeOptions{LLM: llm.New(fake.Config())})
	if err != nil {
		t.Fatal(err)
	}
	v, err := j.Judge(t.Context(), Judgement{Instruction: "List words", Rubric: tasks.Rubric{{Criterion: "names the words"}}, Output: tasks.Output{Text: "the rabbit ran"}})
	if err != nil {
		t.Fatal(err)
	}
	if !v.Pass || v.Score != 90 || v.Reason != "names the words" || calls != 2 || v.TokensIn == 0 {
		t.Errorf("verdict = %+v after %d calls", v, calls)
	}
	if _, err := NewJudge("llm", JudgeOptions{}); err == nil {
		t.Error("llm judge without a model was created")
	}
	if _, err := NewJudge("nope", JudgeOptions{}); err == nil || !strings.Contains(err.Error(), "llm, rules") {
		t.Errorf("unknown judge error = %v", err)
	}
}
