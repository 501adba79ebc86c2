package registry

import (
	"context"
	"time"
)

// Store keeps the registry's records. Implementations are safe for
// concurrent use; every method that returns nil has made its write durable.
type Store interface {
	// Put stores an agent's card, inserting a record or, when one with
	// e.ID exists, replacing its card and appending to its history. It
	// reports whether the record is new.
	Put(ctx context.Context, e Entry) (rec Record, created bool, err error)
	// Get returns one record with its history, or ErrNotFound.
	Get(ctx context.Context, id string) (Record, error)
	// Delete removes a record and its history, or returns ErrNotFound.
	Delete(ctx context.Context, id string) error
	// Find returns one page of the records q selects. With q.Text the page
	// is ordered by relevance, otherwise by name. The Service checks q
	// before it gets here.
	Find(ctx context.Context, q Query) (Page, error)
	// Targets lists what the prober checks: every agent's id, URL and
	// registered card hash.
	Targets(ctx context.Context) ([]Target, error)
	// SetHealth records a probe of the agent t names. A probe of a card
	// that was replaced since Targets (t.CardHash no longer matches) is
	// dropped: the new registration is fresher.
	SetHealth(ctx context.Context, t Target, p Probe) error
	// Count returns how many agents are in each status.
	Count(ctx context.Context) (map[Status]int, error)
	// Close releases the store.
	Close() error
}

// Open opens the store db names: the PostgreSQL database at a postgres:// or
// postgresql:// URL (OpenPostgres), else the SQLite file at path db
// (OpenSQLite). The caller closes the store.
func Open(ctx context.Context, db string) (Store, error) {
	if IsPostgresURL(db) {
		s, err := OpenPostgres(ctx, db)
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	s, err := OpenSQLite(ctx, db)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Entry is what a registration writes: a validated card and the text the
// search index holds.
type Entry struct {
	ID          string
	URL         string
	Card        []byte // canonical JSON
	CardHash    string
	Name        string
	Description string
	Tags        []string // lowercased, deduplicated
	SkillText   string   // skill ids, names and descriptions
	Examples    string   // skill examples
	At          time.Time
}

// Target is one agent the prober checks.
type Target struct {
	ID       string
	URL      string
	CardHash string
}

// Probe is the outcome of one health check.
type Probe struct {
	At     time.Time
	Status Status
	Error  string // why the check failed, for StatusDown
}
