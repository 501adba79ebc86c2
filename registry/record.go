package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Status is an agent's health as the prober last saw it.
type Status string

// The statuses of an agent.
const (
	StatusUp      Status = "up"      // the card was fetched and equals the registered one
	StatusDown    Status = "down"    // the card could not be fetched
	StatusChanged Status = "changed" // the card was fetched but differs from the registered one
)

// Statuses lists every status, in display order.
var Statuses = []Status{StatusUp, StatusChanged, StatusDown}

// ParseStatus returns the status named s.
func ParseStatus(s string) (Status, error) {
	for _, st := range Statuses {
		if string(st) == s {
			return st, nil
		}
	}
	return "", fmt.Errorf("unknown status %q (want up, changed or down)", s)
}

// Record is one registered agent: its card, where it lives and what the
// registry has seen of it.
type Record struct {
	ID          string          `json:"id"`
	URL         string          `json:"url"` // the base URL the card was fetched from
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Tags        []string        `json:"tags"` // the skills' tags, lowercased and deduplicated
	Card        json.RawMessage `json:"card"` // the card as fetched (canonical JSON)
	CardHash    string          `json:"card_hash"`

	FirstSeen      time.Time `json:"first_seen"`      // first registration
	LastSeen       time.Time `json:"last_seen"`       // last time the card was fetched successfully
	LastChanged    time.Time `json:"last_changed"`    // last registration that brought a different card
	LastRegistered time.Time `json:"last_registered"` // last registration, changed or not
	Registrations  int       `json:"registrations"`

	Health Health `json:"health"`

	// Signature is the key the card is signed by, verified again each time
	// the record is read; absent for an unsigned card.
	Signature *Signature `json:"signature,omitempty"`

	// History lists the most recent registrations, newest first. Only Get
	// fills it.
	History []Revision `json:"history,omitempty"`
}

// Health is the prober's view of an agent.
type Health struct {
	Status    Status    `json:"status"`
	CheckedAt time.Time `json:"checked_at"`
	Failures  int       `json:"failures"` // consecutive failed probes
	Error     string    `json:"error,omitempty"`
}

// Revision is one registration of an agent.
type Revision struct {
	At       time.Time `json:"at"`
	CardHash string    `json:"card_hash"`
	Changed  bool      `json:"changed"` // the card differed from the one before
}

// Hit is one search result: a record and its relevance (higher is better).
// The score is 0 for the hits of a search that is not ranked: in a registry
// of more than 5,000 cards, a query made only of stop words ("the", "of a"),
// each in more than 4,000 cards, lists its matches newest first.
type Hit struct {
	Score float64 `json:"score"`
	Record
}

// Query selects records. The zero Query lists every agent by name.
type Query struct {
	// Text, when set, ranks agents by full-text relevance over names,
	// descriptions, skill names and descriptions, tags and examples.
	// English stop words ("the", "of", "to") in it are ignored unless it
	// has no other words.
	Text string
	// Tag keeps agents with a skill carrying this tag (case-insensitive).
	Tag string
	// Statuses keeps agents in one of these statuses; empty keeps all.
	Statuses []Status
	// Limit caps the page size: 0 means DefaultLimit, more than MaxLimit is
	// an error.
	Limit int
	// Cursor continues from a previous page's NextCursor.
	Cursor string
}

// Page limits.
const (
	DefaultLimit = 20
	MaxLimit     = 100
)

// Page is one page of results. NextCursor is empty on the last page.
type Page struct {
	Hits       []Hit  `json:"results"`
	NextCursor string `json:"next_cursor,omitempty"`
}

// Errors of the registry. Callers test them with errors.Is.
var (
	ErrNotFound = errors.New("agent not found")
)

// InvalidError reports every problem with a registration, a query or a
// database URL. The HTTP API answers it with 422 (registrations) or 400
// (queries).
type InvalidError struct {
	Subject  string   // what was invalid: a URL, "query"
	Problems []string // every problem, each a sentence
	// Public, when set, replaces Problems for a caller who does not hold
	// the registry's token: the same problems without their detail.
	Public []string
}

func (e *InvalidError) Error() string {
	return fmt.Sprintf("%s: %s", e.Subject, strings.Join(e.Problems, "; "))
}

// invalid builds an InvalidError.
func invalid(subject string, problems ...string) *InvalidError {
	return &InvalidError{Subject: subject, Problems: problems}
}
