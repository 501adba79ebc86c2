package llm_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/agentnet/agentnet/internal/llm"
	"github.com/agentnet/agentnet/internal/llm/llmtest"
)

func TestChatToolCall(t *testing.T) {
	t.Parallel()
	fake := llmtest.NewFakeServer(func(req *llm.Request) llm.Message {
		return llm.Message{ToolCalls: []llm.ToolCall{{ID: "call_1", Type: "function",
			Function: llm.FunctionCall{Name: req.Tools[0].Function.Name, Arguments: `{"text":"hello"}`}}}}
	})
	defer fake.Close()
	fake.APIKey = "sk-test"
	c := llm.New(fake.Config())
	schema := map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}
	resp, err := c.Chat(t.Context(), &llm.Request{
		Messages:   []llm.Message{{Role: "user", Content: "Shout hello"}},
		Tools:      []llm.Tool{llm.FunctionTool("shout", "Upper-case text", schema)},
		ToolChoice: "required",
	})
	if err != nil {
		t.Fatalf("Chat() error = %v", err)
	}
	call := resp.Choices[0].Message.ToolCalls[0]
	if call.Function.Name != "shout" || call.Function.Arguments != `{"text":"hello"}` {
		t.Errorf("Chat() tool call = %+v, want shout({\"text\":\"hello\"})", call.Function)
	}
	reqs := fake.Requests()
	if len(reqs) != 1 || reqs[0].Model != "fake-model" || reqs[0].ToolChoice != "required" {
		t.Errorf("server got %+v, want one request for fake-model with tool_choice required", reqs)
	}
	if got := c.Usage().TotalTokens; got != 15 {
		t.Errorf("Usage().TotalTokens = %d, want 15", got)
	}
}

func TestChatErrors(t *testing.T) {
	t.Parallel()
	t.Run("bad key is not retried", func(t *testing.T) {
		t.Parallel()
		fake := llmtest.NewFakeServer(func(*llm.Request) llm.Message { return llm.Message{Content: "hi"} })
		defer fake.Close()
		fake.APIKey = "right"
		cfg := fake.Config()
		cfg.APIKey = "wrong"
		_, err := llm.New(cfg).Chat(t.Context(), &llm.Request{Messages: []llm.Message{{Role: "user", Content: "x"}}})
		var ae *llm.APIError
		if !errors.As(err, &ae) || ae.Status != http.StatusUnauthorized || ae.Message != "Incorrect API key provided" {
			t.Errorf("Chat() error = %v, want a 401 APIError with the server's message", err)
		}
		if n := len(fake.Requests()); n != 0 {
			t.Errorf("server saw %d requests past auth, want 0", n)
		}
	})
	t.Run("503 is retried", func(t *testing.T) {
		t.Parallel()
		var n atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if n.Add(1) == 1 {
				http.Error(w, "busy", http.StatusServiceUnavailable)
				return
			}
			json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": "ok"}}}})
		}))
		defer srv.Close()
		resp, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "m"}).Chat(t.Context(), &llm.Request{})
		if err != nil || resp.Choices[0].Message.Content != "ok" {
			t.Fatalf("Chat() = %v, %v; want ok after one retry", resp, err)
		}
		if n.Load() != 2 {
			t.Errorf("server saw %d requests, want 2", n.Load())
		}
	})
}

func TestConfigFrom(t *testing.T) {
	t.Parallel()
	env := map[string]string{llm.EnvBaseURL: "http://x/v1", llm.EnvModel: "m"}
	cfg, ok := llm.ConfigFrom(func(k string) string { return env[k] })
	if !ok || cfg.BaseURL != "http://x/v1" || cfg.Model != "m" {
		t.Errorf("ConfigFrom() = %+v, %v", cfg, ok)
	}
	if _, ok := llm.ConfigFrom(func(string) string { return "" }); ok {
		t.Error("ConfigFrom(empty) ok = true, want false")
	}
}
