package registry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Fetch limits. A card is fetched from an agent's well-known path over http
// or https only, following at most MaxRedirects redirects, and must arrive
// within the fetch timeout and MaxCardBytes.
const (
	DefaultFetchTimeout = 5 * time.Second
	MaxCardBytes        = 1 << 20
	MaxRedirects        = 3
	WellKnownCardPath   = "/.well-known/agent-card.json"
)

// FetchError says why an agent's card could not be fetched. Its message is
// safe to show to the user who registered the agent.
type FetchError struct {
	URL    string // the card URL
	Reason string
	Err    error // the underlying error, if any, for the log
}

func (e *FetchError) Error() string { return fmt.Sprintf("fetch %s: %s", e.URL, e.Reason) }
func (e *FetchError) Unwrap() error { return e.Err }

// NormalizeURL checks an agent URL given for registration and returns its
// base URL: scheme and host lowercased, no trailing slash, and the
// well-known card path removed if it was given. Problems are sentences.
func NormalizeURL(raw string) (string, []string) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", []string{"url is required"}
	}
	if len(raw) > 2048 {
		return "", []string{"url is longer than 2048 characters"}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", []string{fmt.Sprintf("url %q does not parse: %v", raw, errors.Unwrap(err))}
	}
	var probs []string
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		probs = append(probs, fmt.Sprintf("url %q: scheme must be http or https", raw))
	}
	if u.Host == "" || u.Hostname() == "" {
		probs = append(probs, fmt.Sprintf("url %q has no host", raw))
	}
	if u.User != nil {
		probs = append(probs, fmt.Sprintf("url %q must not carry credentials", u.Redacted()))
	}
	if u.RawQuery != "" || u.Fragment != "" {
		probs = append(probs, fmt.Sprintf("url %q must not have a query or fragment", raw))
	}
	if len(probs) > 0 {
		return "", probs
	}
	u.Host = strings.ToLower(u.Host)
	u.Path = strings.TrimSuffix(strings.TrimSuffix(u.Path, "/"), WellKnownCardPath)
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = ""
	return u.String(), nil
}

// CardURL returns the well-known card URL of an agent's base URL.
func CardURL(base string) string { return base + WellKnownCardPath }

// fetcher fetches cards. It is safe for concurrent use.
type fetcher struct {
	client  *http.Client
	timeout time.Duration
}

func newFetcher(timeout time.Duration, transport http.RoundTripper) *fetcher {
	return &fetcher{
		timeout: timeout,
		client: &http.Client{
			Transport: transport,
			CheckRedirect: func(req *http.Request, via []*http.Request) error {
				if len(via) > MaxRedirects {
					return fmt.Errorf("more than %d redirects", MaxRedirects)
				}
				if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
					return fmt.Errorf("redirect to a %s URL", req.URL.Scheme)
				}
				return nil
			},
		},
	}
}

// fetch returns the card body served at base's well-known path, or a
// *FetchError.
func (f *fetcher) fetch(ctx context.Context, base string) ([]byte, error) {
	cardURL := CardURL(base)
	fail := func(err error, format string, args ...any) error {
		return &FetchError{URL: cardURL, Reason: fmt.Sprintf(format, args...), Err: err}
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, cardURL, nil)
	if err != nil {
		return nil, fail(err, "bad request: %v", err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, fail(err, "%s", describeFetchErr(err, f.timeout))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fail(nil, "answered HTTP %d, want 200 with the agent card", resp.StatusCode)
	}
	if resp.ContentLength > MaxCardBytes {
		return nil, fail(nil, "card is %d bytes, more than the %d-byte (1 MiB) limit", resp.ContentLength, MaxCardBytes)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxCardBytes+1))
	if err != nil {
		return nil, fail(err, "reading the card: %s", describeFetchErr(err, f.timeout))
	}
	if len(body) > MaxCardBytes {
		return nil, fail(nil, "card is more than the %d-byte (1 MiB) limit", MaxCardBytes)
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	trimmed := strings.TrimSpace(string(body[:min(len(body), 512)]))
	if ct == "text/html" || strings.HasPrefix(trimmed, "<") {
		return nil, fail(nil, "answered HTML (%s), not a JSON agent card", orUnknown(ct))
	}
	return body, nil
}

func orUnknown(s string) string {
	if s == "" {
		return "no content type"
	}
	return s
}

// describeFetchErr turns a transport error into a short sentence.
func describeFetchErr(err error, timeout time.Duration) string {
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return fmt.Sprintf("no answer within %s", timeout)
	case errors.Is(err, context.Canceled):
		return "cancelled"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		var oe *net.OpError
		if errors.As(ue.Err, &oe) {
			return oe.Op + ": " + oe.Err.Error()
		}
		return ue.Err.Error()
	}
	return err.Error()
}
