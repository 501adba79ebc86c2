package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

func reverserCard() *a2a.AgentCard {
	sk := skill("reverse-text", "Reverse the characters of a text, last to first, to check palindromes.", "text", "palindrome")
	sk.Examples = []string{"Reverse the word stressed"}
	return testCard("reverser", "Reverses text character by character, for palindrome puzzles.", sk)
}

func TestRegisterAndReregister(t *testing.T) {
	t.Parallel()
	testRegisterAndReregister(t, newTestRegistry(t), newFakeAgents(t))
}

// testRegisterAndReregister registers, re-registers and deletes an agent
// through reg's API; TestPostgresService runs it on the PostgreSQL store.
func testRegisterAndReregister(t *testing.T, reg *testRegistry, agents *fakeAgents) {
	ctx := t.Context()
	agents.set(t, "reverser", reverserCard())

	rec, created, err := reg.client.Register(ctx, agents.url("reverser")+"/")
	if err != nil || !created {
		t.Fatalf("Register() = created %v, %v; want created", created, err)
	}
	if rec.URL != agents.url("reverser") || rec.Name != "reverser" || rec.Health.Status != StatusUp ||
		!slices.Equal(rec.Tags, []string{"palindrome", "text"}) || rec.Registrations != 1 {
		t.Errorf("Register() record = %+v", rec)
	}
	// The well-known URL itself names the same agent.
	again, created, err := reg.client.Register(ctx, CardURL(agents.url("reverser")))
	if err != nil || created || again.ID != rec.ID || again.Registrations != 2 || !again.LastChanged.Equal(rec.LastChanged) {
		t.Fatalf("Register(same card) = %+v, created %v, %v; want an update of %s with the same last_changed", again, created, err, rec.ID)
	}
	// A changed card updates the record and keeps its history.
	time.Sleep(5 * time.Millisecond)
	c := reverserCard()
	c.Description = "Reverses text; now also words."
	agents.set(t, "reverser", c)
	changed, _, err := reg.client.Register(ctx, agents.url("reverser"))
	if err != nil {
		t.Fatal(err)
	}
	if changed.Description != c.Description || !changed.FirstSeen.Equal(rec.FirstSeen) || !changed.LastChanged.After(rec.LastChanged) {
		t.Errorf("Register(changed card) = first %v changed %v %q; want first %v and a later change",
			changed.FirstSeen, changed.LastChanged, changed.Description, rec.FirstSeen)
	}
	got, err := reg.anon.Get(ctx, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	var flags []bool
	for _, h := range got.History {
		flags = append(flags, h.Changed)
	}
	if !slices.Equal(flags, []bool{true, false, true}) || got.Registrations != 3 {
		t.Errorf("Get().History changed flags = %v, registrations %d; want [true false true], 3", flags, got.Registrations)
	}
	var card a2a.AgentCard
	if err := json.Unmarshal(got.Card, &card); err != nil || card.Description != c.Description {
		t.Errorf("Get().Card = %s, %v", got.Card, err)
	}
	// Delete needs the token; then the agent is gone.
	if err := reg.anon.Delete(ctx, rec.ID); !isStatus(err, 401) {
		t.Errorf("Delete(no token) = %v, want 401", err)
	}
	if err := reg.client.Delete(ctx, rec.ID); err != nil {
		t.Fatalf("Delete() = %v", err)
	}
	if _, err := reg.anon.Get(ctx, rec.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get(deleted) = %v, want not found", err)
	}
}

func isStatus(err error, status int) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.Status == status
}

// TestBadInput sends each hostile or broken input and checks the status,
// that the message says what is wrong, and that the stored agent survives.
func TestBadInput(t *testing.T) {
	t.Parallel()
	agents := newFakeAgents(t)
	reg := newTestRegistry(t)
	agents.set(t, "reverser", reverserCard())
	kept := mustRegister(t, reg.client, agents.url("reverser"))

	many := make([]a2a.AgentSkill, 10000)
	for i := range many {
		many[i] = skill(fmt.Sprintf("s%d", i), "d")
	}
	agents.set(t, "many-skills", testCard("many", "Too many skills.", many...))
	bad := testCard("", "", skill("dup", "x"), skill("dup", "y"))
	bad.DefaultInputModes = []string{"not a mime type"}
	agents.set(t, "invalid", bad)
	agents.set(t, "script", testCard("xss", `<script>alert("x")</script> desc`, skill("s", "<img src=x onerror=alert(1)>")))
	agents.set(t, "array", []byte(`[1,2,3]`))
	agents.set(t, "broken", []byte(`{"name": "x",`))

	post := func(token, body string) (int, errorBody) {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, reg.srv.URL+"/v1/agents", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var eb errorBody
		json.NewDecoder(resp.Body).Decode(&eb)
		return resp.StatusCode, eb
	}
	reg1 := func(u string) string { b, _ := json.Marshal(registerRequest{URL: u}); return string(b) }
	bearer := "Bearer " + testToken

	tests := []struct {
		name     string
		token    string
		body     string
		status   int
		want     []string // substrings of the message and problems, all required
		problems int      // at least this many problems
	}{
		{"no token", "", reg1(agents.url("reverser")), 401, []string{"bearer token"}, 0},
		{"wrong token", "Bearer nope", reg1(agents.url("reverser")), 401, []string{"wrong or no longer valid"}, 0},
		{"expired token", "Bearer " + testToken + "-old", reg1(agents.url("reverser")), 401, []string{"wrong or no longer valid"}, 0},
		{"basic auth", "Basic YTpi", reg1(agents.url("reverser")), 401, []string{"Bearer TOKEN"}, 0},
		{"not json", bearer, "url=http://x", 400, []string{"JSON object"}, 0},
		{"unknown field", bearer, `{"url":"http://127.0.0.1:1","x":1}`, 400, []string{"unknown field"}, 0},
		{"huge body", bearer, `{"url":"` + strings.Repeat("a", 100<<10) + `"}`, 413, []string{"limit"}, 0},
		{"no url", bearer, `{}`, 422, []string{"url is required"}, 1},
		{"ftp", bearer, reg1("ftp://127.0.0.1/agent"), 422, []string{"http or https"}, 1},
		{"credentials", bearer, reg1("http://u:p@127.0.0.1:1/"), 422, []string{"credentials"}, 1},
		{"unreachable", bearer, reg1("http://127.0.0.1:1"), 422, []string{"connection refused"}, 1},
		{"404", bearer, reg1(agents.url("nobody")), 422, []string{"HTTP 404"}, 1},
		{"500", bearer, reg1(agents.url("boom")), 422, []string{"HTTP 500"}, 1},
		{"html", bearer, reg1(agents.url("html")), 422, []string{"HTML", "text/html"}, 1},
		{"html labelled json", bearer, reg1(agents.url("html-as-json")), 422, []string{"HTML"}, 1},
		{"50 MiB card", bearer, reg1(agents.url("huge")), 422, []string{"1 MiB"}, 1},
		{"50 MiB card, streamed", bearer, reg1(agents.url("huge-chunked")), 422, []string{"1 MiB"}, 1},
		{"10000 skills", bearer, reg1(agents.url("many-skills")), 422, []string{"10000 skills", "at most 1000"}, 1},
		{"invalid card", bearer, reg1(agents.url("invalid")), 422, []string{"name", "duplicate skill id", "MIME"}, 3},
		{"array card", bearer, reg1(agents.url("array")), 422, []string{"not a JSON object"}, 1},
		{"truncated card", bearer, reg1(agents.url("broken")), 422, []string{"not valid JSON"}, 1},
		{"redirect loop", bearer, reg1(agents.url("loop")), 422, []string{"redirects"}, 1},
		{"redirect to file", bearer, reg1(agents.url("to-file")), 422, []string{"file"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			status, eb := post(tt.token, tt.body)
			text := eb.Error + " | " + strings.Join(eb.Problems, " | ")
			if status != tt.status {
				t.Fatalf("POST /v1/agents (%s) = %d %q, want %d", tt.name, status, text, tt.status)
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("POST /v1/agents (%s) message %q lacks %q", tt.name, text, w)
				}
			}
			if len(eb.Problems) < tt.problems {
				t.Errorf("POST /v1/agents (%s) problems = %q, want at least %d", tt.name, eb.Problems, tt.problems)
			}
		})
	}
	// A redirect within bounds is followed.
	if status, eb := post(bearer, reg1(agents.url("moved"))); status != 201 {
		t.Errorf("POST /v1/agents (one redirect) = %d %v, want 201", status, eb)
	}
	// A card with script tags is stored as data; the web page escapes it.
	if status, eb := post(bearer, reg1(agents.url("script"))); status != 201 {
		t.Fatalf("POST /v1/agents (script tags) = %d %v, want 201", status, eb)
	}

	t.Run("reads", func(t *testing.T) {
		get := func(path string) (int, string) {
			resp, err := http.Get(reg.srv.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(b)
		}
		reads := []struct {
			path   string
			status int
			want   string
		}{
			{"/v1/agents/0123456789abcdef", 404, "no agent with id"},
			{"/v1/agents/" + kept.ID, 200, `"name":"reverser"`},
			{"/v1/search", 400, "search text is required"},
			{"/v1/search?q=%27%3B+DROP+TABLE+agents%3B+--", 200, `"results":[]`},
			{"/v1/search?q=%22+OR+1%3D1+--", 200, `"results":`},
			{"/v1/search?q=%29%28*%22%22%5E", 400, "no letters or digits"},
			{"/v1/search?q=palindrome+NEAR%28x%29&limit=0", 400, "limit"},
			{"/v1/search?q=palindrome&limit=1000", 400, "limit"},
			{"/v1/search?q=palindrome&status=sideways", 400, "status"},
			{"/v1/search?q=palindrome&cursor=bogus", 400, "cursor"},
			{"/v1/search?q=" + strings.Repeat("word+", 100), 400, "more than 64"},
			{"/v1/agents?status=up&tag=palindrome&q=reverse", 200, `"reverser"`},
			{"/v1/nothing", 404, "no such endpoint"},
			{"/healthz", 200, `"ok"`},
		}
		for _, rd := range reads {
			status, body := get(rd.path)
			if status != rd.status || !strings.Contains(body, rd.want) {
				t.Errorf("GET %s = %d %.200s, want %d with %q", rd.path, status, body, rd.status, rd.want)
			}
		}
		req, _ := http.NewRequest(http.MethodPut, reg.srv.URL+"/v1/agents", nil)
		if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 405 {
			t.Errorf("PUT /v1/agents = %v, %v; want 405", resp.StatusCode, err)
		}
		req, _ = http.NewRequest(http.MethodDelete, reg.srv.URL+"/v1/agents/0123456789abcdef", nil)
		req.Header.Set("Authorization", bearer)
		if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 404 {
			t.Errorf("DELETE unknown = %v, %v; want 404", resp.StatusCode, err)
		}
	})

	// Nothing already stored was lost.
	got, err := reg.anon.Get(t.Context(), kept.ID)
	if err != nil || got.CardHash != kept.CardHash || got.Registrations != 1 {
		t.Errorf("after bad input: Get(%s) = %+v, %v; want the original record", kept.ID, got, err)
	}
	page, err := reg.anon.List(t.Context(), Query{})
	if err != nil || len(page.Hits) != 3 {
		t.Errorf("after bad input: %d agents, %v; want 3 (reverser, moved, xss)", len(page.Hits), err)
	}
}

// TestFetchTimeout registers an agent that never answers, with the default
// 5 s timeout.
func TestFetchTimeout(t *testing.T) {
	t.Parallel()
	agents := newFakeAgents(t)
	store, err := OpenSQLite(t.Context(), ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	svc := NewService(store, cardsValidator())
	start := time.Now()
	_, _, err = svc.Register(t.Context(), agents.url("hang"))
	took := time.Since(start)
	var ie *InvalidError
	if !errors.As(err, &ie) || !strings.Contains(ie.Error(), "no answer within 5s") {
		t.Errorf("Register(never answers) = %v, want 'no answer within 5s'", err)
	}
	if took < DefaultFetchTimeout || took > DefaultFetchTimeout+3*time.Second {
		t.Errorf("Register(never answers) took %v, want about %v", took, DefaultFetchTimeout)
	}
}

func TestSearchAPI(t *testing.T) {
	t.Parallel()
	testSearchAPI(t, newTestRegistry(t), newFakeAgents(t))
}

// testSearchAPI searches, lists and pages through reg's API;
// TestPostgresService runs it on the PostgreSQL store.
func testSearchAPI(t *testing.T, reg *testRegistry, agents *fakeAgents) {
	ctx := t.Context()
	agents.set(t, "reverser", reverserCard())
	agents.set(t, "wordfreq", testCard("wordfreq", "Word frequencies of a text.",
		skill("top-words", "List the most common words of a text.", "text", "statistics")))
	agents.set(t, "chem", testCard("chemcalc", "Chemistry calculator.",
		skill("molar-mass", "Molar mass of a chemical formula.", "chemistry")))
	for _, n := range []string{"reverser", "wordfreq", "chem"} {
		mustRegister(t, reg.client, agents.url(n))
	}

	names := func(p Page) []string {
		var out []string
		for _, h := range p.Hits {
			out = append(out, h.Name)
		}
		return out
	}
	tests := []struct {
		q    Query
		want []string
	}{
		{Query{Text: "palindrome"}, []string{"reverser"}},
		{Query{Text: "words of a text"}, []string{"wordfreq", "reverser"}},
		{Query{Text: "text", Tag: "statistics"}, []string{"wordfreq"}},
		{Query{Text: "molar"}, []string{"chemcalc"}},
		{Query{Text: "stressed"}, []string{"reverser"}}, // an example
	}
	for _, tt := range tests {
		p, err := reg.anon.Search(ctx, tt.q)
		if err != nil {
			t.Fatalf("Search(%+v) = %v", tt.q, err)
		}
		if got := names(p); !slices.Equal(got, tt.want) {
			t.Errorf("Search(%+v) = %v, want %v", tt.q, got, tt.want)
		}
		for _, h := range p.Hits {
			if h.Score <= 0 {
				t.Errorf("Search(%+v) %s score = %v, want > 0", tt.q, h.Name, h.Score)
			}
		}
	}
	// Take the reverser down: search leaves it out unless asked.
	agents.remove("reverser")
	if _, err := NewProber(reg.svc).Round(ctx); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		q    Query
		want []string
	}{
		{Query{Text: "palindrome"}, nil},
		{Query{Text: "palindrome", Statuses: []Status{StatusDown}}, []string{"reverser"}},
		{Query{Text: "palindrome", Statuses: Statuses}, []string{"reverser"}},
	} {
		p, err := reg.anon.Search(ctx, tt.q)
		if err != nil || !slices.Equal(names(p), tt.want) {
			t.Errorf("Search(%+v) with reverser down = %v, %v; want %v", tt.q, names(p), err, tt.want)
		}
	}
	// Listing shows down agents; status filters narrow it.
	for _, tt := range []struct {
		q    Query
		want []string
	}{
		{Query{}, []string{"chemcalc", "reverser", "wordfreq"}},
		{Query{Statuses: []Status{StatusDown}}, []string{"reverser"}},
		{Query{Tag: "text"}, []string{"reverser", "wordfreq"}},
	} {
		p, err := reg.anon.List(ctx, tt.q)
		if err != nil || !slices.Equal(names(p), tt.want) {
			t.Errorf("List(%+v) = %v, %v; want %v", tt.q, names(p), err, tt.want)
		}
	}
	// Paging through the API: limit and cursor.
	var all []string
	q := Query{Limit: 1}
	for {
		p, err := reg.anon.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, names(p)...)
		if p.NextCursor == "" {
			break
		}
		q.Cursor = p.NextCursor
	}
	if !slices.Equal(all, []string{"chemcalc", "reverser", "wordfreq"}) {
		t.Errorf("List paged by 1 = %v", all)
	}
	// The raw search answer carries query, results and scores.
	resp, err := http.Get(reg.srv.URL + "/v1/search?q=molar+mass")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var raw map[string]any
	json.NewDecoder(resp.Body).Decode(&raw)
	res, _ := raw["results"].([]any)
	if raw["query"] != "molar mass" || len(res) != 1 || res[0].(map[string]any)["score"] == nil {
		t.Errorf("GET /v1/search = %v, want query, one result with a score", raw)
	}
}

func TestBodyCapOption(t *testing.T) {
	t.Parallel()
	store, _ := OpenSQLite(t.Context(), ":memory:")
	defer store.Close()
	h := NewHandler(NewService(store, cardsValidator()), WithMaxBody(16))
	for _, tt := range []struct {
		body   string
		status int
	}{
		{`{"url":"http://127.0.0.1:1/aaaaaaaa"}`, 413},
		{`{"url":""}`, 422},
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/v1/agents", bytes.NewBufferString(tt.body))
		h.ServeHTTP(rec, req)
		if rec.Code != tt.status {
			t.Errorf("POST %s with a 16-byte cap = %d, want %d", tt.body, rec.Code, tt.status)
		}
	}
}
