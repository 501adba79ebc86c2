// Package llmtest fakes an OpenAI-compatible chat-completions endpoint on
// httptest for the tests of packages that use internal/llm.
package llmtest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"

	"github.com/agentnet/agentnet/internal/llm"
)

// FakeServer is an in-memory OpenAI-compatible chat-completions endpoint
// for tests: it records each request and answers with the function Reply
// returns. It speaks the real wire format (POST /chat/completions, bearer
// auth, JSON bodies), so the code under test runs unchanged against it.
type FakeServer struct {
	*httptest.Server
	// APIKey, when set, must be presented as a bearer token.
	APIKey string
	// Reply returns the assistant message for a request; it runs on the
	// server's goroutines.
	Reply func(req *llm.Request) llm.Message

	mu       sync.Mutex
	requests []llm.Request
}

// NewFakeServer starts a fake endpoint; Close it when done.
func NewFakeServer(reply func(req *llm.Request) llm.Message) *FakeServer {
	f := &FakeServer{Reply: reply}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	return f
}

// Config returns a Config pointing at the fake.
func (f *FakeServer) Config() llm.Config {
	return llm.Config{BaseURL: f.URL + "/v1", APIKey: f.APIKey, Model: "fake-model"}
}

// Requests returns the requests received so far.
func (f *FakeServer) Requests() []llm.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]llm.Request(nil), f.requests...)
}

func (f *FakeServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	if f.APIKey != "" && r.Header.Get("Authorization") != "Bearer "+f.APIKey {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`))
		return
	}
	var req llm.Request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.requests = append(f.requests, req)
	f.mu.Unlock()
	msg := f.Reply(&req)
	msg.Role = "assistant"
	finish := "stop"
	if len(msg.ToolCalls) > 0 {
		finish = "tool_calls"
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1700000000, "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
	})
}
