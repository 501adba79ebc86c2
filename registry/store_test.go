package registry

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// storeCases are the stores the conformance tests run against. open returns
// a new, empty store, closed when t ends; need, when set, skips (or fails) t
// when the store cannot run here.
var storeCases = []struct {
	name string
	need func(t *testing.T)
	open func(t *testing.T) Store
}{
	{"sqlite-memory", nil, func(t *testing.T) Store {
		s, err := OpenSQLite(t.Context(), ":memory:")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}},
	{"sqlite-file", nil, func(t *testing.T) Store {
		s, err := OpenSQLite(t.Context(), filepath.Join(t.TempDir(), "reg.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}},
	{"postgres", func(t *testing.T) { needPostgres(t) }, func(t *testing.T) Store { return openPostgres(t) }},
}

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func entry(name, desc, skills string, at time.Time, tags ...string) Entry {
	base := "http://127.0.0.1:1/" + name
	card := fmt.Sprintf(`{"name":%q,"description":%q}`, name, desc)
	return Entry{
		ID: AgentID(base), URL: base, Card: []byte(card), CardHash: fmt.Sprintf("%x", len(card)) + name + desc,
		Name: name, Description: desc, Tags: tags, SkillText: skills, At: at,
	}
}

// TestStore runs the Store conformance tests against every store.
func TestStore(t *testing.T) {
	t.Parallel()
	for _, sc := range storeCases {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			if sc.need != nil {
				sc.need(t)
			}
			storeConformance(t, sc.open)
		})
	}
}

// storeConformance runs every Store test, each on a new store from open:
// what any Store implementation must do.
func storeConformance(t *testing.T, open func(t *testing.T) Store) {
	for _, tc := range []struct {
		name string
		run  func(*testing.T, Store)
	}{
		{"PutGetHistory", testPutGet},
		{"Delete", testDelete},
		{"FindByName", testFindByName},
		{"FindRanked", testFindRanked},
		{"Health", testHealth},
		{"ConcurrentWrites", testConcurrentWrites},
		{"RankBudget", testRankBudget},
		{"StopWords", testStopWords},
		{"OddText", testOddText},
		{"HugeCard", testHugeCard},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t, open(t))
		})
	}
}

// rankLimited is a store whose thresholds for ranking (exactRankMax and
// rankBudget) tests shrink, and whose search plans they check.
type rankLimited interface {
	setRankLimits(exactMax, budget int)
	planWords(ctx context.Context, words []string, onlyStop bool) (wordPlan, error)
}

func (s *SQLiteStore) setRankLimits(exactMax, budget int) {
	s.dfs.mu.Lock()
	defer s.dfs.mu.Unlock()
	s.exactMax, s.budget, s.dfs.at = exactMax, budget, time.Time{}
}

func (s *SQLiteStore) planWords(ctx context.Context, words []string, onlyStop bool) (wordPlan, error) {
	return s.dfs.plan(ctx, sqliteCounter{s}, s.exactMax, s.budget, words, onlyStop)
}

func (s *PostgresStore) setRankLimits(exactMax, budget int) {
	s.dfs.mu.Lock()
	defer s.dfs.mu.Unlock()
	s.exactMax, s.budget, s.dfs.at = exactMax, budget, time.Time{}
}

func (s *PostgresStore) planWords(ctx context.Context, words []string, onlyStop bool) (wordPlan, error) {
	return s.dfs.plan(ctx, pgCounter{s}, s.exactMax, s.budget, words, onlyStop)
}

func testPutGet(t *testing.T, s Store) {
	ctx := t.Context()
	e := entry("reverser", "Reverses text.", "reverse text", t0, "palindrome", "text")
	rec, created, err := s.Put(ctx, e)
	if err != nil || !created {
		t.Fatalf("Put(new) = created %v, %v; want created", created, err)
	}
	want := Record{
		ID: e.ID, URL: e.URL, Name: "reverser", Description: "Reverses text.", Tags: []string{"palindrome", "text"},
		Card: e.Card, CardHash: e.CardHash, FirstSeen: t0, LastSeen: t0, LastChanged: t0, LastRegistered: t0,
		Registrations: 1, Health: Health{Status: StatusUp, CheckedAt: t0},
	}
	if d := cmp.Diff(want, rec); d != "" {
		t.Errorf("Put(new) record mismatch (-want +got):\n%s", d)
	}
	// The same card again: registered twice, not changed.
	t1 := t0.Add(time.Minute)
	e.At = t1
	if _, created, err = s.Put(ctx, e); err != nil || created {
		t.Fatalf("Put(same) = created %v, %v; want an update", created, err)
	}
	// A new card: changed.
	t2 := t0.Add(2 * time.Minute)
	e2 := entry("reverser", "Reverses text, now faster.", "reverse text", t2, "text")
	rec, _, err = s.Put(ctx, e2)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	want = rec
	want.History = []Revision{
		{At: t2, CardHash: e2.CardHash, Changed: true},
		{At: t1, CardHash: e.CardHash, Changed: false},
		{At: t0, CardHash: e.CardHash, Changed: true},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Get() mismatch (-want +got):\n%s", d)
	}
	if got.FirstSeen != t0 || got.LastChanged != t2 || got.LastRegistered != t2 || got.Registrations != 3 {
		t.Errorf("Get() first/changed/registered/n = %v/%v/%v/%d, want %v/%v/%v/3",
			got.FirstSeen, got.LastChanged, got.LastRegistered, got.Registrations, t0, t2, t2)
	}
	if !slices.Equal(got.Tags, []string{"text"}) {
		t.Errorf("Get().Tags = %v, want [text]", got.Tags)
	}
	// The replaced card's words are gone from the index, the new ones are in.
	for text, n := range map[string]int{"palindrome": 0, "faster": 1} {
		p, err := s.Find(ctx, Query{Text: text})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Hits) != n {
			t.Errorf("Find(%q) = %d hits, want %d", text, len(p.Hits), n)
		}
	}
	if _, err := s.Get(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get(unknown) = %v, want ErrNotFound", err)
	}
}

func testDelete(t *testing.T, s Store) {
	ctx := t.Context()
	e := entry("reverser", "Reverses text.", "", t0, "text")
	if _, _, err := s.Put(ctx, e); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, e.ID); err != nil {
		t.Fatalf("Delete() = %v", err)
	}
	if err := s.Delete(ctx, e.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("Delete(again) = %v, want ErrNotFound", err)
	}
	if _, err := s.Get(ctx, e.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get(deleted) = %v, want ErrNotFound", err)
	}
	for _, q := range []Query{{Text: "reverses"}, {Tag: "text"}, {}} {
		p, err := s.Find(ctx, q)
		if err != nil || len(p.Hits) != 0 {
			t.Errorf("Find(%+v) after delete = %d hits, %v; want none", q, len(p.Hits), err)
		}
	}
	// Re-registering a deleted agent starts a new history.
	rec, created, err := s.Put(ctx, e)
	if err != nil || !created || rec.Registrations != 1 {
		t.Errorf("Put(after delete) = created %v, registrations %d, %v; want a new record", created, rec.Registrations, err)
	}
}

func testFindByName(t *testing.T, s Store) {
	ctx := t.Context()
	var want []string
	for i := range 25 {
		name := fmt.Sprintf("agent-%02d", (i*7)%25)
		tags := []string{"all"}
		if i%2 == 0 {
			tags = append(tags, "even")
		}
		if _, _, err := s.Put(ctx, entry(name, "d", "", t0, tags...)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 25 {
		want = append(want, fmt.Sprintf("agent-%02d", i))
	}
	tests := []struct {
		q    Query
		want int
	}{
		{Query{Limit: 10}, 25},
		{Query{Limit: 7, Tag: "all"}, 25},
		{Query{Limit: 4, Tag: "EVEN"}, 13},
		{Query{Tag: "none"}, 0},
		{Query{Statuses: []Status{StatusDown}}, 0},
		{Query{Statuses: []Status{StatusUp, StatusDown}, Limit: 100}, 25},
	}
	for _, tt := range tests {
		names := pageAll(t, s, tt.q)
		if len(names) != tt.want {
			t.Errorf("Find(%+v) pages = %d names, want %d", tt.q, len(names), tt.want)
		}
		if !slices.IsSorted(names) {
			t.Errorf("Find(%+v) names not sorted: %v", tt.q, names)
		}
		if tt.want == 25 && !slices.Equal(names, want) {
			t.Errorf("Find(%+v) = %v, want %v", tt.q, names, want)
		}
	}
}

// pageAll follows cursors and returns every name, failing on a repeat.
func pageAll(t *testing.T, s Store, q Query) []string {
	t.Helper()
	var names []string
	seen := map[string]bool{}
	for page := 0; ; page++ {
		p, err := s.Find(t.Context(), q)
		if err != nil {
			t.Fatalf("Find(%+v) = %v", q, err)
		}
		if q.Limit > 0 && len(p.Hits) > q.Limit {
			t.Fatalf("Find(%+v) = %d hits, more than the limit", q, len(p.Hits))
		}
		for _, h := range p.Hits {
			if seen[h.ID] {
				t.Fatalf("Find(%+v) page %d repeats %s", q, page, h.Name)
			}
			seen[h.ID] = true
			names = append(names, h.Name)
		}
		if p.NextCursor == "" {
			return names
		}
		q.Cursor = p.NextCursor
		if page > 100 {
			t.Fatal("too many pages")
		}
	}
}

func testFindRanked(t *testing.T, s Store) {
	ctx := t.Context()
	docs := []Entry{
		entry("reverser", "Reverses text for palindrome puzzles.", "reverse-text Reverse text Reverse the characters", t0, "palindrome", "text"),
		entry("wordcount", "Counts words in a text.", "count-words Count words", t0, "text", "statistics"),
		entry("chemcalc", "Molar mass of chemical formulas.", "molar-mass Molar mass", t0, "chemistry"),
		entry("palindromic", "Palindrome palindrome palindrome detector.", "detect", t0, "palindrome"),
	}
	for _, e := range docs {
		if _, _, err := s.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		q    Query
		want []string // in rank order; nil means "any order of these"
		set  []string
	}{
		{q: Query{Text: "molar mass"}, want: []string{"chemcalc"}},
		{q: Query{Text: "palindromes"}, set: []string{"palindromic", "reverser"}},
		{q: Query{Text: "text", Tag: "statistics"}, want: []string{"wordcount"}},
		{q: Query{Text: "text", Statuses: []Status{StatusDown}}, want: []string{}},
		{q: Query{Text: "quantum"}, want: []string{}},
		// SQL and FTS5 syntax are words, never syntax.
		{q: Query{Text: `'; DROP TABLE agents; --`}, want: []string{}},
		{q: Query{Text: `" OR 1=1 --`}, want: []string{}},
		{q: Query{Text: `name:chemcalc NEAR(molar mass) *`}, want: []string{"chemcalc"}},
	}
	for _, tt := range tests {
		p, err := s.Find(ctx, tt.q)
		if err != nil {
			t.Errorf("Find(%+v) = %v", tt.q, err)
			continue
		}
		var got []string
		for i, h := range p.Hits {
			got = append(got, h.Name)
			if h.Score <= 0 {
				t.Errorf("Find(%+v) hit %s score = %v, want > 0", tt.q, h.Name, h.Score)
			}
			if i > 0 && h.Score > p.Hits[i-1].Score {
				t.Errorf("Find(%+v) scores not descending: %v then %v", tt.q, p.Hits[i-1].Score, h.Score)
			}
		}
		if tt.set != nil {
			slices.Sort(got)
			if !slices.Equal(got, tt.set) {
				t.Errorf("Find(%+v) = %v, want %v", tt.q, got, tt.set)
			}
			continue
		}
		if !slices.Equal(got, tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
			t.Errorf("Find(%+v) = %v, want %v", tt.q, got, tt.want)
		}
	}
	// The store is intact after the hostile queries.
	if got := pageAll(t, s, Query{}); len(got) != len(docs) {
		t.Errorf("after hostile queries: %d agents, want %d", len(got), len(docs))
	}
	// Ranked paging visits every match once, in rank order.
	for i := range 30 {
		e := entry(fmt.Sprintf("filler-%02d", i), strings.Repeat("text ", 1+i%5)+"filler", "", t0, "text")
		if _, _, err := s.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	full, err := s.Find(ctx, Query{Text: "text", Limit: MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	var fullNames []string
	for _, h := range full.Hits {
		fullNames = append(fullNames, h.Name)
	}
	if paged := pageAll(t, s, Query{Text: "text", Limit: 4}); !slices.Equal(paged, fullNames) {
		t.Errorf("paged ranked results = %v,\nwant %v", paged, fullNames)
	}
	if _, err := s.Find(ctx, Query{Cursor: "garbage"}); err == nil {
		t.Error("Find(bad cursor) = nil error")
	}
	if _, err := s.Find(ctx, Query{Text: "text", Cursor: cursor{Seq: 1}.encode()}); err == nil {
		t.Error("Find(list cursor on a search) = nil error")
	}
}

func testHealth(t *testing.T, s Store) {
	ctx := t.Context()
	e := entry("reverser", "Reverses text.", "", t0, "text")
	if _, _, err := s.Put(ctx, e); err != nil {
		t.Fatal(err)
	}
	ts, err := s.Targets(ctx)
	if err != nil || len(ts) != 1 {
		t.Fatalf("Targets() = %v, %v; want one", ts, err)
	}
	tg := ts[0]
	if tg != (Target{ID: e.ID, URL: e.URL, CardHash: e.CardHash}) {
		t.Errorf("Targets()[0] = %+v", tg)
	}
	steps := []struct {
		p         Probe
		wantHits  int // search hits for "reverses" with the default statuses
		wantFails int
		wantSeen  time.Time
	}{
		{Probe{At: t0.Add(1 * time.Minute), Status: StatusDown, Error: "refused"}, 0, 1, t0},
		{Probe{At: t0.Add(2 * time.Minute), Status: StatusDown, Error: "refused"}, 0, 2, t0},
		{Probe{At: t0.Add(3 * time.Minute), Status: StatusChanged}, 1, 0, t0.Add(3 * time.Minute)},
		{Probe{At: t0.Add(4 * time.Minute), Status: StatusUp}, 1, 0, t0.Add(4 * time.Minute)},
	}
	for _, st := range steps {
		if err := s.SetHealth(ctx, tg, st.p); err != nil {
			t.Fatal(err)
		}
		rec, err := s.Get(ctx, e.ID)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Health.Status != st.p.Status || rec.Health.Failures != st.wantFails || !rec.LastSeen.Equal(st.wantSeen) ||
			rec.Health.Error != st.p.Error || !rec.Health.CheckedAt.Equal(st.p.At) {
			t.Errorf("after %+v: health %+v, last seen %v; want failures %d, last seen %v", st.p, rec.Health, rec.LastSeen, st.wantFails, st.wantSeen)
		}
		p, err := s.Find(ctx, Query{Text: "reverses", Statuses: []Status{StatusUp, StatusChanged}})
		if err != nil || len(p.Hits) != st.wantHits {
			t.Errorf("after %+v: search = %d hits, %v; want %d", st.p, len(p.Hits), err, st.wantHits)
		}
	}
	counts, err := s.Count(ctx)
	if err != nil || counts[StatusUp] != 1 {
		t.Errorf("Count() = %v, %v; want 1 up", counts, err)
	}
	// A probe of a card replaced since Targets is dropped.
	e.CardHash, e.At = "new", t0.Add(time.Hour)
	if _, _, err := s.Put(ctx, e); err != nil {
		t.Fatal(err)
	}
	if err := s.SetHealth(ctx, tg, Probe{At: t0.Add(2 * time.Hour), Status: StatusDown}); err != nil {
		t.Fatal(err)
	}
	if rec, _ := s.Get(ctx, e.ID); rec.Health.Status != StatusUp {
		t.Errorf("stale probe overwrote a fresh registration: status %s", rec.Health.Status)
	}
}

func TestSQLiteMigrations(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "reg.db")
	s, err := OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := s.SchemaVersion(ctx); err != nil || v != len(migrations) {
		t.Errorf("SchemaVersion() = %d, %v; want %d", v, err, len(migrations))
	}
	e := entry("reverser", "Reverses text.", "", t0, "text")
	if _, _, err := s.Put(ctx, e); err != nil {
		t.Fatal(err)
	}
	var mode string
	if err := s.w.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	s.Close()

	// Reopening migrates nothing and keeps the data.
	s, err = OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, e.ID); err != nil {
		t.Errorf("Get() after reopen = %v", err)
	}
	s.Close()

	// A database from a newer agentnet is refused, untouched.
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", len(migrations)+1)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := OpenSQLite(ctx, path); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("OpenSQLite(newer schema) = %v, want a 'newer' error", err)
	}
}

// testConcurrentWrites registers 20 agents twice each, 40 writers at once,
// each searching after its write.
func testConcurrentWrites(t *testing.T, s Store) {
	ctx := context.WithoutCancel(t.Context())
	errc := make(chan error, 40)
	for i := range 40 {
		go func() {
			_, _, err := s.Put(ctx, entry(fmt.Sprintf("agent-%02d", i%20), "d", "", t0, "t"))
			if err == nil {
				_, err = s.Find(ctx, Query{Text: "d"})
			}
			errc <- err
		}()
	}
	for range 40 {
		if err := <-errc; err != nil {
			t.Error(err)
		}
	}
	if n := len(pageAll(t, s, Query{Limit: 100})); n != 20 {
		t.Errorf("%d agents after concurrent writes, want 20", n)
	}
	for _, h := range pageAll(t, s, Query{Limit: 100}) {
		rec, err := s.Get(ctx, AgentID("http://127.0.0.1:1/"+h))
		if err != nil || rec.Registrations != 2 || len(rec.History) != 2 {
			t.Errorf("Get(%s) after two concurrent registrations = %d registrations, history %d, %v; want 2, 2",
				h, rec.Registrations, len(rec.History), err)
		}
	}
}

// testRankBudget checks the search plan of a large registry (shrunk
// thresholds) and what each plan finds.
func testRankBudget(t *testing.T, st Store) {
	ctx := t.Context()
	s := st.(rankLimited)
	s.setRankLimits(10, 15)
	// "rare" is in 3 cards, "mid" and "of" in 10, "common" and "the" in
	// all 30.
	for i := range 30 {
		words := "the common"
		if i < 10 {
			words += " mid of"
		}
		if i%10 == 0 {
			words += " rare"
		}
		if _, _, err := st.Put(ctx, entry(fmt.Sprintf("c%02d", i), words, "", t0)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		text string
		want wordPlan
		hits int
	}{
		{"rare mid common", wordPlan{words: []string{"rare", "mid"}}, 12}, // 3 + 10 within the budget; common left out
		{"mid common", wordPlan{words: []string{"mid"}}, 10},
		{"common", wordPlan{words: []string{"common"}, candidates: 15}, 15}, // the 15 most recent of 30
		{"common of the", wordPlan{words: []string{"common"}, candidates: 15}, 15},
		{"absent common", wordPlan{words: []string{"absent"}}, 0},
		// Only stop words: ranked while they fit the budget, listed
		// newest first, every match, when even the rarest does not.
		{"of", wordPlan{words: []string{"of"}}, 10},
		{"the of", wordPlan{words: []string{"of"}}, 10},
		{"the", wordPlan{words: []string{"the"}, candidates: 15, unranked: true}, 30},
	}
	for _, tt := range tests {
		words, onlyStop := queryWords(tt.text)
		got, err := s.planWords(ctx, words, onlyStop)
		if d := cmp.Diff(tt.want, got, cmp.AllowUnexported(wordPlan{})); err != nil || d != "" {
			t.Errorf("plan(%q) = %v, mismatch (-want +got):\n%s", tt.text, err, d)
		}
		names := pageAll(t, st, Query{Text: tt.text, Limit: 7})
		if len(names) != tt.hits {
			t.Errorf("Find(%q) = %d hits, want %d", tt.text, len(names), tt.hits)
		}
		if tt.want.candidates > 0 && !tt.want.unranked {
			for _, n := range names {
				if n < "c15" {
					t.Errorf("Find(%q) ranked %s, which is not among the 15 most recent", tt.text, n)
				}
			}
		}
	}
	// A registry within exactMax ranks every match of every word.
	s.setRankLimits(100, 15)
	for _, text := range []string{"rare mid common", "the"} {
		words, onlyStop := queryWords(text)
		if p, _ := s.planWords(ctx, words, onlyStop); !slices.Equal(p.words, words) || p.candidates != 0 || p.unranked {
			t.Errorf("plan(%q) in a small registry = %+v; want every word, all matches", text, p)
		}
	}
}

func TestQueryWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text     string
		words    []string
		onlyStop bool
	}{
		{"the weather in Paris", []string{"paris", "weather"}, false},
		{"convert PDF to text", []string{"convert", "pdf", "text"}, false},
		{"molar mass", []string{"mass", "molar"}, false},
		{"words of a text, and text of words", []string{"text", "words"}, false},
		{"To be or not to be", []string{"be", "not", "or", "to"}, true},
		{"The", []string{"the"}, true},
	}
	for _, tt := range tests {
		words, onlyStop := queryWords(tt.text)
		if !slices.Equal(words, tt.words) || onlyStop != tt.onlyStop {
			t.Errorf("queryWords(%q) = %q, %v; want %q, %v", tt.text, words, onlyStop, tt.words, tt.onlyStop)
		}
	}
}

// testStopWords checks searches with stop words in a small registry,
// ranked exactly, and in a large one (shrunk thresholds), where a query of
// only stop words too common to rank lists its matches newest first.
func testStopWords(t *testing.T, s Store) {
	ctx := t.Context()
	docs := []Entry{
		entry("chemcalc", "The molar mass of a chemical formula.", "molar-mass Molar mass of the formula", t0, "chemistry"),
		entry("weather", "The weather in a city, and the forecast for it.", "forecast Weather forecast", t0, "weather"),
		entry("pdftext", "Convert a PDF to text.", "pdf-to-text Convert PDF to plain text", t0, "pdf", "text"),
		entry("wordfreq", "The most common words of a text.", "top-words Top words of the text", t0, "text"),
		entry("massspec", "Mass spectra: the peaks of a molecule.", "peaks Find the peaks", t0, "chemistry"),
		entry("formulas", "Formulas in a spreadsheet.", "formula Evaluate a formula", t0, "spreadsheet"),
	}
	for i := range 14 {
		docs = append(docs, entry(fmt.Sprintf("filler-%02d", i), fmt.Sprintf("Filler card %d of the registry.", i), "", t0, "filler"))
	}
	for _, e := range docs {
		if _, _, err := s.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetHealth(ctx, Target{ID: AgentID("http://127.0.0.1:1/filler-13"), CardHash: docs[19].CardHash},
		Probe{At: t0, Status: StatusDown, Error: "refused"}); err != nil {
		t.Fatal(err)
	}
	hits := func(q Query) []Hit {
		t.Helper()
		p, err := s.Find(ctx, q)
		if err != nil {
			t.Fatalf("Find(%+v) = %v", q, err)
		}
		return p.Hits
	}
	type hit struct {
		Name  string
		Score float64
	}
	summary := func(hs []Hit) []hit {
		out := []hit{}
		for _, h := range hs {
			out = append(out, hit{h.Name, h.Score})
		}
		return out
	}
	up := []Status{StatusUp, StatusChanged}
	for _, size := range []string{"small", "large"} {
		if size == "large" {
			s.(rankLimited).setRankLimits(10, 12)
		}
		// Stop words mixed with other words change nothing: the ranking
		// and the scores are those of the other words alone.
		for _, tt := range []struct{ with, without string }{
			{"the molar mass of a formula", "molar mass formula"},
			{"convert a PDF to text", "convert pdf text"},
			{"the weather in it", "weather"},
		} {
			for _, tag := range []string{"", "chemistry"} {
				with := hits(Query{Text: tt.with, Tag: tag, Limit: MaxLimit, Statuses: up})
				without := hits(Query{Text: tt.without, Tag: tag, Limit: MaxLimit, Statuses: up})
				if diff := cmp.Diff(summary(without), summary(with)); diff != "" {
					t.Errorf("%s registry: Find(%q, tag %q) differs from Find(%q) (-without +with):\n%s", size, tt.with, tag, tt.without, diff)
				}
				if tag == "" && len(with) == 0 {
					t.Errorf("%s registry: Find(%q) = no hits", size, tt.with)
				}
			}
		}
		// Only stop words: "the" is in 18 cards, 17 of them up. A small
		// registry ranks them (bm25, ts_rank); a large one lists them newest
		// first, each with score 0, and pages through every match.
		all := hits(Query{Text: "the", Limit: MaxLimit, Statuses: up})
		if len(all) != 17 {
			t.Fatalf("%s registry: Find(\"the\") = %d hits, want 17", size, len(all))
		}
		var names []string
		for i, h := range all {
			names = append(names, h.Name)
			switch {
			case size == "small" && (h.Score <= 0 || i > 0 && h.Score > all[i-1].Score):
				t.Errorf("small registry: Find(\"the\") hit %d %s score %v, want > 0 and descending", i, h.Name, h.Score)
			case size == "large" && (h.Score != 0 || math.Signbit(h.Score)):
				t.Errorf("large registry: Find(\"the\") hit %s score %v, want 0", h.Name, h.Score)
			}
		}
		if newest := []string{"filler-12", "filler-11", "filler-10"}; size == "large" && !slices.Equal(names[:3], newest) {
			t.Errorf("large registry: Find(\"the\") starts %v, want %v", names[:3], newest)
		}
		if paged := pageAll(t, s, Query{Text: "the", Limit: 4, Statuses: up}); !slices.Equal(paged, names) {
			t.Errorf("%s registry: Find(\"the\") paged by 4 = %v,\nwant %v", size, paged, names)
		}
		got := pageAll(t, s, Query{Text: "the", Tag: "chemistry", Limit: 1, Statuses: up})
		if slices.Sort(got); !slices.Equal(got, []string{"chemcalc", "massspec"}) {
			t.Errorf("%s registry: Find(\"the\", tag chemistry) = %v, want chemcalc and massspec", size, got)
		}
		if got := pageAll(t, s, Query{Text: "the", Statuses: []Status{StatusDown}}); !slices.Equal(got, []string{"filler-13"}) {
			t.Errorf("%s registry: Find(\"the\", down) = %v, want filler-13", size, got)
		}
	}
	// A page continues in the order of the page before it, should the plan
	// change in between: here the registry turns "small" again.
	first, err := s.Find(ctx, Query{Text: "the", Limit: 5, Statuses: up})
	if err != nil || first.NextCursor == "" {
		t.Fatalf("Find(\"the\") = %v, %v", first.NextCursor, err)
	}
	s.(rankLimited).setRankLimits(100, 12)
	rest := pageAll(t, s, Query{Text: "the", Limit: 5, Statuses: up, Cursor: first.NextCursor})
	want := []string{"filler-07", "filler-06", "filler-05", "filler-04", "filler-03", "filler-02", "filler-01",
		"filler-00", "massspec", "wordfreq", "weather", "chemcalc"}
	if !slices.Equal(rest, want) {
		t.Errorf("after the plan changed, pages 2.. = %v; want %v", rest, want)
	}
}

// testOddText stores text that PostgreSQL's text type cannot hold as it is
// (NUL, invalid UTF-8) and text with diacritics and punctuation: every
// write succeeds, and searches fold case and diacritics and split words at
// punctuation, as SQLite's tokenizer does.
func testOddText(t *testing.T, s Store) {
	ctx := t.Context()
	e := entry("café\x00bot", "Crème brûlée recipes\x00, by e-mail; see example.com/menu.", "make-dessert Make dessert \xff\xfe", t0, "dessert", "fr\x00")
	if _, _, err := s.Put(ctx, e); err != nil {
		t.Fatalf("Put(NUL, invalid UTF-8) = %v", err)
	}
	down := Probe{At: t0.Add(time.Minute), Status: StatusDown, Error: "HTTP 500: \x00\xfe"}
	if err := s.SetHealth(ctx, Target{ID: e.ID, URL: e.URL, CardHash: e.CardHash}, down); err != nil {
		t.Fatalf("SetHealth(NUL, invalid UTF-8) = %v", err)
	}
	rec, err := s.Get(ctx, e.ID)
	if err != nil || rec.Health.Status != StatusDown || rec.Health.Failures != 1 || rec.Health.Error == "" {
		t.Errorf("Get() = %+v, %v; want down, 1 failure, an error", rec.Health, err)
	}
	for _, text := range []string{"cafe", "CAFÉ", "bot", "creme", "Brulee", "mail", "example", "menu", "desserts"} {
		p, err := s.Find(ctx, Query{Text: text})
		if err != nil || len(p.Hits) != 1 {
			t.Errorf("Find(%q) = %d hits, %v; want the card", text, len(p.Hits), err)
		}
	}
	if p, err := s.Find(ctx, Query{Tag: "Dessert"}); err != nil || len(p.Hits) != 1 {
		t.Errorf("Find(tag Dessert) = %d hits, %v; want the card", len(p.Hits), err)
	}
}

// testHugeCard stores a card of nearly a megabyte of distinct words (a
// registration fetches 1 MiB at most): the card is kept whole, found by its
// name and its first words, and registered again.
func testHugeCard(t *testing.T, s Store) {
	ctx := t.Context()
	var sb strings.Builder
	for i := 0; sb.Len() < 900<<10; i++ {
		fmt.Fprintf(&sb, "w%015x ", i)
	}
	text := sb.String()
	e := entry("huge", "A card with very many words.", text, t0, "big")
	e.Card = fmt.Appendf(nil, `{"name":"huge","skills":%q}`, text)
	if _, _, err := s.Put(ctx, e); err != nil {
		t.Fatalf("Put(900 KiB of words) = %v", err)
	}
	got, err := s.Get(ctx, e.ID)
	if err != nil || !slices.Equal(got.Card, e.Card) {
		t.Fatalf("Get() = %d bytes of card, %v; want the %d stored", len(got.Card), err, len(e.Card))
	}
	for _, text := range []string{"huge", "many words", "w000000000000000", "w000000000000abc"} {
		p, err := s.Find(ctx, Query{Text: text})
		if err != nil || len(p.Hits) != 1 {
			t.Errorf("Find(%q) = %d hits, %v; want the huge card", text, len(p.Hits), err)
		}
	}
	e.At = t0.Add(time.Minute)
	if rec, created, err := s.Put(ctx, e); err != nil || created || rec.Registrations != 2 {
		t.Errorf("Put(again) = created %v, %d registrations, %v; want 2", created, rec.Registrations, err)
	}
}
