package conformance_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/google/go-cmp/cmp"

	"github.com/agentnet/agentnet/a2a/a2atest"
	"github.com/agentnet/agentnet/a2a/conformance"
	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/cards"
)

// fast are the options of the tests: short bounds, a short stream grace.
var fast = []conformance.Option{conformance.WithTimeout(10 * time.Second), conformance.WithStreamGrace(300 * time.Millisecond)}

func audit(t *testing.T, urls ...string) *conformance.Report {
	t.Helper()
	rep, err := conformance.Audit(t.Context(), urls, fast...)
	if err != nil {
		t.Fatalf("Audit(%v) error = %v", urls, err)
	}
	return rep
}

// failed lists the ids of the failed checks (any level), each once.
func failed(rep *conformance.Report) []string {
	var ids []string
	all := slices.Clone(rep.Fleet)
	for _, e := range rep.Endpoints {
		all = append(all, e.Results...)
	}
	for _, r := range all {
		if r.Status == conformance.Fail && !slices.Contains(ids, r.ID) {
			ids = append(ids, r.ID)
		}
	}
	slices.Sort(ids)
	return ids
}

func reasons(rep *conformance.Report) string {
	var b strings.Builder
	rep.WriteText(&b)
	var out []string
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.Contains(l, "FAIL") {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return strings.Join(out, "\n")
}

func TestWellBehavedAgentPassesEverything(t *testing.T) {
	t.Parallel()
	ag := a2atest.New(a2atest.None)
	defer ag.Close()
	rep := audit(t, ag.URL)
	if got := failed(rep); len(got) != 0 {
		t.Fatalf("Audit(well-behaved agent) failed %v:\n%s", got, reasons(rep))
	}
	if got, want := rep.Endpoints[0].Versions, []string{"1.0", "0.3"}; !slices.Equal(got, want) {
		t.Errorf("Versions = %v, want %v", got, want)
	}
	var b bytes.Buffer
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{"\n  MUST\n", "\n  SHOULD\n", "\n  MAY\n", "PASS  core.send", "MUST failed: 0 · SHOULD failed: 0"} {
		if !strings.Contains(text, want) {
			t.Errorf("WriteText() lacks %q:\n%s", want, text)
		}
	}
	if strings.Index(text, "  SHOULD\n") < strings.Index(text, "  MUST\n") {
		t.Errorf("WriteText() does not put MUST before SHOULD")
	}
}

// TestEachFaultIsCaughtByItsCheck audits one agent per fault: the fault's
// check fails, and no other.
func TestEachFaultIsCaughtByItsCheck(t *testing.T) {
	t.Parallel()
	want := map[a2atest.Fault]string{
		a2atest.CardContentType:       conformance.CardContentType,
		a2atest.CardLegacyOnly:        conformance.CardFetch,
		a2atest.SchemaViolation:       conformance.CardSchema,
		a2atest.NullSkills:            conformance.CardNullLists,
		a2atest.EmptyName:             conformance.LintRequiredStrings,
		a2atest.BadProtocolVersion:    conformance.LintProtocolVersion,
		a2atest.TextModes:             conformance.LintMIMEModes,
		a2atest.NoSkills:              conformance.LintSkills,
		a2atest.DuplicateSkillIDs:     conformance.LintUniqueSkillIDs,
		a2atest.NoTagsExamples:        conformance.LintTagsExamples,
		a2atest.UnreachableURL:        conformance.LintReachableURL,
		a2atest.TransportMismatch:     conformance.LintTransport,
		a2atest.GenericDescription:    conformance.LintGenericDescription,
		a2atest.ShortSkillDescription: conformance.LintSkillDescription,
		a2atest.ParseErrorCode:        conformance.RPCParseError,
		a2atest.InvalidRequestCode:    conformance.RPCInvalidRequest,
		a2atest.MethodNotFoundCode:    conformance.RPCMethodNotFound,
		a2atest.InvalidParamsCode:     conformance.RPCInvalidParams,
		a2atest.IDNotEchoed:           conformance.RPCIDEcho,
		a2atest.AnswersNotifications:  conformance.RPCNotification,
		a2atest.ResponseContentType:   conformance.RPCContentType,
		a2atest.SendNotTaskOrMessage:  conformance.CoreSend,
		a2atest.TaskNotFoundCode:      conformance.CoreGetUnknown,
		a2atest.HistoryIgnored:        conformance.CoreHistoryLength,
		a2atest.CancelFinished:        conformance.CoreCancelFinished,
		a2atest.FollowUpAccepted:      conformance.CoreFollowUp,
		a2atest.StreamContentType:     conformance.StreamContentType,
		a2atest.StreamNotEnvelope:     conformance.StreamEvents,
		a2atest.StreamNeverCloses:     conformance.StreamCloses,
		a2atest.StreamUndeclared:      conformance.StreamUnsupported,
		a2atest.PushWrongCode:         conformance.PushUnsupported,
		a2atest.UnsignedCard:          conformance.CardSigned,
		a2atest.BadSignature:          conformance.CardSignatureValid,
	}
	for _, f := range a2atest.Faults {
		if _, ok := want[f]; !ok {
			t.Errorf("fault %q has no check in this test", f)
		}
	}
	for f, check := range want {
		t.Run(string(f), func(t *testing.T) {
			t.Parallel()
			ag := a2atest.New(f)
			defer ag.Close()
			rep := audit(t, ag.URL)
			if diff := cmp.Diff([]string{check}, failed(rep)); diff != "" {
				t.Errorf("Audit(agent with fault %s) failed checks (-want +got):\n%s\n%s", f, diff, reasons(rep))
			}
		})
	}
}

// TestOwnHostPasses serves a tiny bundle with agentnet's host and audits it.
func TestOwnHostPasses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	yml := `version: 1
name: repeater
description: Repeats a text back, for testing A2A clients against a real skill process.
skills:
  - id: repeat-text
    name: Repeat text
    description: Print the given text back unchanged, followed by a newline.
    tags: [text, echo]
    examples: ["Repeat the words hello world"]
    input_modes: [text/plain]
    output_modes: [text/plain]
    params: {type: object, properties: {text: {type: string}}, required: [text]}
    run: [echo, "{{text}}"]
    timeout: 10s
`
	if err := os.WriteFile(filepath.Join(dir, bundle.FileName), []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := bundle.Load(dir)
	if err != nil {
		t.Fatalf("bundle.Load() error = %v", err)
	}
	srv := httptest.NewUnstartedServer(nil)
	key, err := cards.NewKey("es256")
	if err != nil {
		t.Fatal(err)
	}
	h, err := host.New(b, "http://"+srv.Listener.Addr().String()+"/", host.WithEnv(os.Environ()), host.WithHeartbeat(50*time.Millisecond),
		host.WithSigningKey(key))
	if err != nil {
		t.Fatalf("host.New() error = %v", err)
	}
	defer h.Close()
	srv.Config = h.Server(host.DefaultTimeouts) // HTTP/1.1 and h2c, as `agentnet serve`
	srv.Start()
	defer srv.Close()

	rep := audit(t, srv.URL)
	// The host's one open finding (docs/audit.md), a2a-go's: HTTP+JSON
	// answers as application/json. ListTasks without credentials is
	// skipped (it needs an authenticated caller). Anything else failing is
	// a regression.
	want := []string{conformance.RESTContentType}
	if got := failed(rep); !slices.Equal(got, want) {
		t.Fatalf("Audit(agentnet host) failed %v, want only the known %v:\n%s", got, want, reasons(rep))
	}
	if rep.Summary.Passed < 40 {
		t.Errorf("Audit(agentnet host) passed only %d checks: %+v", rep.Summary.Passed, rep.Summary)
	}
}

func TestFleet(t *testing.T) {
	t.Parallel()
	translator := []a2a.AgentSkill{{ID: "translate", Name: "Translate", Description: "Translate a French sentence into English, keeping names as they are.",
		Tags: []string{"language", "translation"}, Examples: []string{"Translate 'bonjour le monde'"}}}
	echoOnly := []a2a.AgentSkill{{ID: "echo", Name: "Echo", Description: "Repeat the text of the message back to the sender unchanged.",
		Tags: []string{"text", "echo"}, Examples: []string{"Echo this sentence back to me"}}}
	for _, tc := range []struct {
		name   string
		agents [][]a2atest.Option
		want   []string // failed fleet checks
	}{
		{"distinct", [][]a2atest.Option{nil, {a2atest.WithName("translator"), a2atest.WithDescription("Translates French text into English."), a2atest.WithSkills(translator...)}}, nil},
		{"indistinguishable twins", [][]a2atest.Option{nil, nil}, []string{conformance.FleetDuplicateNames, conformance.FleetIndistinguishable}},
		{"indistinguishable, renamed", [][]a2atest.Option{nil, {a2atest.WithName("echo-2")}}, []string{conformance.FleetIndistinguishable}},
		{"blurring", [][]a2atest.Option{nil, {a2atest.WithName("parrot"), a2atest.WithDescription("A parrot for chat rooms: says back what it hears."), a2atest.WithSkills(echoOnly...)}}, []string{conformance.FleetBlurring}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var urls []string
			for _, opts := range tc.agents {
				ag := a2atest.New(a2atest.None, opts...)
				defer ag.Close()
				urls = append(urls, ag.URL)
			}
			rep := audit(t, urls...)
			var got []string
			for _, r := range rep.Fleet {
				if r.Status == conformance.Fail {
					got = append(got, r.ID)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("fleet checks failed (-want +got):\n%s\n%s", diff, reasons(rep))
			}
			if len(rep.Fleet) != 3 {
				t.Errorf("len(Fleet) = %d, want 3", len(rep.Fleet))
			}
		})
	}
}

// TestContactsOnlyGivenOrigins serves a card whose URL names another
// server: the audit must never call it.
func TestContactsOnlyGivenOrigins(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer other.Close()
	card := map[string]any{
		"name": "elsewhere", "description": "An agent whose card sends callers to another host.", "version": "1.0.0",
		"supportedInterfaces": []any{map[string]any{"url": other.URL + "/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}},
		"capabilities":        map[string]any{"streaming": true, "pushNotifications": true},
		"defaultInputModes":   []any{"text/plain"}, "defaultOutputModes": []any{"text/plain"},
		"skills": []any{map[string]any{"id": "x", "name": "X", "description": "Does one thing that is described in enough words.", "tags": []any{"x"}, "examples": []any{"do it"}}},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "agent-card.json") {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(card)
			return
		}
		http.Redirect(w, r, other.URL+"/", http.StatusTemporaryRedirect) // never followed
	}))
	defer srv.Close()
	rep := audit(t, srv.URL)
	if n := hits.Load(); n != 0 {
		t.Errorf("the audit sent %d requests to a server it was not given", n)
	}
	var send conformance.Result
	for _, r := range rep.Endpoints[0].Results {
		if r.ID == conformance.CoreSend {
			send = r
		}
	}
	if send.Status != conformance.Fail || !strings.Contains(send.Reason, "outside the audited origin") || !strings.Contains(send.Reason, conformance.ErrNotAllowed.Error()) {
		t.Errorf("core.send = %s %q, want a failure naming the refused origin", send.Status, send.Reason)
	}
}

func TestBounds(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) }) // after the parallel subtests
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		opts    []conformance.Option
		reason  string
	}{
		{"huge card", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write(bytes.Repeat([]byte(" "), 4096))
		}, []conformance.Option{conformance.WithMaxBody(1024)}, "larger than 1024 bytes"},
		{"silent server", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}, []conformance.Option{conformance.WithTimeout(200 * time.Millisecond)}, "no answer within 200ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(tc.handler)
			defer srv.Close()
			start := time.Now()
			rep, err := conformance.Audit(t.Context(), []string{srv.URL}, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if time.Since(start) > 5*time.Second {
				t.Errorf("Audit took %s", time.Since(start))
			}
			r := rep.Endpoints[0].Results
			i := slices.IndexFunc(r, func(r conformance.Result) bool { return r.ID == conformance.CardFetch })
			if i < 0 || r[i].Status != conformance.Fail || !strings.Contains(r[i].Reason, tc.reason) {
				t.Errorf("card.fetch = %+v, want a failure with %q", r[i], tc.reason)
			}
			if !rep.Failed() {
				t.Errorf("Failed() = false, want true")
			}
		})
	}
}

func TestInvalidURL(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"ftp://example.org/", "127.0.0.1:8080", "http://"} {
		_, err := conformance.Audit(t.Context(), []string{u})
		var bad *conformance.InvalidURLError
		if !errors.As(err, &bad) {
			t.Errorf("Audit(%q) error = %v, want an *InvalidURLError", u, err)
		}
	}
}

func TestParseTarget(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"http://127.0.0.1:8080":                                "http://127.0.0.1:8080/",
		"http://127.0.0.1:8080/.well-known/agent-card.json":    "http://127.0.0.1:8080/",
		"http://h.example/agents/a/.well-known/agent.json?x=1": "http://h.example/agents/a/",
		"https://h.example/agents/a":                           "https://h.example/agents/a/",
	} {
		u, err := conformance.ParseTarget(in)
		if err != nil || u.String() != want {
			t.Errorf("ParseTarget(%q) = %v, %v, want %s", in, u, err, want)
		}
	}
}

func TestCatalog(t *testing.T) {
	t.Parallel()
	for _, c := range conformance.Checks() {
		if c.ID == "" || c.Title == "" || c.Category == "" {
			t.Errorf("check %+v lacks an id, title or category", c)
		}
		switch c.Level {
		case conformance.Must, conformance.Should, conformance.May:
		default:
			t.Errorf("check %s has level %q", c.ID, c.Level)
		}
	}
}
