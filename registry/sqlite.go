package registry

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// historyKeep is how many registrations of one agent the history keeps.
const historyKeep = 50

// migrations are the schema versions in order; migrations[i] takes a
// database from user_version i to i+1. Append only: never edit one that has
// shipped.
var migrations = []string{
	// 1: agents, their tags and history, and the full-text index.
	`CREATE TABLE agents (
		seq             INTEGER PRIMARY KEY,
		id              TEXT NOT NULL UNIQUE,
		url             TEXT NOT NULL UNIQUE,
		name            TEXT NOT NULL,
		description     TEXT NOT NULL,
		tags            TEXT NOT NULL,  -- JSON array
		card            TEXT NOT NULL,  -- canonical JSON
		card_hash       TEXT NOT NULL,
		first_seen      INTEGER NOT NULL, -- unix milliseconds, as every time below
		last_seen       INTEGER NOT NULL,
		last_changed    INTEGER NOT NULL,
		last_registered INTEGER NOT NULL,
		registrations   INTEGER NOT NULL,
		status          TEXT NOT NULL,
		checked_at      INTEGER NOT NULL,
		failures        INTEGER NOT NULL DEFAULT 0,
		last_error      TEXT NOT NULL DEFAULT ''
	);
	CREATE INDEX agents_by_name ON agents(name, seq);
	CREATE INDEX agents_by_status ON agents(status);
	CREATE TABLE agent_tags (
		tag       TEXT NOT NULL,
		agent_seq INTEGER NOT NULL REFERENCES agents(seq) ON DELETE CASCADE,
		PRIMARY KEY (tag, agent_seq)
	) WITHOUT ROWID;
	CREATE INDEX agent_tags_by_agent ON agent_tags(agent_seq);
	CREATE TABLE agent_history (
		agent_seq INTEGER NOT NULL REFERENCES agents(seq) ON DELETE CASCADE,
		n         INTEGER NOT NULL,
		at        INTEGER NOT NULL,
		card_hash TEXT NOT NULL,
		changed   INTEGER NOT NULL,
		PRIMARY KEY (agent_seq, n)
	);
	CREATE VIRTUAL TABLE agents_fts USING fts5(
		name, description, skills, tags, examples,
		tokenize = 'porter unicode61 remove_diacritics 2'
	);`,
	// 2: cards move to their own table, so that the rows searches and
	// filters touch stay small.
	`CREATE TABLE agent_cards (
		agent_seq INTEGER PRIMARY KEY REFERENCES agents(seq) ON DELETE CASCADE,
		card      TEXT NOT NULL -- canonical JSON
	);
	INSERT INTO agent_cards (agent_seq, card) SELECT seq, card FROM agents;
	ALTER TABLE agents DROP COLUMN card;`,
}

// bm25Weights weigh the full-text columns: name, description, skills, tags,
// examples. A word in the name or a tag says more than one in an example.
const bm25Weights = "8.0, 3.0, 4.0, 4.0, 1.0"

// SQLiteStore is the default Store: one SQLite file in WAL mode (or an
// in-memory database), written through a single connection and read through
// a small pool. It is safe for concurrent use.
type SQLiteStore struct {
	w   *sql.DB // the one writer
	r   *sql.DB // readers; the same as w for in-memory databases
	dfs docFreqs
	// exactMax and budget are exactRankMax and rankBudget; tests shrink them.
	exactMax, budget int
}

var _ Store = (*SQLiteStore)(nil)

// OpenSQLite opens (creating if needed) the registry database at path and
// brings its schema up to date. path ":memory:" opens a private in-memory
// database. Commits are synchronous (synchronous=FULL): a Put that returned
// survives a crash of the process or the machine.
func OpenSQLite(ctx context.Context, path string) (*SQLiteStore, error) {
	pragmas := url.Values{}
	for _, p := range []string{"busy_timeout(10000)", "foreign_keys(1)"} {
		pragmas.Add("_pragma", p)
	}
	s := SQLiteStore{exactMax: exactRankMax, budget: rankBudget}
	if path == ":memory:" {
		db, err := sql.Open("sqlite", "file::memory:?"+pragmas.Encode())
		if err != nil {
			return nil, fmt.Errorf("open in-memory registry: %w", err)
		}
		// Each connection to :memory: is its own database: keep one.
		db.SetMaxOpenConns(1)
		s.w, s.r = db, db
	} else {
		pragmas.Add("_pragma", "journal_mode(WAL)")
		pragmas.Add("_pragma", "synchronous(FULL)")
		wq := url.Values{"_txlock": {"immediate"}}
		for _, p := range pragmas["_pragma"] {
			wq.Add("_pragma", p)
		}
		w, err := sql.Open("sqlite", "file:"+path+"?"+wq.Encode())
		if err != nil {
			return nil, fmt.Errorf("open registry %s: %w", path, err)
		}
		w.SetMaxOpenConns(1)
		s.w = w
		rq := url.Values{"_pragma": append(append([]string{}, pragmas["_pragma"]...), "query_only(1)")}
		r, err := sql.Open("sqlite", "file:"+path+"?"+rq.Encode())
		if err != nil {
			w.Close()
			return nil, fmt.Errorf("open registry %s: %w", path, err)
		}
		r.SetMaxOpenConns(4)
		// Keep every reader open: a closed one loses its page cache.
		r.SetMaxIdleConns(4)
		s.r = r
	}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("open registry %s: %w", path, err)
	}
	return &s, nil
}

// migrate applies the migrations the database lacks, all in one transaction.
func (s *SQLiteStore) migrate(ctx context.Context) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	var v int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("migrate: read schema version: %w", err)
	}
	if v > len(migrations) {
		return fmt.Errorf("schema version %d is newer than this agentnet knows (%d): upgrade agentnet", v, len(migrations))
	}
	if v == len(migrations) {
		return nil
	}
	for i := v; i < len(migrations); i++ {
		if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
			return fmt.Errorf("migrate to schema version %d: %w", i+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(migrations))); err != nil {
		return fmt.Errorf("migrate: set schema version: %w", err)
	}
	return tx.Commit()
}

// SchemaVersion returns the database's schema version.
func (s *SQLiteStore) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := s.r.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	return v, err
}

// Close closes the database.
func (s *SQLiteStore) Close() error {
	err := s.w.Close()
	if s.r != s.w {
		err = errors.Join(err, s.r.Close())
	}
	return err
}

// Put implements Store.
func (s *SQLiteStore) Put(ctx context.Context, e Entry) (Record, bool, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return Record{}, false, fmt.Errorf("put agent %s: %w", e.ID, err)
	}
	defer tx.Rollback()
	seq, created, err := putTx(ctx, tx, e)
	if err != nil {
		return Record{}, false, fmt.Errorf("put agent %s: %w", e.ID, err)
	}
	rec, err := scanRecord(tx.QueryRowContext(ctx, selectRecord+" WHERE a.seq = ?", seq))
	if err != nil {
		return Record{}, false, fmt.Errorf("put agent %s: read back: %w", e.ID, err)
	}
	if err := tx.Commit(); err != nil {
		return Record{}, false, fmt.Errorf("put agent %s: commit: %w", e.ID, err)
	}
	return rec, created, nil
}

// putTx writes e in tx and returns the agent's row number.
func putTx(ctx context.Context, tx *sql.Tx, e Entry) (seq int64, created bool, err error) {
	at := e.At.UnixMilli()
	tags, _ := json.Marshal(nonNil(e.Tags))
	var oldHash string
	err = tx.QueryRowContext(ctx, "SELECT seq, card_hash FROM agents WHERE id = ?", e.ID).Scan(&seq, &oldHash)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		created = true
		err = tx.QueryRowContext(ctx, `INSERT INTO agents (id, url, name, description, tags, card_hash,
			first_seen, last_seen, last_changed, last_registered, registrations, status, checked_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?) RETURNING seq`,
			e.ID, e.URL, e.Name, e.Description, string(tags), e.CardHash,
			at, at, at, at, StatusUp, at).Scan(&seq)
		if err != nil {
			return 0, false, err
		}
	case err != nil:
		return 0, false, err
	default:
		// A registration is a successful fetch: the agent is up, whatever
		// the prober said before.
		_, err = tx.ExecContext(ctx, `UPDATE agents SET url = ?, name = ?, description = ?, tags = ?,
			card_hash = ?, last_seen = ?, last_changed = CASE WHEN card_hash = ? THEN last_changed ELSE ? END,
			last_registered = ?, registrations = registrations + 1, status = ?, checked_at = ?, failures = 0,
			last_error = '' WHERE seq = ?`,
			e.URL, e.Name, e.Description, string(tags), e.CardHash, at, e.CardHash, at,
			at, StatusUp, at, seq)
		if err != nil {
			return 0, false, err
		}
		if _, err = tx.ExecContext(ctx, "DELETE FROM agent_tags WHERE agent_seq = ?", seq); err != nil {
			return 0, false, err
		}
		if _, err = tx.ExecContext(ctx, "DELETE FROM agents_fts WHERE rowid = ?", seq); err != nil {
			return 0, false, err
		}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO agent_cards (agent_seq, card) VALUES (?, ?)
		ON CONFLICT (agent_seq) DO UPDATE SET card = excluded.card`, seq, string(e.Card))
	if err != nil {
		return 0, false, err
	}
	for _, t := range e.Tags {
		if _, err = tx.ExecContext(ctx, "INSERT OR IGNORE INTO agent_tags (tag, agent_seq) VALUES (?, ?)", t, seq); err != nil {
			return 0, false, err
		}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO agents_fts (rowid, name, description, skills, tags, examples)
		VALUES (?, ?, ?, ?, ?, ?)`, seq, e.Name, e.Description, e.SkillText, strings.Join(e.Tags, " "), e.Examples)
	if err != nil {
		return 0, false, err
	}
	changed := created || oldHash != e.CardHash
	_, err = tx.ExecContext(ctx, `INSERT INTO agent_history (agent_seq, n, at, card_hash, changed)
		VALUES (?, (SELECT COALESCE(MAX(n), 0) + 1 FROM agent_history WHERE agent_seq = ?), ?, ?, ?)`,
		seq, seq, at, e.CardHash, changed)
	if err != nil {
		return 0, false, err
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM agent_history WHERE agent_seq = ?
		AND n <= (SELECT MAX(n) FROM agent_history WHERE agent_seq = ?) - ?`, seq, seq, historyKeep)
	if err != nil {
		return 0, false, err
	}
	return seq, created, nil
}

// recordCols are the columns scanRecord reads, in its order.
const recordCols = `a.seq, a.id, a.url, a.name, a.description, a.tags, c.card, a.card_hash,
	a.first_seen, a.last_seen, a.last_changed, a.last_registered, a.registrations,
	a.status, a.checked_at, a.failures, a.last_error`

const selectRecord = "SELECT " + recordCols + " FROM agents a JOIN agent_cards c ON c.agent_seq = a.seq"

type rowScanner interface{ Scan(...any) error }

func scanRecord(row rowScanner, extra ...any) (Record, error) {
	var (
		r                                      Record
		seq                                    int64
		tags, card, status                     string
		first, seen, changed, registered, chkd int64
	)
	dest := append([]any{&seq, &r.ID, &r.URL, &r.Name, &r.Description, &tags, &card, &r.CardHash,
		&first, &seen, &changed, &registered, &r.Registrations,
		&status, &chkd, &r.Health.Failures, &r.Health.Error}, extra...)
	if err := row.Scan(dest...); err != nil {
		return Record{}, err
	}
	if err := json.Unmarshal([]byte(tags), &r.Tags); err != nil {
		return Record{}, fmt.Errorf("agent %s: tags: %w", r.ID, err)
	}
	r.Card = json.RawMessage(card)
	r.Health.Status = Status(status)
	r.FirstSeen, r.LastSeen = fromMilli(first), fromMilli(seen)
	r.LastChanged, r.LastRegistered = fromMilli(changed), fromMilli(registered)
	r.Health.CheckedAt = fromMilli(chkd)
	return r, nil
}

func fromMilli(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Get implements Store.
func (s *SQLiteStore) Get(ctx context.Context, id string) (Record, error) {
	var seq int64
	rec, err := scanRecord(s.r.QueryRowContext(ctx, selectRecord+" WHERE a.id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return Record{}, fmt.Errorf("get agent %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return Record{}, fmt.Errorf("get agent %q: %w", id, err)
	}
	if err := s.r.QueryRowContext(ctx, "SELECT seq FROM agents WHERE id = ?", id).Scan(&seq); err != nil {
		return Record{}, fmt.Errorf("get agent %q: %w", id, err)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT at, card_hash, changed FROM agent_history
		WHERE agent_seq = ? ORDER BY n DESC`, seq)
	if err != nil {
		return Record{}, fmt.Errorf("get agent %q: history: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var rv Revision
		var at int64
		if err := rows.Scan(&at, &rv.CardHash, &rv.Changed); err != nil {
			return Record{}, fmt.Errorf("get agent %q: history: %w", id, err)
		}
		rv.At = fromMilli(at)
		rec.History = append(rec.History, rv)
	}
	if err := rows.Err(); err != nil {
		return Record{}, fmt.Errorf("get agent %q: history: %w", id, err)
	}
	return rec, nil
}

// Delete implements Store.
func (s *SQLiteStore) Delete(ctx context.Context, id string) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("delete agent %q: %w", id, err)
	}
	defer tx.Rollback()
	var seq int64
	err = tx.QueryRowContext(ctx, "DELETE FROM agents WHERE id = ? RETURNING seq", id).Scan(&seq)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("delete agent %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("delete agent %q: %w", id, err)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM agents_fts WHERE rowid = ?", seq); err != nil {
		return fmt.Errorf("delete agent %q: index: %w", id, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("delete agent %q: commit: %w", id, err)
	}
	return nil
}

// cursor is the position after the last row of a page. Pages by relevance
// continue after (Score, Seq), unranked search pages (newest first) before
// Seq, pages by name after (Name, Seq).
type cursor struct {
	Ranked   bool    `json:"r,omitempty"`
	Unranked bool    `json:"u,omitempty"`
	Score    float64 `json:"s,omitempty"`
	Name     string  `json:"n,omitempty"`
	Seq      int64   `json:"q"`
}

func (c cursor) encode() string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeCursor(s string) (cursor, error) {
	var c cursor
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err != nil || c.Seq <= 0 {
		return cursor{}, invalid("query", "cursor is not one this registry issued")
	}
	return c, nil
}

// Search words. Every word becomes a quoted FTS5 phrase, so nothing in the
// text is FTS5 syntax (operators, column filters, quotes), and the MATCH
// expression is a bound parameter, so nothing reaches SQL unbound. Which
// words a search matches is planned in search.go, alike for every store.

// matchAny is the FTS5 expression matching any of words.
func matchAny(words []string) string {
	ph := make([]string, len(words))
	for i, w := range words {
		ph[i] = `"` + w + `"`
	}
	return strings.Join(ph, " OR ")
}

// searchPlan is how Find answers one search.
type searchPlan struct {
	expr string // the FTS5 MATCH expression
	// candidates is how many of the most recently registered matches are
	// ranked; 0 ranks all.
	candidates int
	// unranked lists the matches newest first with score 0. Such a plan
	// still sets candidates, for a page that continues a ranked one.
	unranked bool
}

// plan returns how to search for words, which are only stop words when
// onlyStop is set.
func (s *SQLiteStore) plan(ctx context.Context, words []string, onlyStop bool) (searchPlan, error) {
	p, err := s.dfs.plan(ctx, sqliteCounter{s}, s.exactMax, s.budget, words, onlyStop)
	if err != nil {
		return searchPlan{}, err
	}
	return searchPlan{expr: matchAny(p.words), candidates: p.candidates, unranked: p.unranked}, nil
}

// sqliteCounter counts cards for the search planner.
type sqliteCounter struct{ s *SQLiteStore }

func (c sqliteCounter) countCards(ctx context.Context) (n int, err error) {
	err = c.s.r.QueryRowContext(ctx, "SELECT COUNT(*) FROM agents").Scan(&n)
	return n, err
}

func (c sqliteCounter) countMatches(ctx context.Context, word string) (n int, err error) {
	err = c.s.r.QueryRowContext(ctx, "SELECT COUNT(*) FROM agents_fts WHERE agents_fts MATCH ?", matchAny([]string{word})).Scan(&n)
	return n, err
}

// Find implements Store. It picks one page of row numbers first, then reads
// those records, so that ranking and sorting never carry cards around.
func (s *SQLiteStore) Find(ctx context.Context, q Query) (Page, error) {
	limit, ranked, c, err := pageOf(q)
	if err != nil {
		return Page{}, err
	}
	var (
		sb       strings.Builder
		args     []any
		unranked bool
	)
	if ranked {
		words, onlyStop := queryWords(q.Text)
		if len(words) == 0 {
			return Page{}, invalid("query", "search text has no letters or digits")
		}
		p, err := s.plan(ctx, words, onlyStop)
		if err != nil {
			return Page{}, fmt.Errorf("find agents: plan %q: %w", q.Text, err)
		}
		// A page continues in the order of the page before it, should the
		// plan have changed in between (the registry grew, say).
		unranked = p.unranked
		if q.Cursor != "" {
			unranked = c.Unranked
		}
		switch {
		case unranked:
			sb.WriteString(`SELECT f.rid, 0.0 FROM (SELECT rowid AS rid FROM agents_fts WHERE agents_fts MATCH ?`)
			args = append(args, p.expr)
		case p.candidates > 0:
			sb.WriteString(`SELECT f.rid, f.score FROM (SELECT rowid AS rid, bm25(agents_fts, ` + bm25Weights + `) AS score
				FROM agents_fts WHERE agents_fts MATCH ? ORDER BY rowid DESC LIMIT ?`)
			args = append(args, p.expr, p.candidates)
		default:
			sb.WriteString(`SELECT f.rid, f.score FROM (SELECT rowid AS rid, bm25(agents_fts, ` + bm25Weights + `) AS score
				FROM agents_fts WHERE agents_fts MATCH ?`)
			args = append(args, p.expr)
		}
		// Filters test row numbers against small sets, so ranking never
		// reads the agents table: status by exclusion (down agents are
		// few), tags through their index.
		sb.WriteString(") f WHERE 1 = 1")
		if excl := excludedStatuses(q.Statuses); len(excl) > 0 {
			sb.WriteString(" AND f.rid NOT IN (SELECT seq FROM agents WHERE status IN (" + placeholders(len(excl)) + "))")
			for _, st := range excl {
				args = append(args, string(st))
			}
		}
		if q.Tag != "" {
			// Unranked, every word is in thousands of cards, so reading
			// their matches newest first fills a page soonest; the unary +
			// keeps SQLite from looking up each tagged card instead.
			if unranked {
				sb.WriteString(" AND +f.rid IN (SELECT agent_seq FROM agent_tags WHERE tag = ?)")
			} else {
				sb.WriteString(" AND f.rid IN (SELECT agent_seq FROM agent_tags WHERE tag = ?)")
			}
			args = append(args, strings.ToLower(strings.TrimSpace(q.Tag)))
		}
	} else {
		sb.WriteString("SELECT a.seq, 0.0 FROM agents a WHERE 1 = 1")
		if len(q.Statuses) > 0 {
			sb.WriteString(" AND a.status IN (" + placeholders(len(q.Statuses)) + ")")
			for _, st := range q.Statuses {
				args = append(args, string(st))
			}
		}
		if q.Tag != "" {
			sb.WriteString(" AND EXISTS (SELECT 1 FROM agent_tags t WHERE t.tag = ? AND t.agent_seq = a.seq)")
			args = append(args, strings.ToLower(strings.TrimSpace(q.Tag)))
		}
	}
	switch {
	case q.Cursor != "" && unranked:
		sb.WriteString(" AND f.rid < ?")
		args = append(args, c.Seq)
	case q.Cursor != "" && ranked:
		sb.WriteString(" AND (f.score > ? OR (f.score = ? AND f.rid > ?))")
		args = append(args, c.Score, c.Score, c.Seq)
	case q.Cursor != "":
		sb.WriteString(" AND (a.name > ? OR (a.name = ? AND a.seq > ?))")
		args = append(args, c.Name, c.Name, c.Seq)
	}
	switch {
	case unranked:
		sb.WriteString(" ORDER BY f.rid DESC")
	case ranked:
		sb.WriteString(" ORDER BY f.score, f.rid")
	default:
		sb.WriteString(" ORDER BY a.name, a.seq")
	}
	sb.WriteString(" LIMIT ?")
	args = append(args, limit+1)

	// One read transaction: both steps see the same snapshot.
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return Page{}, fmt.Errorf("find agents: %w", err)
	}
	defer tx.Rollback()
	type pick struct {
		seq   int64
		score float64
	}
	var picks []pick
	rows, err := tx.QueryContext(ctx, sb.String(), args...)
	if err != nil {
		return Page{}, fmt.Errorf("find agents: %w", err)
	}
	for rows.Next() {
		var p pick
		if err := rows.Scan(&p.seq, &p.score); err != nil {
			rows.Close()
			return Page{}, fmt.Errorf("find agents: %w", err)
		}
		picks = append(picks, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return Page{}, fmt.Errorf("find agents: %w", err)
	}
	more := len(picks) > limit
	picks = picks[:min(len(picks), limit)]

	page := Page{Hits: make([]Hit, 0, len(picks))}
	if len(picks) == 0 {
		return page, nil
	}
	recs := make(map[int64]Record, len(picks))
	seqs := make([]any, len(picks))
	for i, p := range picks {
		seqs[i] = p.seq
	}
	rows, err = tx.QueryContext(ctx, selectRecord+" WHERE a.seq IN ("+strings.TrimSuffix(strings.Repeat("?, ", len(seqs)), ", ")+")", seqs...)
	if err != nil {
		return Page{}, fmt.Errorf("find agents: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var seq int64
		rec, err := scanRecord(seqScanner{rows, &seq})
		if err != nil {
			return Page{}, fmt.Errorf("find agents: %w", err)
		}
		recs[seq] = rec
	}
	if err := rows.Err(); err != nil {
		return Page{}, fmt.Errorf("find agents: %w", err)
	}
	var last cursor
	for _, p := range picks {
		rec, ok := recs[p.seq]
		if !ok {
			continue
		}
		// bm25 is lower for better matches; the API's scores are higher.
		h := Hit{Score: -p.score, Record: rec}
		if unranked {
			h.Score = 0 // not -0
		}
		page.Hits = append(page.Hits, h)
		last = cursor{Ranked: ranked, Unranked: unranked, Score: p.score, Name: rec.Name, Seq: p.seq}
	}
	if more {
		page.NextCursor = last.encode()
	}
	return page, nil
}

// excludedStatuses returns the statuses a filter on keep leaves out.
func excludedStatuses(keep []Status) []Status {
	if len(keep) == 0 {
		return nil
	}
	var out []Status
	for _, st := range Statuses {
		if !slices.Contains(keep, st) {
			out = append(out, st)
		}
	}
	return out
}

func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?, ", n), ", ") }

// seqScanner captures the row number scanRecord skips.
type seqScanner struct {
	rows *sql.Rows
	seq  *int64
}

func (s seqScanner) Scan(dest ...any) error {
	dest[0] = s.seq
	return s.rows.Scan(dest...)
}

// Targets implements Store.
func (s *SQLiteStore) Targets(ctx context.Context) ([]Target, error) {
	rows, err := s.r.QueryContext(ctx, "SELECT id, url, card_hash FROM agents ORDER BY seq")
	if err != nil {
		return nil, fmt.Errorf("list probe targets: %w", err)
	}
	defer rows.Close()
	var ts []Target
	for rows.Next() {
		var t Target
		if err := rows.Scan(&t.ID, &t.URL, &t.CardHash); err != nil {
			return nil, fmt.Errorf("list probe targets: %w", err)
		}
		ts = append(ts, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list probe targets: %w", err)
	}
	return ts, nil
}

// SetHealth implements Store.
func (s *SQLiteStore) SetHealth(ctx context.Context, t Target, p Probe) error {
	at := p.At.UnixMilli()
	ok := p.Status != StatusDown
	_, err := s.w.ExecContext(ctx, `UPDATE agents SET status = ?, checked_at = ?,
		last_seen = CASE WHEN ? THEN ? ELSE last_seen END,
		failures = CASE WHEN ? THEN 0 ELSE failures + 1 END,
		last_error = ? WHERE id = ? AND card_hash = ?`,
		string(p.Status), at, ok, at, ok, p.Error, t.ID, t.CardHash)
	if err != nil {
		return fmt.Errorf("set health of agent %q: %w", t.ID, err)
	}
	return nil
}

// Count implements Store.
func (s *SQLiteStore) Count(ctx context.Context) (map[Status]int, error) {
	rows, err := s.r.QueryContext(ctx, "SELECT status, COUNT(*) FROM agents GROUP BY status")
	if err != nil {
		return nil, fmt.Errorf("count agents: %w", err)
	}
	defer rows.Close()
	n := map[Status]int{}
	for rows.Next() {
		var st string
		var c int
		if err := rows.Scan(&st, &c); err != nil {
			return nil, fmt.Errorf("count agents: %w", err)
		}
		n[Status(st)] = c
	}
	return n, rows.Err()
}
