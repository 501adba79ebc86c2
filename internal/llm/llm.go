package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// The environment variables ConfigFrom reads.
const (
	EnvBaseURL = "AGENTNET_LLM_BASE_URL"
	EnvAPIKey  = "AGENTNET_LLM_API_KEY"
	EnvModel   = "AGENTNET_LLM_MODEL"
)

// Config says which endpoint and model to use.
type Config struct {
	BaseURL string // e.g. https://api.openai.com/v1; /chat/completions is appended
	APIKey  string // sent as a bearer token when set
	Model   string
	// HTTPClient defaults to a client with a 120 s timeout.
	HTTPClient *http.Client
	// Retries is how many times a 429 or 5xx answer is retried (default 2).
	Retries int
}

// ConfigFrom reads the AGENTNET_LLM_* variables through getenv; ok is false
// unless both the base URL and the model are set.
func ConfigFrom(getenv func(string) string) (cfg Config, ok bool) {
	if getenv == nil {
		return Config{}, false
	}
	cfg = Config{BaseURL: getenv(EnvBaseURL), APIKey: getenv(EnvAPIKey), Model: getenv(EnvModel)}
	return cfg, cfg.BaseURL != "" && cfg.Model != ""
}

// Message is one chat message.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	Name       string     `json:"name,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// Tool is a tool the model may call.
type Tool struct {
	Type     string       `json:"type"` // always "function"
	Function FunctionSpec `json:"function"`
}

// FunctionSpec declares a function tool: its name, what it does and the
// JSON Schema of its arguments.
type FunctionSpec struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Parameters  any    `json:"parameters,omitempty"`
}

// FunctionTool returns a function tool.
func FunctionTool(name, description string, parameters any) Tool {
	return Tool{Type: "function", Function: FunctionSpec{Name: name, Description: description, Parameters: parameters}}
}

// ToolCall is a call the model made.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// FunctionCall names the function called and its arguments as a JSON text.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Request is a chat-completions request. Model defaults to the client's.
type Request struct {
	Model       string    `json:"model"`
	Messages    []Message `json:"messages"`
	Tools       []Tool    `json:"tools,omitempty"`
	ToolChoice  any       `json:"tool_choice,omitempty"` // "auto", "required", "none" or a named function
	Temperature *float64  `json:"temperature,omitempty"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
}

// Response is a chat-completions response.
type Response struct {
	ID      string   `json:"id"`
	Model   string   `json:"model"`
	Choices []Choice `json:"choices"`
	Usage   Usage    `json:"usage"`
}

// Choice is one completion.
type Choice struct {
	Index        int     `json:"index"`
	Message      Message `json:"message"`
	FinishReason string  `json:"finish_reason"`
}

// Usage counts tokens.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// Client talks to one endpoint.
type Client struct {
	cfg  Config
	http *http.Client

	mu    sync.Mutex
	usage Usage
	calls int
}

// New returns a client for cfg.
func New(cfg Config) *Client {
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 120 * time.Second}
	}
	if cfg.Retries == 0 {
		cfg.Retries = 2
	}
	return &Client{cfg: cfg, http: hc}
}

// Model returns the configured model.
func (c *Client) Model() string { return c.cfg.Model }

// APIError is a non-2xx answer from the endpoint.
type APIError struct {
	Status  int
	Message string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("chat completions: HTTP %d: %s", e.Status, e.Message)
}

// Chat sends req and returns the response; 429 and 5xx answers are retried
// with backoff. Tokens of every successful call are added to Usage.
func (c *Client) Chat(ctx context.Context, req *Request) (*Response, error) {
	r := *req
	if r.Model == "" {
		r.Model = c.cfg.Model
	}
	body, err := json.Marshal(&r)
	if err != nil {
		return nil, fmt.Errorf("chat completions: encode request: %w", err)
	}
	url := strings.TrimRight(c.cfg.BaseURL, "/") + "/chat/completions"
	var lastErr error
	for attempt := 0; attempt <= c.cfg.Retries; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(time.Duration(attempt*attempt) * 500 * time.Millisecond):
			}
		}
		resp, err := c.do(ctx, url, body)
		if err == nil {
			c.mu.Lock()
			c.usage.PromptTokens += resp.Usage.PromptTokens
			c.usage.CompletionTokens += resp.Usage.CompletionTokens
			c.usage.TotalTokens += resp.Usage.TotalTokens
			c.calls++
			c.mu.Unlock()
			return resp, nil
		}
		lastErr = err
		var ae *APIError
		if !errors.As(err, &ae) || (ae.Status != http.StatusTooManyRequests && ae.Status < 500) {
			return nil, err
		}
	}
	return nil, lastErr
}

func (c *Client) do(ctx context.Context, url string, body []byte) (*Response, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("chat completions: %w", err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	if c.cfg.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	hresp, err := c.http.Do(hreq)
	if err != nil {
		return nil, fmt.Errorf("chat completions: %w", err)
	}
	defer hresp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(hresp.Body, 16<<20))
	if err != nil {
		return nil, fmt.Errorf("chat completions: read response: %w", err)
	}
	if hresp.StatusCode/100 != 2 {
		var e struct {
			Error struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		msg := strings.TrimSpace(string(data))
		if json.Unmarshal(data, &e) == nil && e.Error.Message != "" {
			msg = e.Error.Message
		}
		if len(msg) > 300 {
			msg = msg[:300] + "..."
		}
		return nil, &APIError{Status: hresp.StatusCode, Message: msg}
	}
	var resp Response
	if err := json.Unmarshal(data, &resp); err != nil {
		return nil, fmt.Errorf("chat completions: decode response: %w", err)
	}
	if len(resp.Choices) == 0 {
		return nil, fmt.Errorf("chat completions: response has no choices")
	}
	return &resp, nil
}

// Usage returns the tokens spent by every successful call so far.
func (c *Client) Usage() Usage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.usage
}

// Calls returns the number of successful calls so far.
func (c *Client) Calls() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls
}
