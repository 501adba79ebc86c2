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

// A weighted rubric reaches the model as numbered criteria, one grade per
// criterion comes back, and the score is their mean weighted as the task
// says — not whatever overall score the model might have liked.
func TestLLMJudgeWeightedRubric(t *testing.T) {
	t.Parallel()
	calls := 0
	fake := llmtest.NewFakeServer(func(req *llm.Request) llm.Message {
		calls++
		user := req.Messages[1].Content
		if !strings.Contains(user, "1. Answers with one JSON object\n2. Skips non-numeric cells\n") {
			t.Errorf("criteria not numbered in the prompt: %q", user)
		}
		if !strings.Contains(req.Messages[0].Content, "Grade every criterion") {
			t.Errorf("system prompt does not ask for a grade per criterion: %q", req.Messages[0].Content)
		}
		if calls == 1 { // one grade missing: repaired once
			return llm.Message{Content: `{"pass": true, "criteria": [{"n": 1, "score": 100}], "reason": "x"}`}
		}
		return llm.Message{Content: `{"pass": false, "score": 99, "criteria": [{"n": 1, "score": 100, "reason": "one object"}, {"n": 2, "score": 25, "reason": "counts blanks"}], "reason": "half right"}`}
	})
	defer fake.Close()
	j, err := NewJudge("llm", JudgeOptions{LLM: llm.New(fake.Config())})
	if err != nil {
		t.Fatal(err)
	}
	rubric := tasks.Rubric{{Criterion: "Answers with one JSON object", Weight: 40}, {Criterion: "Skips non-numeric cells", Weight: 60}}
	v, err := j.Judge(t.Context(), Judgement{Instruction: "Stats", Rubric: rubric, Output: tasks.Output{Text: `{"count": 3}`}})
	if err != nil {
		t.Fatal(err)
	}
	// 0.4·100 + 0.6·25 = 55
	if v.Score != 55 || v.Pass || calls != 2 || len(v.Rubric) != 2 || v.Rubric[1].Weight != 60 || v.Rubric[1].Reason != "counts blanks" {
		t.Errorf("verdict = %+v after %d calls", v, calls)
	}
	// No weights written: the criteria count equally.
	if w := (tasks.Rubric{{Criterion: "a"}, {Criterion: "b"}}).Weights(); w[0] != 1 || w[1] != 1 {
		t.Errorf("weights = %v", w)
	}
	if _, err := parseWeightedVerdict(`{"pass": true, "criteria": [{"n": 2, "score": 1}, {"n": 1, "score": 1}]}`, rubric); err == nil {
		t.Error("criteria out of order accepted")
	}
	if _, err := parseWeightedVerdict(`{"pass": true, "criteria": [{"score": 101}, {"score": 1}]}`, rubric); err == nil {
		t.Error("a grade over 100 accepted")
	}
}
