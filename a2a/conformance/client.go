package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ErrNotAllowed is returned for a request to an origin the audit was not
// given.
var ErrNotAllowed = errors.New("not one of the audited origins")

// origin is scheme://host:port of u, with the default port made explicit.
func origin(u *url.URL) string {
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(host) + ":" + port
}

// guard is a RoundTripper that lets through only requests to allowed origins.
type guard struct {
	next    http.RoundTripper
	allowed map[string]bool
}

func (g *guard) RoundTrip(r *http.Request) (*http.Response, error) {
	if !g.allowed[origin(r.URL)] {
		return nil, fmt.Errorf("%s: %w", r.URL.Redacted(), ErrNotAllowed)
	}
	return g.next.RoundTrip(r)
}

// client makes the audit's bounded requests.
type client struct {
	hc      *http.Client
	timeout time.Duration
	maxBody int64
}

func newClient(allowed map[string]bool, timeout time.Duration, maxBody int64, base http.RoundTripper) *client {
	if base == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.Proxy = nil // only the audited origins, never a proxy
		base = t
	}
	hc := &http.Client{
		Transport: &guard{next: base, allowed: allowed},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 3 {
				return errors.New("more than 3 redirects")
			}
			return nil // the guard refuses other origins
		},
	}
	return &client{hc: hc, timeout: timeout, maxBody: maxBody}
}

// reply is an HTTP response read in full (up to the size bound).
type reply struct {
	Status      int
	ContentType string
	Header      http.Header
	Body        []byte
}

func (r *reply) mediaType() string {
	mt, _, _ := strings.Cut(r.ContentType, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// do sends one request and reads its response within the time and size
// bounds. A body larger than the bound is an error.
func (c *client) do(ctx context.Context, method, u string, body []byte, header map[string]string) (*reply, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, u, err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, u, unwrapURLError(err, c.timeout))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, c.maxBody+1))
	if err != nil {
		return nil, fmt.Errorf("%s %s: read the response: %w", method, u, unwrapURLError(err, c.timeout))
	}
	if int64(len(data)) > c.maxBody {
		return nil, fmt.Errorf("%s %s: the response is larger than %d bytes", method, u, c.maxBody)
	}
	return &reply{Status: resp.StatusCode, ContentType: resp.Header.Get("Content-Type"), Header: resp.Header, Body: data}, nil
}

// stream opens a response to read incrementally; the caller closes it. The
// context bounds the whole exchange.
func (c *client) stream(ctx context.Context, u string, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("POST %s: %w", u, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("POST %s: %w", u, unwrapURLError(err, c.timeout))
	}
	return resp, nil
}

// unwrapURLError drops the *url.Error wrapper, whose message repeats the
// method and URL, and names a timeout plainly.
func unwrapURLError(err error, timeout time.Duration) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("no answer within %s", timeout)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
