package host_test

import (
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/internal/llm"
	"github.com/agentnet/agentnet/internal/llm/llmtest"
)

// The llm binder offers the chosen skill as one function whose parameters
// are its schema, and binds the arguments the model's call gives; a file
// name the model invents is dropped, and the attached file is bound as the
// rules bind it.
func TestLLMBinder(t *testing.T) {
	t.Parallel()
	fake := llmtest.NewFakeServer(func(req *llm.Request) llm.Message {
		return llm.Message{ToolCalls: []llm.ToolCall{{ID: "call_1", Type: "function",
			Function: llm.FunctionCall{Name: req.Tools[0].Function.Name, Arguments: `{"column":"mass","table":"/etc/passwd"}`}}}}
	})
	defer fake.Close()
	s := serve(t, pickAgent, map[string]string{"col.py": colPy}, host.WithLLM(llm.New(fake.Config())))
	c := a2aClient(t, s.URL, "1.0")
	req := textMessage("How heavy is each thing?", &a2a.Part{Content: a2a.Raw("name,mass\nwater,18\n"), Filename: "t.csv", MediaType: "text/csv"})
	req.Message.Metadata = map[string]any{"skill": "column"}
	task := send(t, c, req)
	if got := artifactText(task); got != "18\n" {
		t.Fatalf("output = %q (%s), want 18", got, statusText(task))
	}
	reqs := fake.Requests()
	if len(reqs) != 1 || len(reqs[0].Tools) != 1 || reqs[0].Tools[0].Function.Name != "column" {
		t.Fatalf("LLM requests = %+v, want one offering the chosen skill", reqs)
	}
	if params, _ := reqs[0].Tools[0].Function.Parameters.(map[string]any); params["required"] == nil {
		t.Errorf("tool parameters = %v, want the skill's JSON Schema", reqs[0].Tools[0].Function.Parameters)
	}
	if !strings.Contains(reqs[0].Messages[1].Content, "t.csv") {
		t.Errorf("user message %q does not name the attached file", reqs[0].Messages[1].Content)
	}
	md := task.Artifacts[0].Metadata[host.BindingMetadataKey].(map[string]any)
	trace := toJSON(t, md)
	if md["binder"] != "llm" || !strings.Contains(trace, `"from":"the model's call of column","param":"column","step":"tool-call"`) ||
		!strings.Contains(trace, `"from":"attached file t.csv","param":"table"`) {
		t.Errorf("binding metadata = %s", trace)
	}
}
