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

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2apb/v1"

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
	bindings    map[string]bool // the bindings to probe; nil: all
	extra       []string        // further origins that may be contacted
	allowed     map[string]bool // the origins that may be contacted
}

// The bindings WithBindings names.
const (
	BindingJSONRPC = "jsonrpc"
	BindingREST    = "rest"
	BindingGRPC    = "grpc"
)

// Bindings lists the protocol bindings the audit speaks.
var Bindings = []string{BindingJSONRPC, BindingREST, BindingGRPC}

// WithBindings limits the binding checks to these bindings (default: every
// binding the card declares).
func WithBindings(names ...string) Option {
	return func(a *auditor) {
		a.bindings = map[string]bool{}
		for _, n := range names {
			a.bindings[n] = true
		}
	}
}

// WithAllowedOrigins lets the audit contact these origins too (scheme://
// host:port, or host:port for gRPC): an interface the card puts on another
// port, as a gRPC server beside its card server.
func WithAllowedOrigins(origins ...string) Option {
	return func(a *auditor) { a.extra = append(a.extra, origins...) }
}

func (a *auditor) probes(binding string) bool { return a.bindings == nil || a.bindings[binding] }

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
	for _, o := range a.extra {
		if !strings.Contains(o, "://") {
			o = "http://" + o
		}
		u, err := url.Parse(o)
		if err != nil || u.Host == "" {
			return nil, &InvalidURLError{o, "not an origin (scheme://host:port or host:port)"}
		}
		allowed[origin(u)] = true
	}
	a.allowed = allowed
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
	// answers holds the reply text to the sample message, by binding.
	answers map[string]string
	order   []string
}

// answer records the reply a binding gave to the sample message.
func (r *run) answer(binding, text string) {
	if r.answers == nil {
		r.answers = map[string]string{}
	}
	if _, ok := r.answers[binding]; !ok {
		r.order = append(r.order, binding)
	}
	r.answers[binding] = text
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
	CoreFollowUp, CoreCancelFinished, RPCListTasks, RPCVersion, RPCContentType,
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
		r.skipFrom(restChecks, "", "no card says where to call the agent")
		r.skipFrom(grpcChecks, "", "no card says where to call the agent")
		r.skip(BindingEquivalent, "", "no card says where to call the agent")
		return
	}
	r.checkCard(data)
	r.checkSignature(data)

	card, err := cards.Parse(data)
	if err != nil {
		r.skipFrom(protocolChecks, "", "the card does not decode: "+err.Error())
		r.skipFrom(restChecks, "", "the card does not decode")
		r.skipFrom(grpcChecks, "", "the card does not decode")
		r.skip(BindingEquivalent, "", "the card does not decode")
		return
	}
	if r.a.probes(BindingJSONRPC) {
		r.jsonrpc(ctx, card)
	}
	if r.a.probes(BindingREST) {
		r.rest(ctx, card)
	}
	if r.a.probes(BindingGRPC) {
		r.grpc(ctx, card)
	}
	r.equivalence()
}

// iface finds the first interface of binding at an A2A 1.x version.
func iface(card *a2a.AgentCard, binding a2a.TransportProtocol) *a2a.AgentInterface {
	for _, in := range card.SupportedInterfaces {
		if in != nil && in.ProtocolBinding == binding && (in.ProtocolVersion == "" || strings.HasPrefix(string(in.ProtocolVersion), "1")) {
			return in
		}
	}
	return nil
}

func (r *run) rest(ctx context.Context, card *a2a.AgentCard) {
	in := iface(card, a2a.TransportProtocolHTTPJSON)
	if in == nil {
		r.skipFrom(restChecks, "", "the card declares no HTTP+JSON interface")
		return
	}
	u, err := url.Parse(in.URL)
	if err != nil || !u.IsAbs() || !r.a.allowed[origin(u)] {
		r.skipFrom(restChecks, "1.0", fmt.Sprintf("the card's HTTP+JSON URL %s is outside the audited origins (give it with --allow-origin)", in.URL))
		return
	}
	p := &restProbe{r: r, base: strings.TrimSuffix(in.URL, "/")}
	p.runAll(ctx)
}

func (r *run) grpc(ctx context.Context, card *a2a.AgentCard) {
	in := iface(card, a2a.TransportProtocolGRPC)
	if in == nil {
		r.skipFrom(grpcChecks, "", "the card declares no GRPC interface")
		return
	}
	conn, err := r.dialGRPC(in.URL)
	if err != nil {
		r.skipFrom(grpcChecks, "1.0", fmt.Sprintf("the card's GRPC interface %s: %v", in.URL, err))
		return
	}
	defer conn.Close()
	p := &grpcProbe{r: r, cl: a2apb.NewA2AServiceClient(conn)}
	p.runAll(ctx)
}

// equivalence compares the replies the bindings gave to the same message.
func (r *run) equivalence() {
	if len(r.order) < 2 {
		r.skip(BindingEquivalent, "", "fewer than two bindings answered the sample message")
		return
	}
	first := r.order[0]
	for _, b := range r.order[1:] {
		if r.answers[b] != r.answers[first] {
			r.fail(BindingEquivalent, "", "%s answered %s, %s answered %s", first, snippet([]byte(r.answers[first])), b, snippet([]byte(r.answers[b])))
			return
		}
	}
	r.add(BindingEquivalent, "", Pass, strings.Join(r.order, ", ")+" answered alike")
}

func (r *run) jsonrpc(ctx context.Context, card *a2a.AgentCard) {
	type rpcIface struct{ version, url string }
	var ifaces []rpcIface
	var other []string
	for _, in := range card.SupportedInterfaces {
		if in == nil {
			continue
		}
		if string(in.ProtocolBinding) != "JSONRPC" {
			other = append(other, string(in.ProtocolBinding))
			continue
		}
		if !slices.Contains(ifaces, rpcIface{string(in.ProtocolVersion), in.URL}) {
			ifaces = append(ifaces, rpcIface{string(in.ProtocolVersion), in.URL})
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
