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

	"github.com/agentnet/agentnet/internal/fetchpolicy"
)

// Fetch limits. A card is fetched from an agent's well-known path over http
// or https only, following at most MaxRedirects redirects, and must arrive
// within the fetch timeout and MaxCardBytes.
const (
	DefaultFetchTimeout = 5 * time.Second
	MaxCardBytes        = 1 << 20
	MaxRedirects        = fetchpolicy.MaxRedirects
	WellKnownCardPath   = "/.well-known/agent-card.json"
)

// The categories of a failed fetch: what anyone may learn of it. The
// detail (which connection error, which status) would turn the registry into
// a port scanner; it goes to the log and to holders of the registry's token.
const (
	CategoryUnreachable = "unreachable"      // no connection: refused, no route, no such host
	CategoryTimeout     = "timeout"          // no answer within the fetch timeout
	CategoryDenied      = "address refused"  // a private address under --deny-private
	CategoryRedirect    = "redirect refused" // a redirect to another origin, or too many
	CategoryStatus      = "bad status"       // an answer other than 200
	CategoryBadCard     = "bad card"         // an answer that is not a card (HTML, too large, not JSON)
)

// categories lists every category, for PublicDetail.
var categories = []string{CategoryUnreachable, CategoryTimeout, CategoryDenied, CategoryRedirect, CategoryStatus, CategoryBadCard}

// FetchError says why an agent's card could not be fetched. Error is the
// full detail, for the log and for the registry's token holders; Public is
// what anyone may see.
type FetchError struct {
	URL      string // the card URL
	Category string // one of the Category constants
	Reason   string
	Err      error // the underlying error, if any, for the log
}

func (e *FetchError) Error() string { return fmt.Sprintf("fetch %s: %s", e.URL, e.Reason) }
func (e *FetchError) Unwrap() error { return e.Err }

// Public is the error without its detail: the URL and the category.
func (e *FetchError) Public() string { return fmt.Sprintf("fetch %s: %s", e.URL, e.Category) }

// healthError is what the prober stores for a failed fetch: the category,
// then the detail, so that PublicDetail can cut the detail off.
func (e *FetchError) healthError() string { return e.Category + ": " + e.Reason }

// PublicDetail returns the category a stored health error starts with, or
// "down" for one that names none (stored before categories were).
func PublicDetail(stored string) string {
	if stored == "" {
		return ""
	}
	for _, c := range categories {
		if stored == c || strings.HasPrefix(stored, c+": ") {
			return c
		}
	}
	return string(StatusDown)
}

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
	client      *http.Client
	timeout     time.Duration
	denyPrivate bool
	resolver    *net.Resolver
}

// redirectError is a redirect the fetcher refuses to follow.
type redirectError = fetchpolicy.RedirectError

// newFetcher returns a fetcher over transport; a nil transport is the
// fetcher's own, which under denyPrivate checks every address it connects
// to (see deny.go) and uses no proxy (a proxy's address is not the card's).
func newFetcher(timeout time.Duration, transport http.RoundTripper, denyPrivate bool) *fetcher {
	if transport == nil {
		transport = newTransport(denyPrivate)
	}
	return &fetcher{
		timeout:     timeout,
		denyPrivate: denyPrivate,
		resolver:    net.DefaultResolver,
		client: &http.Client{
			Transport: transport,
			// A redirect stays on the card's origin: following one to
			// another host would let anyone who registers an agent make
			// the registry fetch from wherever it can reach.
			CheckRedirect: fetchpolicy.SameOrigin(MaxRedirects),
		},
	}
}

// fetch returns the card body served at base's well-known path, or a
// *FetchError.
func (f *fetcher) fetch(ctx context.Context, base string) ([]byte, error) {
	cardURL := CardURL(base)
	fail := func(err error, category, format string, args ...any) error {
		return &FetchError{URL: cardURL, Category: category, Reason: fmt.Sprintf(format, args...), Err: err}
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, cardURL, nil)
	if err != nil {
		return nil, fail(err, CategoryUnreachable, "bad request: %v", err)
	}
	if f.denyPrivate {
		// Refused before connecting, with the name that resolved; the
		// dialer checks again the address it connects to.
		if err := checkHost(ctx, f.resolver, req.URL.Hostname()); err != nil {
			return nil, fail(err, categorize(err), "%s", describeFetchErr(err, f.timeout))
		}
	}
	req.Header.Set("Accept", "application/json")
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, fail(err, categorize(err), "%s", describeFetchErr(err, f.timeout))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fail(nil, CategoryStatus, "answered HTTP %d, want 200 with the agent card", resp.StatusCode)
	}
	if resp.ContentLength > MaxCardBytes {
		return nil, fail(nil, CategoryBadCard, "card is %d bytes, more than the %d-byte (1 MiB) limit", resp.ContentLength, MaxCardBytes)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxCardBytes+1))
	if err != nil {
		return nil, fail(err, categorize(err), "reading the card: %s", describeFetchErr(err, f.timeout))
	}
	if len(body) > MaxCardBytes {
		return nil, fail(nil, CategoryBadCard, "card is more than the %d-byte (1 MiB) limit", MaxCardBytes)
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	trimmed := strings.TrimSpace(string(body[:min(len(body), 512)]))
	if ct == "text/html" || strings.HasPrefix(trimmed, "<") {
		return nil, fail(nil, CategoryBadCard, "answered HTML (%s), not a JSON agent card", orUnknown(ct))
	}
	return body, nil
}

// categorize names the category of a transport error.
func categorize(err error) string {
	var (
		ne net.Error
		de *DeniedError
		re *redirectError
	)
	switch {
	case errors.As(err, &de):
		return CategoryDenied
	case errors.As(err, &re):
		return CategoryRedirect
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return CategoryTimeout
	}
	return CategoryUnreachable
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
	var de *DeniedError
	if errors.As(err, &de) {
		return de.Error()
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
