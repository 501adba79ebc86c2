package registry

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// pgMigrations are the PostgreSQL schema versions in order; pgMigrations[i]
// takes a database from version i to i+1 (the one row of
// agentnet_registry_schema). Append only: never edit one that has shipped.
var pgMigrations = []string{
	// 1: agents, their cards and history, and the full-text index. The text
	// search configuration is english with its stemmer but without its stop
	// words: like SQLite's index, it holds every word, and queries drop
	// Lucene's stop words themselves (queryWords).
	`CREATE TEXT SEARCH DICTIONARY agentnet_english_stem (TEMPLATE = snowball, LANGUAGE = english);
	CREATE TEXT SEARCH CONFIGURATION agentnet_english (COPY = pg_catalog.english);
	ALTER TEXT SEARCH CONFIGURATION agentnet_english ALTER MAPPING REPLACE english_stem WITH agentnet_english_stem;
	CREATE TABLE agents (
		seq             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
		id              text NOT NULL UNIQUE,
		url             text NOT NULL UNIQUE,
		name            text COLLATE "C" NOT NULL, -- byte order, as SQLite sorts
		description     text NOT NULL,
		tags            text[] NOT NULL,
		card_hash       text NOT NULL,
		first_seen      timestamptz NOT NULL, -- whole milliseconds, as SQLite keeps them
		last_seen       timestamptz NOT NULL,
		last_changed    timestamptz NOT NULL,
		last_registered timestamptz NOT NULL,
		registrations   integer NOT NULL,
		status          text NOT NULL,
		checked_at      timestamptz NOT NULL,
		failures        integer NOT NULL DEFAULT 0,
		last_error      text NOT NULL DEFAULT '',
		search          tsvector NOT NULL
	);
	CREATE INDEX agents_by_name ON agents (name, seq);
	CREATE INDEX agents_by_status ON agents (status);
	CREATE INDEX agents_by_tag ON agents USING gin (tags) WITH (fastupdate = off);
	-- Without a pending list, a search reads the index alone: writes are
	-- rare, searches many.
	CREATE INDEX agents_search ON agents USING gin (search) WITH (fastupdate = off);
	CREATE TABLE agent_cards (
		agent_seq bigint PRIMARY KEY REFERENCES agents (seq) ON DELETE CASCADE,
		card      text NOT NULL -- canonical JSON, byte for byte
	);
	CREATE TABLE agent_history (
		agent_seq bigint NOT NULL REFERENCES agents (seq) ON DELETE CASCADE,
		n         integer NOT NULL,
		at        timestamptz NOT NULL,
		card_hash text NOT NULL,
		changed   boolean NOT NULL,
		PRIMARY KEY (agent_seq, n)
	);`,
}

// pgMigrateLock is the advisory lock key migrations hold ("agentnet" in
// ASCII), so that registry instances starting at once migrate one at a time.
const pgMigrateLock int64 = 0x6167656e746e6574

// pgRankWeights weigh the index's classes D, C, B, A for ts_rank: examples
// (D), description (C), skills and tags (B), name (A), in the proportions of
// SQLite's bm25 weights 1 : 3 : 4 : 8.
const pgRankWeights = `'{0.125, 0.375, 0.5, 1.0}'::float4[]`

// pgQuery is the tsquery of one search; its parameter is pgMatchAny's text.
// Searches run as unnamed statements (pgx.QueryExecModeExec), which
// PostgreSQL plans for their values: it computes the tsquery once, while
// planning, and estimates from the index's statistics how many cards each
// word matches, so that a page of a word in most cards reads them newest
// first rather than all of them. A prepared statement's generic plan would
// know neither.
const pgQuery = `to_tsquery('agentnet_english', %s)`

// pgSearchVector builds the index entry from its four weighted texts, each
// pgSearchTexts' output.
const pgSearchVector = `setweight(to_tsvector('agentnet_english', $9), 'A') ||
	setweight(to_tsvector('agentnet_english', $10), 'B') ||
	setweight(to_tsvector('agentnet_english', $11), 'C') ||
	setweight(to_tsvector('agentnet_english', $12), 'D')`

// pgIndexMax caps the text one card puts in the index, in bytes. A tsvector
// holds at most 1 MB, and one of short, distinct words takes about three
// times the bytes of their text. Past the cap, the last words of the longest
// texts are left out of the index (pgSearchTexts); the card is kept whole.
const pgIndexMax = 256 << 10

// PostgresStore is a Store on a PostgreSQL database (13 or later, through
// pgx), for teams that run several registry instances on one database. It
// searches with PostgreSQL's own full-text engine: a weighted tsvector per
// card in a GIN index, ranked by ts_rank. Queries treat words as SQLite's
// store does (stop words, the plan for common words in large registries);
// scores differ in scale. It is safe for concurrent use, by any number of
// stores in any number of processes on the same database; writes are as
// durable as the server's synchronous_commit makes them (on by default).
// It is a ProbeLeader: of the stores on one database, one at a time leads
// the health probes (postgres_lead.go).
type PostgresStore struct {
	pool *pgxpool.Pool
	lead pgLeader
	dfs  docFreqs
	// exactMax and budget are exactRankMax and rankBudget; tests shrink them.
	exactMax, budget int
}

var _ Store = (*PostgresStore)(nil)

// IsPostgresURL reports whether db names a PostgreSQL database (a
// postgres:// or postgresql:// URL) rather than a SQLite file.
func IsPostgresURL(db string) bool {
	scheme, _, ok := strings.Cut(db, "://")
	return ok && (strings.EqualFold(scheme, "postgres") || strings.EqualFold(scheme, "postgresql"))
}

// OpenPostgres connects to the PostgreSQL database at dsn, a postgres:// URL
// (with pgx's parameters: pool_max_conns, sslmode, search_path ...; the
// libpq variables PGPASSWORD, PGHOST ... and ~/.pgpass fill what it lacks),
// and brings its schema up to date. Stores that start at once on one
// database migrate it one at a time. A dsn that does not parse is an
// *InvalidError; errors never show its password.
func OpenPostgres(ctx context.Context, dsn string) (*PostgresStore, error) {
	if scheme, rest, ok := strings.Cut(dsn, "://"); ok && IsPostgresURL(dsn) {
		dsn = strings.ToLower(scheme) + "://" + rest // pgx knows the lowercase schemes only
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, invalid("database URL", err.Error()) // pgx masks the password
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = 10 * time.Second
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open registry %s: %w", RedactDB(dsn), err)
	}
	s := &PostgresStore{pool: pool, exactMax: exactRankMax, budget: rankBudget}
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open registry %s: %w", RedactDB(dsn), oneLine{err})
	}
	return s, nil
}

// oneLine is an error whose message is kept on one line: pgx reports a
// failed connection with a line per address it tried.
type oneLine struct{ err error }

func (e oneLine) Error() string {
	msg := strings.ReplaceAll(strings.TrimSpace(e.err.Error()), ":\n", ": ")
	return strings.Join(strings.Fields(strings.ReplaceAll(msg, "\n", "; ")), " ")
}

func (e oneLine) Unwrap() error { return e.err }

// RedactDB returns db, a SQLite path or a PostgreSQL URL, fit for a log:
// with any password masked.
func RedactDB(db string) string {
	if !IsPostgresURL(db) {
		return db
	}
	u, err := url.Parse(db)
	if err != nil {
		return "(an unparsable PostgreSQL URL)"
	}
	q, secret := u.Query(), false
	for k := range q {
		if l := strings.ToLower(k); l == "password" || l == "sslpassword" {
			q.Set(k, "xxxxx")
			secret = true
		}
	}
	if _, ok := u.User.Password(); !ok && !secret {
		return db
	}
	u.RawQuery = q.Encode()
	return u.Redacted()
}

// migrate applies the migrations the database lacks, in one transaction
// that holds the migration lock.
func (s *PostgresStore) migrate(ctx context.Context) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", pgMigrateLock); err != nil {
			return fmt.Errorf("migrate: lock: %w", err)
		}
		if _, err := tx.Exec(ctx, "CREATE TABLE IF NOT EXISTS agentnet_registry_schema (version integer NOT NULL)"); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		var v int
		err := tx.QueryRow(ctx, "SELECT version FROM agentnet_registry_schema").Scan(&v)
		if errors.Is(err, pgx.ErrNoRows) {
			_, err = tx.Exec(ctx, "INSERT INTO agentnet_registry_schema (version) VALUES (0)")
		}
		if err != nil {
			return fmt.Errorf("migrate: read schema version: %w", err)
		}
		if v > len(pgMigrations) {
			return fmt.Errorf("schema version %d is newer than this agentnet knows (%d): upgrade agentnet", v, len(pgMigrations))
		}
		for i := v; i < len(pgMigrations); i++ {
			if _, err := tx.Exec(ctx, pgMigrations[i]); err != nil {
				return fmt.Errorf("migrate to schema version %d: %w", i+1, err)
			}
		}
		if v == len(pgMigrations) {
			return nil
		}
		_, err = tx.Exec(ctx, "UPDATE agentnet_registry_schema SET version = $1", len(pgMigrations))
		if err != nil {
			return fmt.Errorf("migrate: set schema version: %w", err)
		}
		return nil
	})
}

// SchemaVersion returns the database's schema version.
func (s *PostgresStore) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := s.pool.QueryRow(ctx, "SELECT version FROM agentnet_registry_schema").Scan(&v)
	return v, err
}

// Close resigns the probe lead, if held, and closes the store's
// connections, waiting for those in use.
func (s *PostgresStore) Close() error {
	s.lead.close()
	s.pool.Close()
	return nil
}

// pgTime is t as the store keeps it: whole milliseconds, as SQLite does, so
// that records read the same from either store.
func pgTime(t time.Time) time.Time { return time.UnixMilli(t.UnixMilli()).UTC() }

// pgText makes s storable as PostgreSQL text, which holds no NUL and only
// valid UTF-8: each NUL and each invalid byte sequence becomes U+FFFD,
// which splits words where SQLite's tokenizer splits them.
func pgText(s string) string {
	return strings.ToValidUTF8(strings.ReplaceAll(s, "\x00", "\uFFFD"), "\uFFFD")
}

// foldText lowercases s and drops its diacritics, as SQLite's tokenizer
// (unicode61, remove_diacritics 2) does, whatever the database's locale and
// extensions.
func foldText(s string) string {
	out, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC), s)
	if err != nil {
		out = s
	}
	return strings.ToLower(out)
}

// pgSearchTexts returns the four texts of a card's index entry, by weight
// class A to D: each folded and split into words as SQLite splits them
// (PostgreSQL's parser would keep "reverse-text", "a.b" or URLs whole).
// Together they keep within pgIndexMax bytes: the smaller texts (name,
// tags, description) whole, the larger ones sharing what is left.
func pgSearchTexts(e Entry) [4]string {
	parts := []struct {
		class int
		words []string
		size  int
	}{
		{class: 0, words: searchWords(foldText(pgText(e.Name)))},
		{class: 1, words: searchWords(foldText(pgText(e.SkillText)))},
		{class: 1, words: searchWords(foldText(pgText(strings.Join(e.Tags, " "))))},
		{class: 2, words: searchWords(foldText(pgText(e.Description)))},
		{class: 3, words: searchWords(foldText(pgText(e.Examples)))},
	}
	order := make([]int, len(parts))
	for i := range parts {
		order[i] = i
		for _, w := range parts[i].words {
			parts[i].size += len(w) + 1
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return parts[a].size - parts[b].size })
	var sb [4]strings.Builder
	left := pgIndexMax
	for k, i := range order {
		share, used := left/(len(order)-k), 0
		for _, w := range parts[i].words {
			if used+len(w)+1 > share {
				break
			}
			used += len(w) + 1
			sb[parts[i].class].WriteString(w)
			sb[parts[i].class].WriteByte(' ')
		}
		left -= used
	}
	var out [4]string
	for i := range sb {
		out[i] = sb[i].String()
	}
	return out
}

// pgMatchAny is the to_tsquery text matching any of words. Words are
// letters and digits only (searchWords), so none is tsquery syntax; each is
// quoted besides, and the text is a bound parameter.
func pgMatchAny(words []string) string {
	var out []string
	seen := map[string]bool{}
	for _, w := range words {
		if w = foldText(pgText(w)); w != "" && !seen[w] {
			seen[w] = true
			out = append(out, "'"+strings.ReplaceAll(w, "'", "''")+"'")
		}
	}
	return strings.Join(out, " | ")
}

// Put implements Store.
func (s *PostgresStore) Put(ctx context.Context, e Entry) (Record, bool, error) {
	var (
		rec     Record
		created bool
	)
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		rec, created, err = pgPutTx(ctx, tx, e)
		return err
	})
	if err != nil {
		return Record{}, false, fmt.Errorf("put agent %s: %w", e.ID, err)
	}
	return rec, created, nil
}

// pgPutTx writes e in tx and returns the record as written.
func pgPutTx(ctx context.Context, tx pgx.Tx, e Entry) (Record, bool, error) {
	at := pgTime(e.At)
	tags := make([]string, 0, len(e.Tags))
	for _, t := range e.Tags {
		tags = append(tags, pgText(t))
	}
	st := pgSearchTexts(e)
	hash := pgText(e.CardHash)
	args := []any{e.ID, pgText(e.URL), pgText(e.Name), pgText(e.Description), tags, hash, at, string(StatusUp),
		st[0], st[1], st[2], st[3]}
	var (
		seq     int64
		oldHash string
		created bool
	)
	// Lock the agent's row, or insert it. Another registry instance may
	// insert the same agent between the two (then the insert does nothing
	// and the next round locks its row) or delete it (then the next round
	// inserts it anew). The insert yields on a conflict of either unique
	// key: id and url name the same agent (the id is the url's hash), and
	// a concurrent insert may collide on url first.
	for round := 0; ; round++ {
		err := tx.QueryRow(ctx, "SELECT seq, card_hash FROM agents WHERE id = $1 FOR UPDATE", e.ID).Scan(&seq, &oldHash)
		if err == nil {
			// A registration is a successful fetch: the agent is up,
			// whatever the prober said before.
			_, err = tx.Exec(ctx, `UPDATE agents SET url = $2, name = $3, description = $4, tags = $5,
				card_hash = $6, last_seen = $7, last_changed = CASE WHEN card_hash = $6 THEN last_changed ELSE $7 END,
				last_registered = $7, registrations = registrations + 1, status = $8, checked_at = $7, failures = 0,
				last_error = '', search = `+pgSearchVector+` WHERE id = $1`, args...)
			if err != nil {
				return Record{}, false, err
			}
			break
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return Record{}, false, err
		}
		err = tx.QueryRow(ctx, `INSERT INTO agents (id, url, name, description, tags, card_hash,
			first_seen, last_seen, last_changed, last_registered, registrations, status, checked_at, search)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $7, $7, 1, $8, $7, `+pgSearchVector+`)
			ON CONFLICT DO NOTHING RETURNING seq`, args...).Scan(&seq)
		if err == nil {
			created = true
			break
		}
		if !errors.Is(err, pgx.ErrNoRows) || round == 3 {
			return Record{}, false, err
		}
	}
	changed := created || oldHash != hash
	b := &pgx.Batch{}
	b.Queue(`INSERT INTO agent_cards (agent_seq, card) VALUES ($1, $2)
		ON CONFLICT (agent_seq) DO UPDATE SET card = excluded.card`, seq, pgText(string(e.Card)))
	b.Queue(`INSERT INTO agent_history (agent_seq, n, at, card_hash, changed)
		VALUES ($1, (SELECT COALESCE(MAX(n), 0) + 1 FROM agent_history WHERE agent_seq = $1), $2, $3, $4)`,
		seq, at, hash, changed)
	b.Queue(`DELETE FROM agent_history WHERE agent_seq = $1
		AND n <= (SELECT MAX(n) FROM agent_history WHERE agent_seq = $1) - $2`, seq, historyKeep)
	var rec Record
	b.Queue(pgSelectRecord+" WHERE a.seq = $1", seq).QueryRow(func(row pgx.Row) error {
		var err error
		rec, err = scanPgRecord(row)
		return err
	})
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return Record{}, false, err
	}
	return rec, created, nil
}

// pgRecordCols are the columns scanPgRecord reads, in its order.
const pgRecordCols = `a.seq, a.id, a.url, a.name, a.description, a.tags, c.card, a.card_hash,
	a.first_seen, a.last_seen, a.last_changed, a.last_registered, a.registrations,
	a.status, a.checked_at, a.failures, a.last_error`

const pgSelectRecord = "SELECT " + pgRecordCols + " FROM agents a JOIN agent_cards c ON c.agent_seq = a.seq"

// scanPgRecord reads pgRecordCols and then extra, and the agent's row
// number into seq when it is not nil.
func scanPgRecord(row pgx.Row, extra ...any) (Record, error) {
	var (
		r            Record
		seq          int64
		card, status string
	)
	dest := append([]any{&seq, &r.ID, &r.URL, &r.Name, &r.Description, &r.Tags, &card, &r.CardHash,
		&r.FirstSeen, &r.LastSeen, &r.LastChanged, &r.LastRegistered, &r.Registrations,
		&status, &r.Health.CheckedAt, &r.Health.Failures, &r.Health.Error}, extra...)
	if err := row.Scan(dest...); err != nil {
		return Record{}, err
	}
	r.Tags = nonNil(r.Tags)
	r.Card = []byte(card)
	r.Health.Status = Status(status)
	for _, t := range []*time.Time{&r.FirstSeen, &r.LastSeen, &r.LastChanged, &r.LastRegistered, &r.Health.CheckedAt} {
		*t = t.UTC()
	}
	return r, nil
}

// Get implements Store. One statement reads the record and its history, so
// both come from the same snapshot.
func (s *PostgresStore) Get(ctx context.Context, id string) (Record, error) {
	var (
		ats     []time.Time
		hashes  []string
		changed []bool
	)
	rec, err := scanPgRecord(s.pool.QueryRow(ctx, "SELECT "+pgRecordCols+`,
		ARRAY(SELECT at FROM agent_history WHERE agent_seq = a.seq ORDER BY n DESC),
		ARRAY(SELECT card_hash FROM agent_history WHERE agent_seq = a.seq ORDER BY n DESC),
		ARRAY(SELECT changed FROM agent_history WHERE agent_seq = a.seq ORDER BY n DESC)
		FROM agents a JOIN agent_cards c ON c.agent_seq = a.seq WHERE a.id = $1`, pgText(id)),
		&ats, &hashes, &changed)
	if errors.Is(err, pgx.ErrNoRows) {
		return Record{}, fmt.Errorf("get agent %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return Record{}, fmt.Errorf("get agent %q: %w", id, err)
	}
	if len(hashes) != len(ats) || len(changed) != len(ats) {
		return Record{}, fmt.Errorf("get agent %q: history columns disagree", id)
	}
	for i := range ats {
		rec.History = append(rec.History, Revision{At: ats[i].UTC(), CardHash: hashes[i], Changed: changed[i]})
	}
	return rec, nil
}

// Delete implements Store.
func (s *PostgresStore) Delete(ctx context.Context, id string) error {
	tag, err := s.pool.Exec(ctx, "DELETE FROM agents WHERE id = $1", pgText(id))
	if err != nil {
		return fmt.Errorf("delete agent %q: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("delete agent %q: %w", id, ErrNotFound)
	}
	return nil
}

// pgCounter counts cards for the search planner.
type pgCounter struct{ s *PostgresStore }

func (c pgCounter) countCards(ctx context.Context) (n int, err error) {
	err = c.s.pool.QueryRow(ctx, "SELECT COUNT(*) FROM agents").Scan(&n)
	return n, err
}

func (c pgCounter) countMatches(ctx context.Context, word string) (n int, err error) {
	err = c.s.pool.QueryRow(ctx, "SELECT COUNT(*) FROM agents WHERE search @@ "+fmt.Sprintf(pgQuery, "$1"),
		pgx.QueryExecModeExec, pgMatchAny([]string{word})).Scan(&n)
	return n, err
}

// Find implements Store, with SQLite's semantics: the same plans, orders,
// filters and cursors. One statement picks one page of row numbers, then
// reads those records, so that ranking and sorting never carry cards around
// and the page comes from one snapshot.
func (s *PostgresStore) Find(ctx context.Context, q Query) (Page, error) {
	limit, ranked, c, err := pageOf(q)
	if err != nil {
		return Page{}, err
	}
	var (
		args []any
		sb   strings.Builder
	)
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	filters := func(col string) {
		if len(excludedStatuses(q.Statuses)) > 0 {
			st := make([]string, len(q.Statuses))
			for i, x := range q.Statuses {
				st[i] = string(x)
			}
			sb.WriteString(" AND " + col + "status = ANY(" + arg(st) + ")")
		}
		if q.Tag != "" {
			sb.WriteString(" AND " + col + "tags @> ARRAY[" + arg(pgText(strings.ToLower(strings.TrimSpace(q.Tag)))) + "::text]")
		}
	}
	var unranked bool
	var order string
	switch {
	case ranked:
		words, onlyStop := queryWords(q.Text)
		if len(words) == 0 {
			return Page{}, invalid("query", "search text has no letters or digits")
		}
		p, err := s.dfs.plan(ctx, pgCounter{s}, s.exactMax, s.budget, words, onlyStop)
		if err != nil {
			return Page{}, fmt.Errorf("find agents: plan %q: %w", q.Text, err)
		}
		// A page continues in the order of the page before it, should the
		// plan have changed in between (the registry grew, say).
		unranked = p.unranked
		if q.Cursor != "" {
			unranked = c.Unranked
		}
		tsq := fmt.Sprintf(pgQuery, arg(pgMatchAny(p.words)))
		match := "search @@ " + tsq
		if unranked {
			sb.WriteString("SELECT a.seq, 0::float8 AS score FROM agents a WHERE a." + match)
			filters("a.")
			if q.Cursor != "" {
				sb.WriteString(" AND a.seq < " + arg(c.Seq))
			}
			sb.WriteString(" ORDER BY a.seq DESC")
			order = "page.seq DESC"
			break
		}
		// Ranking reads only the matches (the most recent candidates of
		// them, in a large registry) that pass the filters; OFFSET 0 keeps
		// PostgreSQL from computing each rank again for the cursor.
		from := "agents a WHERE a." + match
		if p.candidates > 0 {
			from = "(SELECT seq, status, tags, search FROM agents WHERE " + match +
				" ORDER BY seq DESC LIMIT " + arg(p.candidates) + ") a WHERE true"
		}
		sb.WriteString("SELECT seq, score FROM (SELECT a.seq, ts_rank(" + pgRankWeights + ", a.search, " + tsq +
			", 1)::float8 AS score FROM " + from)
		filters("a.")
		sb.WriteString(" OFFSET 0) r WHERE true")
		if q.Cursor != "" {
			cs, cq := arg(c.Score), arg(c.Seq)
			sb.WriteString(" AND (score < " + cs + " OR (score = " + cs + " AND seq > " + cq + "))")
		}
		sb.WriteString(" ORDER BY score DESC, seq")
		order = "page.score DESC, page.seq"
	default:
		sb.WriteString("SELECT a.seq, 0::float8 AS score FROM agents a WHERE true")
		filters("a.")
		if q.Cursor != "" {
			cn, cq := arg(c.Name), arg(c.Seq)
			sb.WriteString(" AND (a.name > " + cn + " OR (a.name = " + cn + " AND a.seq > " + cq + "))")
		}
		sb.WriteString(" ORDER BY a.name, a.seq")
		order = "a.name, a.seq"
	}
	sb.WriteString(" LIMIT " + arg(limit+1))
	stmt := "WITH page AS (" + sb.String() + ") SELECT " + pgRecordCols + ", page.score FROM page" +
		" JOIN agents a ON a.seq = page.seq JOIN agent_cards c ON c.agent_seq = a.seq ORDER BY " + order
	rows, err := s.pool.Query(ctx, stmt, append([]any{pgx.QueryExecModeExec}, args...)...)
	if err != nil {
		return Page{}, fmt.Errorf("find agents: %w", err)
	}
	defer rows.Close()
	page := Page{Hits: []Hit{}}
	var last cursor
	for rows.Next() {
		var score float64
		var seq int64
		rec, err := scanPgRecord(seqRow{rows, &seq}, &score)
		if err != nil {
			return Page{}, fmt.Errorf("find agents: %w", err)
		}
		if len(page.Hits) == limit {
			page.NextCursor = last.encode()
			break
		}
		page.Hits = append(page.Hits, Hit{Score: score, Record: rec})
		last = cursor{Ranked: ranked, Unranked: unranked, Score: score, Name: rec.Name, Seq: seq}
	}
	if err := rows.Err(); err != nil {
		return Page{}, fmt.Errorf("find agents: %w", err)
	}
	return page, nil
}

// seqRow captures the row number scanPgRecord reads first.
type seqRow struct {
	row pgx.Row
	seq *int64
}

func (r seqRow) Scan(dest ...any) error {
	dest[0] = r.seq
	return r.row.Scan(dest...)
}

// Targets implements Store.
func (s *PostgresStore) Targets(ctx context.Context) ([]Target, error) {
	rows, err := s.pool.Query(ctx, "SELECT id, url, card_hash FROM agents ORDER BY seq")
	if err != nil {
		return nil, fmt.Errorf("list probe targets: %w", err)
	}
	ts, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Target, error) {
		var t Target
		err := row.Scan(&t.ID, &t.URL, &t.CardHash)
		return t, err
	})
	if err != nil {
		return nil, fmt.Errorf("list probe targets: %w", err)
	}
	return ts, nil
}

// SetHealth implements Store.
func (s *PostgresStore) SetHealth(ctx context.Context, t Target, p Probe) error {
	at := pgTime(p.At)
	ok := p.Status != StatusDown
	_, err := s.pool.Exec(ctx, `UPDATE agents SET status = $1, checked_at = $2,
		last_seen = CASE WHEN $3 THEN $2 ELSE last_seen END,
		failures = CASE WHEN $3 THEN 0 ELSE failures + 1 END,
		last_error = $4 WHERE id = $5 AND card_hash = $6`,
		string(p.Status), at, ok, pgText(p.Error), pgText(t.ID), pgText(t.CardHash))
	if err != nil {
		return fmt.Errorf("set health of agent %q: %w", t.ID, err)
	}
	return nil
}

// Count implements Store.
func (s *PostgresStore) Count(ctx context.Context) (map[Status]int, error) {
	rows, err := s.pool.Query(ctx, "SELECT status, COUNT(*) FROM agents GROUP BY status")
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
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("count agents: %w", err)
	}
	return n, nil
}
