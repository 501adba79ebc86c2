package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Client speaks the registry's HTTP API. It is safe for concurrent use.
type Client struct {
	base  string
	token string
	http  *http.Client
}

// ClientOption configures a Client.
type ClientOption func(*Client)

// WithClientToken sends "Authorization: Bearer token" on every request:
// writes need it when the registry has a token, and reads with it show why
// card fetches failed.
func WithClientToken(token string) ClientOption { return func(c *Client) { c.token = token } }

// WithHTTPClient sets the HTTP client (default: one with a 30 s timeout,
// which covers a registration's 5 s card fetch).
func WithHTTPClient(hc *http.Client) ClientOption { return func(c *Client) { c.http = hc } }

// NewClient returns a client of the registry at baseURL
// (e.g. "http://127.0.0.1:8700").
func NewClient(baseURL string, opts ...ClientOption) *Client {
	c := &Client{base: strings.TrimSuffix(baseURL, "/"), http: &http.Client{Timeout: 30 * time.Second}}
	for _, o := range opts {
		o(c)
	}
	return c
}

// APIError is an error answer of the registry: its HTTP status, message
// and, for invalid input, every problem.
type APIError struct {
	Status   int
	Message  string
	Problems []string
}

func (e *APIError) Error() string {
	msg := fmt.Sprintf("registry answered %d: %s", e.Status, e.Message)
	if len(e.Problems) > 0 && !strings.Contains(e.Message, e.Problems[0]) {
		msg += ": " + strings.Join(e.Problems, "; ")
	}
	return msg
}

// UnreachableError says no registry could be reached at URL: nothing
// listens there (connection refused) or its host does not resolve.
type UnreachableError struct {
	URL string
	Err error // the dial error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("no registry answers at %s (%v)", e.URL, e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrNotFound) hold for 404 answers.
func (e *APIError) Is(target error) bool {
	return target == ErrNotFound && e.Status == http.StatusNotFound
}

// Register asks the registry to fetch, validate and store the card of the
// agent at agentURL, and reports whether the agent is new.
func (c *Client) Register(ctx context.Context, agentURL string) (Record, bool, error) {
	body, _ := json.Marshal(registerRequest{URL: agentURL})
	var rec Record
	status, err := c.do(ctx, http.MethodPost, "/v1/agents", body, &rec)
	if err != nil {
		return Record{}, false, fmt.Errorf("register %s: %w", agentURL, err)
	}
	return rec, status == http.StatusCreated, nil
}

// Get returns one record with its history.
func (c *Client) Get(ctx context.Context, id string) (Record, error) {
	var rec Record
	if _, err := c.do(ctx, http.MethodGet, "/v1/agents/"+url.PathEscape(id), nil, &rec); err != nil {
		return Record{}, fmt.Errorf("get agent %q: %w", id, err)
	}
	return rec, nil
}

// Delete removes an agent.
func (c *Client) Delete(ctx context.Context, id string) error {
	if _, err := c.do(ctx, http.MethodDelete, "/v1/agents/"+url.PathEscape(id), nil, nil); err != nil {
		return fmt.Errorf("delete agent %q: %w", id, err)
	}
	return nil
}

// List returns one page of agents (GET /v1/agents).
func (c *Client) List(ctx context.Context, q Query) (Page, error) {
	var body listBody
	if _, err := c.do(ctx, http.MethodGet, "/v1/agents?"+queryValues(q).Encode(), nil, &body); err != nil {
		return Page{}, fmt.Errorf("list agents: %w", err)
	}
	return Page{Hits: body.Agents, NextCursor: body.NextCursor}, nil
}

// Search returns one page of agents ranked by relevance to q.Text
// (GET /v1/search).
func (c *Client) Search(ctx context.Context, q Query) (Page, error) {
	var body searchBody
	if _, err := c.do(ctx, http.MethodGet, "/v1/search?"+queryValues(q).Encode(), nil, &body); err != nil {
		return Page{}, fmt.Errorf("search %q: %w", q.Text, err)
	}
	return Page{Hits: body.Results, NextCursor: body.NextCursor}, nil
}

func queryValues(q Query) url.Values {
	v := url.Values{}
	set := func(k, val string) {
		if val != "" {
			v.Set(k, val)
		}
	}
	set("q", q.Text)
	set("tag", q.Tag)
	set("cursor", q.Cursor)
	if q.Limit > 0 {
		v.Set("limit", strconv.Itoa(q.Limit))
	}
	var st []string
	for _, s := range q.Statuses {
		st = append(st, string(s))
	}
	set("status", strings.Join(st, ","))
	return v
}

// do sends a request and decodes a 2xx answer into out (when non-nil), or
// returns an *APIError.
func (c *Client) do(ctx context.Context, method, path string, body []byte, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return 0, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	// Reads carry the token too: a holder's reads show why fetches failed.
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		var op *net.OpError
		if errors.As(err, &op) && op.Op == "dial" {
			return 0, &UnreachableError{URL: c.base, Err: op.Err}
		}
		return 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return resp.StatusCode, fmt.Errorf("read answer: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		var eb errorBody
		if json.Unmarshal(data, &eb) != nil || eb.Error == "" {
			eb.Error = strings.TrimSpace(string(data[:min(len(data), 200)]))
		}
		return resp.StatusCode, &APIError{Status: resp.StatusCode, Message: eb.Error, Problems: eb.Problems}
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return resp.StatusCode, fmt.Errorf("decode answer: %w", err)
		}
	}
	return resp.StatusCode, nil
}
