package conformance

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/agentnet/agentnet/cards"
)

// Defaults of the options.
const (
	DefaultTimeout     = 30 * time.Second
	DefaultMaxBody     = 8 << 20
	DefaultParallel    = 4
	DefaultStreamGrace = 5 * time.Second
)

// Option configures Audit.
type Option func(*auditor)

// WithTimeout bounds each request, and each stream as a whole (default
// DefaultTimeout).
func WithTimeout(d time.Duration) Option {
	return func(a *auditor) {
		if d > 0 {
			a.timeout = d
		}
	}
}

// WithMaxBody bounds the size of each response read (default DefaultMaxBody).
func WithMaxBody(n int64) Option {
	return func(a *auditor) {
		if n > 0 {
			a.maxBody = n
		}
	}
}

// WithParallel sets how many endpoints are audited at once (default
// DefaultParallel).
func WithParallel(n int) Option {
	return func(a *auditor) {
		if n > 0 {
			a.parallel = n
		}
	}
}

// WithStreamGrace sets how long a stream may stay open after its final event
// before stream.closes fails (default DefaultStreamGrace).
func WithStreamGrace(d time.Duration) Option {
	return func(a *auditor) {
		if d > 0 {
			a.streamGrace = d
		}
	}
}

// WithTrustedKeys makes the card signature checks verify against these
// public keys instead of the key each signature embeds.
func WithTrustedKeys(t *cards.TrustedKeys) Option { return func(a *auditor) { a.trusted = t } }

// WithTransport sets the HTTP transport under the audit's origin guard
// (default: a clone of http.DefaultTransport without proxy).
func WithTransport(rt http.RoundTripper) Option { return func(a *auditor) { a.transport = rt } }

type auditor struct {
	timeout     time.Duration
	maxBody     int64
	parallel    int
	streamGrace time.Duration
	transport   http.RoundTripper
	trusted     *cards.TrustedKeys
}

// InvalidURLError reports a URL Audit cannot audit.
type InvalidURLError struct {
	URL string
	Msg string
}

func (e *InvalidURLError) Error() string { return fmt.Sprintf("%q: %s", e.URL, e.Msg) }

// ParseTarget checks a URL to audit and returns its base: the URL the card
// path is resolved against (a trailing card path is dropped).
func ParseTarget(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, &InvalidURLError{raw, err.Error()}
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, &InvalidURLError{raw, "not an http(s) URL"}
	}
	if u.Host == "" {
		return nil, &InvalidURLError{raw, "no host"}
	}
	u.RawQuery, u.Fragment, u.User = "", "", nil
	for _, p := range []string{"/" + cardPath, "/" + legacyPath} {
		u.Path = strings.TrimSuffix(u.Path, p)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	u.RawPath = ""
	return u, nil
}

// Audit runs every check against each URL, and the fleet checks when there
// are several. It returns an *InvalidURLError when a URL is not an absolute
// http(s) URL; failures of the endpoints themselves are results, not errors.
// Only the origins of urls are contacted.
func Audit(ctx context.Context, urls []string, opts ...Option) (*Report, error) {
	a := &auditor{timeout: DefaultTimeout, maxBody: DefaultMaxBody, parallel: DefaultParallel, streamGrace: DefaultStreamGrace}
	for _, o := range opts {
		o(a)
	}
	var bases []*url.URL
	allowed := map[string]bool{}
	seen := map[string]bool{}
	for _, raw := range urls {
		u, err := ParseTarget(raw)
		if err != nil {
			return nil, err
		}
		if seen[u.String()] {
			continue
		}
		seen[u.String()] = true
		bases = append(bases, u)
		allowed[origin(u)] = true
	}
	c := newClient(allowed, a.timeout, a.maxBody, a.transport)

	runs := make([]*run, len(bases))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(a.parallel)
	for i, u := range bases {
		runs[i] = &run{a: a, c: c, base: u}
		g.Go(func() (err error) {
			defer func() {
				if p := recover(); p != nil {
					err = fmt.Errorf("audit %s: internal error: %v", u, p)
				}
			}()
			runs[i].endpoint(gctx)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	rep := &Report{Endpoints: make([]Endpoint, len(runs)), Fleet: []Result{}}
	for i, r := range runs {
		rep.Endpoints[i] = Endpoint{URL: r.base.String(), Name: r.name(), Versions: r.versions, Results: r.results}
		if rep.Endpoints[i].Versions == nil {
			rep.Endpoints[i].Versions = []string{}
		}
	}
	if len(runs) > 1 {
		rep.Fleet = fleet(runs)
	}
	rep.summarize()
	return rep, nil
}

// run is the audit of one endpoint.
type run struct {
	a        *auditor
	c        *client
	base     *url.URL
	results  []Result
	cardObj  map[string]any
	versions []string
}

func (r *run) add(id, version string, st Status, reason string) {
	r.results = append(r.results, Result{Check: lookup(id), Version: version, Status: st, Reason: strings.Join(strings.Fields(reason), " ")})
}

func (r *run) pass(id, version string) { r.add(id, version, Pass, "") }

func (r *run) fail(id, version, format string, args ...any) {
	r.add(id, version, Fail, fmt.Sprintf(format, args...))
}

func (r *run) skip(id, version, format string, args ...any) {
	r.add(id, version, Skip, fmt.Sprintf(format, args...))
}

func (r *run) name() string {
	s, _ := r.cardObj["name"].(string)
	return s
}

// capability reports whether the card declares a capability.
func (r *run) capability(name string) bool {
	caps, _ := r.cardObj["capabilities"].(map[string]any)
	return caps[name] == true
}

// sampleText is the message the audit sends: the first example of the first
// skill, else a skill's description, else a greeting.
func (r *run) sampleText() string {
	for _, sk := range skillsOf(r.cardObj) {
		for _, ex := range listAt(sk, "examples") {
			if s, ok := ex.(string); ok && strings.TrimSpace(s) != "" {
				return s
			}
		}
	}
	for _, sk := range skillsOf(r.cardObj) {
		if s, ok := sk["description"].(string); ok && strings.TrimSpace(s) != "" {
			return s
		}
	}
	return "Hello"
}

// pushURL is the webhook the audit registers: on the audited origin, so
// that nothing outside it is ever contacted on the audit's behalf.
func (r *run) pushURL() string { return r.base.JoinPath("agentnet-audit-push").String() }

// protocolChecks lists the checks that run once per JSON-RPC interface.
var protocolChecks = []string{
	RPCParseError, RPCInvalidRequest, RPCMethodNotFound, RPCInvalidParams, RPCIDEcho, RPCNotification,
	CoreGetUnknown, CoreCancelUnknown, CoreSend, CoreGetTask, CoreHistoryLength,
	StreamContentType, StreamEvents, StreamCloses, StreamUnsupported, PushConfig, PushUnsupported,
	CoreFollowUp, CoreCancelFinished, RPCContentType,
}

func (r *run) skipFrom(ids []string, version, reason string) {
	for _, id := range ids {
		r.skip(id, version, "%s", reason)
	}
}

var cardChecks = []string{CardSignatureHeader, CardSignatureValid, CardSigned, CardSchema, CardNullLists, LintRequiredStrings, LintProtocolVersion, LintMIMEModes, LintSkills,
	LintUniqueSkillIDs, LintTagsExamples, LintReachableURL, LintTransport, LintGenericDescription, LintSkillDescription, LintOther}

func (r *run) endpoint(ctx context.Context) {
	data := r.discover(ctx)
	if data == nil {
		r.skipFrom(cardChecks, "", "no card to check")
		r.skipFrom(protocolChecks, "", "no card says where to call the agent")
		return
	}
	r.checkCard(data)
	r.checkSignature(data)

	card, err := cards.Parse(data)
	if err != nil {
		r.skipFrom(protocolChecks, "", "the card does not decode: "+err.Error())
		return
	}
	type iface struct{ version, url string }
	var ifaces []iface
	var other []string
	for _, in := range card.SupportedInterfaces {
		if in == nil {
			continue
		}
		if string(in.ProtocolBinding) != "JSONRPC" {
			other = append(other, string(in.ProtocolBinding))
			continue
		}
		if !slices.Contains(ifaces, iface{string(in.ProtocolVersion), in.URL}) {
			ifaces = append(ifaces, iface{string(in.ProtocolVersion), in.URL})
		}
	}
	if len(ifaces) == 0 {
		reason := "the card declares no JSON-RPC interface"
		if len(other) > 0 {
			reason += " (only " + strings.Join(other, ", ") + ", which the audit does not speak)"
		}
		r.skipFrom(protocolChecks, "", reason)
		return
	}
	done := map[string]bool{}
	for _, in := range ifaces {
		d, ok := dialectFor(in.version)
		if !ok {
			r.skipFrom(protocolChecks, in.version, fmt.Sprintf("A2A version %q is neither 1.x nor 0.x", in.version))
			continue
		}
		if done[d.version] {
			continue // one interface per version is enough
		}
		done[d.version] = true
		r.versions = append(r.versions, d.version)
		p := &probe{r: r, d: d, url: in.url}
		if u, err := url.Parse(in.url); err != nil || !u.IsAbs() || origin(u) != origin(r.base) {
			// The audit contacts only the URL it was given: probe that,
			// and say so when a check fails.
			p.url = r.base.String()
			p.note = fmt.Sprintf("(probed %s: the card's URL %s is outside the audited origin)", p.url, in.url)
		}
		p.runAll(ctx)
	}
}
