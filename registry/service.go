package registry

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/cards"
)

// CardValidator checks a fetched card's JSON. The cards package provides the
// real checks (schema and lint); whoever builds the Service wires them in.
type CardValidator interface {
	// ValidateCard returns the parsed card and every problem with it, each a
	// sentence; no problems means valid. The card may be nil when it does
	// not parse. It must be safe for concurrent use.
	ValidateCard(data []byte) (*a2a.AgentCard, []string)
}

// CardValidatorFunc adapts a function to CardValidator.
type CardValidatorFunc func(data []byte) (*a2a.AgentCard, []string)

// ValidateCard calls f.
func (f CardValidatorFunc) ValidateCard(data []byte) (*a2a.AgentCard, []string) { return f(data) }

// DefaultMaxSkills is how many skills a registered card may carry.
const DefaultMaxSkills = 1000

// Query limits: longer search texts are refused, not truncated.
const (
	maxQueryBytes = 1024
	maxQueryWords = 64
)

// Service registers agents and answers queries over a Store. It is safe for
// concurrent use; NewHandler serves it over HTTP and Prober keeps its health
// current.
type Service struct {
	store     Store
	validator CardValidator
	fetch     *fetcher
	now       func() time.Time
	log       *slog.Logger
	maxSkills int

	trusted       *cards.TrustedKeys
	requireSigned bool
}

// Option configures a Service.
type Option func(*serviceConfig)

type serviceConfig struct {
	timeout   time.Duration
	transport http.RoundTripper
	deny      bool
	now       func() time.Time
	log       *slog.Logger
	maxSkills int

	trusted       *cards.TrustedKeys
	requireSigned bool
}

// WithFetchTimeout bounds each card fetch (default DefaultFetchTimeout).
func WithFetchTimeout(d time.Duration) Option { return func(c *serviceConfig) { c.timeout = d } }

// WithTransport sets the HTTP transport cards are fetched with (default: a
// clone of http.DefaultTransport's settings). Under WithDenyPrivate a
// transport given here is not checked at connect time: only the
// resolution before the fetch is.
func WithTransport(rt http.RoundTripper) Option { return func(c *serviceConfig) { c.transport = rt } }

// WithDenyPrivate makes card fetches (registrations and probes) refuse
// loopback, private, link-local and other non-public addresses: the card's
// host is resolved and checked before the fetch, and the address each
// connection goes to is checked again as it connects, so that a name
// resolving elsewhere the second time gains nothing. Off by default: a
// fleet on one machine registers agents on loopback.
func WithDenyPrivate(deny bool) Option { return func(c *serviceConfig) { c.deny = deny } }

// WithClock sets the clock records are stamped with (default time.Now).
func WithClock(now func() time.Time) Option { return func(c *serviceConfig) { c.now = now } }

// WithLogger sets the logger (default: discard).
func WithLogger(l *slog.Logger) Option { return func(c *serviceConfig) { c.log = l } }

// WithMaxSkills sets how many skills a card may carry (default
// DefaultMaxSkills).
func WithMaxSkills(n int) Option { return func(c *serviceConfig) { c.maxSkills = n } }

// NewService returns a Service over store that checks every card with v.
// The Service does not own store: the caller closes it.
func NewService(store Store, v CardValidator, opts ...Option) *Service {
	cfg := serviceConfig{
		timeout:   DefaultFetchTimeout,
		now:       time.Now,
		log:       slog.New(slog.DiscardHandler),
		maxSkills: DefaultMaxSkills,
	}
	for _, o := range opts {
		o(&cfg)
	}
	return &Service{
		store:     store,
		validator: v,
		fetch:     newFetcher(cfg.timeout, cfg.transport, cfg.deny),
		now:       cfg.now,
		log:       cfg.log,
		maxSkills: cfg.maxSkills,

		trusted:       cfg.trusted,
		requireSigned: cfg.requireSigned,
	}
}

// AgentID returns the id the registry gives the agent at base URL: stable,
// so re-registering a URL updates the same record.
func AgentID(base string) string {
	sum := sha256.Sum256([]byte(base))
	return hex.EncodeToString(sum[:8])
}

// Register fetches the card of the agent at rawURL, validates it and stores
// it, reporting whether the agent is new. A bad URL, an unreachable agent or
// an invalid card is an *InvalidError listing every problem; nothing stored
// changes then.
func (s *Service) Register(ctx context.Context, rawURL string) (Record, bool, error) {
	base, probs := NormalizeURL(rawURL)
	if len(probs) > 0 {
		return Record{}, false, invalid(strings.TrimSpace(rawURL), probs...)
	}
	raw, err := s.fetch.fetch(ctx, base)
	if err != nil {
		var fe *FetchError
		if errors.As(err, &fe) {
			s.log.Info("registration: card fetch failed", "url", base, "err", fe.Error())
			return Record{}, false, &InvalidError{Subject: base, Problems: []string{fe.Error()}, Public: []string{fe.Public()}}
		}
		return Record{}, false, fmt.Errorf("register %s: %w", base, err)
	}
	e, probs := s.entry(base, raw)
	sig, sigProbs := s.verifyCard(raw)
	if probs = append(probs, sigProbs...); len(probs) > 0 {
		return Record{}, false, &InvalidError{Subject: base, Problems: probs}
	}
	if err := s.checkUpdate(ctx, e.ID, sig); err != nil {
		return Record{}, false, err
	}
	rec, created, err := s.store.Put(ctx, e)
	if err != nil {
		return Record{}, false, fmt.Errorf("register %s: %w", base, err)
	}
	rec.Signature = sig
	s.log.Info("registered agent", "agent", rec.ID, "url", base, "name", rec.Name, "created", created)
	return rec, created, nil
}

// entry checks a fetched card and builds what the store writes.
func (s *Service) entry(base string, raw []byte) (Entry, []string) {
	canon, err := canonicalJSON(raw)
	if err != nil {
		return Entry{}, []string{"card: " + err.Error()}
	}
	card, probs := s.validator.ValidateCard(raw)
	if card != nil && len(card.Skills) > s.maxSkills {
		probs = append(probs, fmt.Sprintf("card has %d skills; the registry accepts at most %d", len(card.Skills), s.maxSkills))
	}
	if card == nil && len(probs) == 0 {
		probs = append(probs, "card does not parse as an A2A agent card")
	}
	if len(probs) > 0 {
		return Entry{}, probs
	}
	sum := sha256.Sum256(canon)
	e := Entry{
		ID:          AgentID(base),
		URL:         base,
		Card:        canon,
		CardHash:    hex.EncodeToString(sum[:]),
		Name:        strings.TrimSpace(card.Name),
		Description: strings.TrimSpace(card.Description),
		At:          s.now().UTC(),
	}
	var skills, examples []string
	for _, sk := range card.Skills {
		skills = append(skills, sk.ID, sk.Name, sk.Description)
		examples = append(examples, sk.Examples...)
		for _, t := range sk.Tags {
			if t = strings.ToLower(strings.TrimSpace(t)); t != "" {
				e.Tags = append(e.Tags, t)
			}
		}
	}
	slices.Sort(e.Tags)
	e.Tags = slices.Compact(e.Tags)
	e.SkillText = strings.Join(skills, "\n")
	e.Examples = strings.Join(examples, "\n")
	return e, nil
}

// canonicalJSON re-encodes a JSON object with sorted keys and no
// insignificant space, so equal cards hash equal however they were served.
// Numbers keep their text.
func canonicalJSON(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	if dec.More() {
		return nil, errors.New("not valid JSON: more than one value")
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, errors.New("not a JSON object")
	}
	return json.Marshal(v)
}

// Get returns one record with its history, or an error wrapping ErrNotFound.
func (s *Service) Get(ctx context.Context, id string) (Record, error) {
	rec, err := s.store.Get(ctx, id)
	if err == nil {
		s.withSignature(&rec)
	}
	return rec, err
}

// Delete removes a record, or returns an error wrapping ErrNotFound.
func (s *Service) Delete(ctx context.Context, id string) error {
	if err := s.store.Delete(ctx, id); err != nil {
		return err
	}
	s.log.Info("deleted agent", "agent", id)
	return nil
}

// List returns one page of agents: by relevance when q.Text is set, else by
// name. Every status is listed unless q.Statuses narrows it.
func (s *Service) List(ctx context.Context, q Query) (Page, error) {
	if err := checkQuery(q); err != nil {
		return Page{}, err
	}
	return s.find(ctx, q)
}

// Search ranks agents by relevance to q.Text, which is required. Down agents
// are left out unless q.Statuses asks for them.
func (s *Service) Search(ctx context.Context, q Query) (Page, error) {
	if strings.TrimSpace(q.Text) == "" {
		return Page{}, invalid("query", "search text is required (q=...)")
	}
	if err := checkQuery(q); err != nil {
		return Page{}, err
	}
	if len(q.Statuses) == 0 {
		q.Statuses = []Status{StatusUp, StatusChanged}
	}
	return s.find(ctx, q)
}

func (s *Service) find(ctx context.Context, q Query) (Page, error) {
	page, err := s.store.Find(ctx, q)
	s.withSignatures(page.Hits)
	return page, err
}

func checkQuery(q Query) error {
	var probs []string
	if len(q.Text) > maxQueryBytes {
		probs = append(probs, fmt.Sprintf("search text is %d bytes, more than %d", len(q.Text), maxQueryBytes))
	} else if strings.TrimSpace(q.Text) != "" {
		switch n := len(searchWords(q.Text)); {
		case n == 0:
			probs = append(probs, "search text has no letters or digits")
		case n > maxQueryWords:
			probs = append(probs, fmt.Sprintf("search text has %d words, more than %d", n, maxQueryWords))
		}
	}
	if q.Limit < 0 || q.Limit > MaxLimit {
		probs = append(probs, fmt.Sprintf("limit %d is out of range 1..%d", q.Limit, MaxLimit))
	}
	if len(q.Tag) > 200 {
		probs = append(probs, "tag is longer than 200 characters")
	}
	for _, st := range q.Statuses {
		if _, err := ParseStatus(string(st)); err != nil {
			probs = append(probs, err.Error())
		}
	}
	if q.Cursor != "" {
		if _, err := decodeCursor(q.Cursor); err != nil {
			probs = append(probs, "cursor is not one this registry issued")
		}
	}
	if len(probs) > 0 {
		return invalid("query", probs...)
	}
	return nil
}

// Check probes one agent: it fetches the card and compares it with the
// registered one. It never fails; a failed fetch is StatusDown with the
// reason, which starts with its category (PublicDetail).
func (s *Service) Check(ctx context.Context, t Target) Probe {
	raw, err := s.fetch.fetch(ctx, t.URL)
	p := Probe{At: s.now().UTC()}
	if err != nil {
		p.Status, p.Error = StatusDown, err.Error()
		var fe *FetchError
		if errors.As(err, &fe) {
			p.Error = fe.healthError()
		}
		return p
	}
	canon, err := canonicalJSON(raw)
	if err != nil {
		p.Status, p.Error = StatusDown, CategoryBadCard+": card: "+err.Error()
		return p
	}
	sum := sha256.Sum256(canon)
	if hex.EncodeToString(sum[:]) != t.CardHash {
		p.Status = StatusChanged
		return p
	}
	p.Status = StatusUp
	return p
}
