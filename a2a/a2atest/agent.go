package a2atest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"

	"github.com/agentnet/agentnet/cards"
)

// Fault names the one rule a test agent breaks.
type Fault string

// The faults. Each breaks one rule and nothing else.
const (
	None Fault = "" // a well-behaved agent

	// Discovery.
	CardContentType Fault = "card-content-type" // the card is served as text/plain
	CardLegacyOnly  Fault = "card-legacy-only"  // only the pre-0.3 path /.well-known/agent.json serves the card

	// The card.
	SchemaViolation       Fault = "schema-violation"        // the card has a field the schema does not know
	NullSkills            Fault = "null-skills"             // "skills": null
	EmptyName             Fault = "empty-name"              // "name": ""
	BadProtocolVersion    Fault = "bad-protocol-version"    // the 1.0 interface says protocolVersion "v1"
	TextModes             Fault = "text-modes"              // defaultInputModes ["text"], not a media type
	NoSkills              Fault = "no-skills"               // "skills": []
	DuplicateSkillIDs     Fault = "duplicate-skill-ids"     // two skills share an id
	NoTagsExamples        Fault = "no-tags-examples"        // a skill with no tags and no examples
	UnreachableURL        Fault = "unreachable-url"         // the card advertises http://0.0.0.0:PORT/
	TransportMismatch     Fault = "transport-mismatch"      // the 0.3 preferredTransport matches no interface
	GenericDescription    Fault = "generic-description"     // "Generic software agent"
	ShortSkillDescription Fault = "short-skill-description" // a two-word skill description

	// The JSON-RPC envelope.
	ParseErrorCode       Fault = "parse-error-code"      // invalid JSON is answered -32600
	InvalidRequestCode   Fault = "invalid-request-code"  // a request without method is answered -32601
	MethodNotFoundCode   Fault = "method-not-found-code" // an unknown method is answered -32600
	InvalidParamsCode    Fault = "invalid-params-code"   // malformed params are answered -32603
	IDNotEchoed          Fault = "id-not-echoed"         // responses carry another id
	AnswersNotifications Fault = "answers-notifications" // a notification gets a response
	ResponseContentType  Fault = "response-content-type" // JSON-RPC responses are served as text/plain

	// Core methods.
	SendNotTaskOrMessage Fault = "send-not-task-or-message" // message/send returns neither a task nor a message
	TaskNotFoundCode     Fault = "task-not-found-code"      // tasks/get of an unknown id is answered -32603
	HistoryIgnored       Fault = "history-ignored"          // tasks/get ignores historyLength
	CancelFinished       Fault = "cancel-finished"          // tasks/cancel of a finished task "succeeds"
	FollowUpAccepted     Fault = "follow-up-accepted"       // a message to a finished task starts a new one

	// Capabilities.
	StreamContentType Fault = "stream-content-type" // the event stream is labelled application/json
	StreamNotEnvelope Fault = "stream-not-envelope" // stream events are bare results, not JSON-RPC responses
	StreamNeverCloses Fault = "stream-never-closes" // the stream stays open after the final event
	StreamUndeclared  Fault = "stream-undeclared"   // streaming works but the card does not declare it
	PushWrongCode     Fault = "push-wrong-code"     // push config without the capability is answered -32601

	// The card's signature (the well-behaved agent signs its card).
	UnsignedCard Fault = "unsigned-card" // the card carries no signature
	BadSignature Fault = "bad-signature" // the card changed after it was signed
)

// Faults lists every fault but None.
var Faults = []Fault{
	CardContentType, CardLegacyOnly,
	SchemaViolation, NullSkills, EmptyName, BadProtocolVersion, TextModes, NoSkills, DuplicateSkillIDs,
	NoTagsExamples, UnreachableURL, TransportMismatch, GenericDescription, ShortSkillDescription,
	ParseErrorCode, InvalidRequestCode, MethodNotFoundCode, InvalidParamsCode, IDNotEchoed, AnswersNotifications, ResponseContentType,
	SendNotTaskOrMessage, TaskNotFoundCode, HistoryIgnored, CancelFinished, FollowUpAccepted,
	StreamContentType, StreamNotEnvelope, StreamNeverCloses, StreamUndeclared, PushWrongCode,
	UnsignedCard, BadSignature,
}

// signingKey signs the test agents' cards.
var signingKey = sync.OnceValue(func() *cards.SigningKey {
	k, err := cards.NewKey("ed25519")
	if err != nil {
		panic(fmt.Sprintf("a2atest: signing key: %v", err))
	}
	return k
})

// Option changes the test agent's card.
type Option func(*a2a.AgentCard)

// WithName sets the agent's name.
func WithName(name string) Option { return func(c *a2a.AgentCard) { c.Name = name } }

// WithDescription sets the agent's description.
func WithDescription(d string) Option { return func(c *a2a.AgentCard) { c.Description = d } }

// WithSkills replaces the agent's skills.
func WithSkills(skills ...a2a.AgentSkill) Option {
	return func(c *a2a.AgentCard) { c.Skills = skills }
}

// Agent is a test agent on an httptest server. Close it when done.
type Agent struct {
	*httptest.Server
	fault   Fault
	card    []byte // the card as served
	v1, v0  http.Handler
	done    chan struct{} // closed by Close, releasing held streams
	closing sync.Once
}

// Close releases held streams and shuts the server down.
func (ag *Agent) Close() {
	ag.closing.Do(func() { close(ag.done) })
	ag.Server.Close()
}

// New starts an echo agent on a loopback httptest server that breaks the
// rule f names (None for none). Its card declares streaming and JSON-RPC
// interfaces for A2A 1.0 and 0.3 at the server's URL.
func New(f Fault, opts ...Option) *Agent {
	srv := httptest.NewUnstartedServer(nil)
	url := "http://" + srv.Listener.Addr().String() + "/"
	card := &a2a.AgentCard{
		Name:        "echo",
		Description: "Echoes the text of each message back, as is or in capitals.",
		Version:     "1.0.0",
		SupportedInterfaces: []*a2a.AgentInterface{
			{URL: url, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2a.Version},
			{URL: url, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: "0.3"},
		},
		Capabilities:       a2a.AgentCapabilities{Streaming: true},
		DefaultInputModes:  []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain"},
		Skills: []a2a.AgentSkill{
			{ID: "echo", Name: "Echo", Description: "Repeat the text of the message back to the sender unchanged.",
				Tags: []string{"text", "echo"}, Examples: []string{"Echo this sentence back to me"}},
			{ID: "shout", Name: "Shout", Description: "Repeat the text of the message back in capital letters.",
				Tags: []string{"text", "uppercase"}, Examples: []string{"Shout: hello there"}},
		},
	}
	for _, o := range opts {
		o(card)
	}
	caps := card.Capabilities // what the handler enforces
	// Every caller is one user, so that ListTasks lists the tasks it made
	// (a2a-go's default store refuses ListTasks without an authenticator).
	store := taskstore.NewInMemory(&taskstore.InMemoryStoreConfig{
		Authenticator: func(context.Context) (string, error) { return "audit", nil },
	})
	handler := a2asrv.NewHandler(echo{},
		a2asrv.WithLogger(slog.New(slog.DiscardHandler)),
		a2asrv.WithTaskStore(store),
		a2asrv.WithCallInterceptors(versionGuard{}, finishedGuard{store: store}),
		a2asrv.WithCapabilityChecks(&caps))
	ag := &Agent{Server: srv, fault: f, done: make(chan struct{}),
		v1: a2asrv.NewJSONRPCHandler(handler), v0: a2av0.NewJSONRPCHandler(handler)}
	ag.card = cardJSON(card, f, url, srv.Listener.Addr().String())

	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/agent-card.json", ag.serveCard(f != CardLegacyOnly))
	mux.HandleFunc("GET /.well-known/agent.json", ag.serveCard(true))
	mux.HandleFunc("POST /{$}", ag.serveJSONRPC)
	srv.Config.Handler = mux
	srv.Start()
	return ag
}

// cardJSON serializes the card as a2a-go serves it to 1.0 and 0.3 clients,
// then breaks it as f says.
func cardJSON(card *a2a.AgentCard, f Fault, url, hostport string) []byte {
	rec := httptest.NewRecorder()
	a2asrv.NewAgentCardHandler(a2av0.NewStaticAgentCardProducer(card)).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		panic(fmt.Sprintf("a2atest: the card does not decode: %v", err))
	}
	ifaces, _ := m["supportedInterfaces"].([]any)
	skills, _ := m["skills"].([]any)
	skill0, _ := skills[0].(map[string]any)
	switch f {
	case SchemaViolation:
		m["agentMood"] = "cheerful"
	case NullSkills:
		m["skills"] = nil
	case EmptyName:
		m["name"] = ""
	case BadProtocolVersion:
		ifaces[0].(map[string]any)["protocolVersion"] = "v1"
	case TextModes:
		m["defaultInputModes"] = []any{"text"}
	case NoSkills:
		m["skills"] = []any{}
	case DuplicateSkillIDs:
		skills[1].(map[string]any)["id"] = skill0["id"]
	case NoTagsExamples:
		skill0["tags"] = []any{}
		delete(skill0, "examples")
	case UnreachableURL:
		_, port, _ := strings.Cut(hostport, ":")
		bad := "http://0.0.0.0:" + port + "/"
		for _, it := range ifaces {
			it.(map[string]any)["url"] = bad
		}
		m["url"] = bad
	case TransportMismatch:
		m["preferredTransport"] = "GRPC"
	case GenericDescription:
		m["description"] = "Generic software agent"
	case ShortSkillDescription:
		skill0["description"] = "Echoes text."
	case StreamUndeclared:
		m["capabilities"] = map[string]any{}
	}
	data, err := json.Marshal(m)
	if err != nil {
		panic(fmt.Sprintf("a2atest: encode the card: %v", err))
	}
	if f == UnsignedCard {
		return data
	}
	if data, err = signingKey().SignJSON(data); err != nil {
		panic(fmt.Sprintf("a2atest: sign the card: %v", err))
	}
	if f == BadSignature {
		data = bytes.Replace(data, []byte(`"version":"`), []byte(`"version":"9`), 1)
	}
	return data
}

func (ag *Agent) serveCard(ok bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !ok {
			http.NotFound(w, r)
			return
		}
		ct := "application/json"
		if ag.fault == CardContentType {
			ct = "text/plain; charset=utf-8"
		}
		w.Header().Set("Content-Type", ct)
		w.Write(ag.card)
	}
}

var (
	streamMethods = map[string]bool{"SendStreamingMessage": true, "SubscribeToTask": true, "message/stream": true, "tasks/resubscribe": true}
	knownMethods  = map[string]bool{
		"SendMessage": true, "SendStreamingMessage": true, "GetTask": true, "ListTasks": true, "CancelTask": true, "SubscribeToTask": true,
		"CreateTaskPushNotificationConfig": true, "GetTaskPushNotificationConfig": true, "ListTaskPushNotificationConfigs": true,
		"DeleteTaskPushNotificationConfig": true, "GetExtendedAgentCard": true,
		"message/send": true, "message/stream": true, "tasks/get": true, "tasks/cancel": true, "tasks/resubscribe": true,
		"tasks/pushNotificationConfig/get": true, "tasks/pushNotificationConfig/set": true, "tasks/pushNotificationConfig/list": true,
		"tasks/pushNotificationConfig/delete": true, "agent/getAuthenticatedExtendedCard": true,
	}
)

func is(method string, names ...string) bool {
	for _, n := range names {
		if method == n {
			return true
		}
	}
	return false
}

func writeError(w http.ResponseWriter, id any, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
}

// serveJSONRPC answers A2A 1.0 and 0.3 JSON-RPC at one URL, as agentnet's
// host does, then breaks the exchange as the fault says.
func (ag *Agent) serveJSONRPC(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		writeError(w, nil, -32600, "unreadable body")
		return
	}
	var env map[string]json.RawMessage
	valid := json.Unmarshal(body, &env) == nil && env != nil
	var method string
	if valid {
		json.Unmarshal(env["method"], &method)
	}
	var id any
	json.Unmarshal(env["id"], &id)
	_, hasID := env["id"]

	switch f := ag.fault; {
	case f == ParseErrorCode && !json.Valid(body):
		writeError(w, nil, -32600, "bad request")
		return
	case f == InvalidRequestCode && valid && method == "":
		writeError(w, id, -32601, "method not found")
		return
	case f == MethodNotFoundCode && valid && method != "" && !knownMethods[method]:
		writeError(w, id, -32600, "invalid request")
		return
	case f == SendNotTaskOrMessage && is(method, "SendMessage", "message/send") && wellFormedSend(body) && supportedVersion(r.Header.Get(a2a.SvcParamVersion)):
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{"status": "ok"}})
		return
	case f == PushWrongCode && is(method, "CreateTaskPushNotificationConfig", "tasks/pushNotificationConfig/set"):
		writeError(w, id, -32601, "method not found")
		return
	case f == HistoryIgnored && is(method, "GetTask", "tasks/get"):
		body = editParams(body, func(p map[string]any) { delete(p, "historyLength") })
	case f == FollowUpAccepted && is(method, "SendMessage", "message/send"):
		body = editParams(body, func(p map[string]any) {
			if m, ok := p["message"].(map[string]any); ok {
				delete(m, "taskId")
			}
		})
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))

	next := ag.v1
	if strings.Contains(method, "/") {
		next = ag.v0
	}
	if valid && !hasID && method != "" && ag.fault != AnswersNotifications {
		// A notification is processed, never answered (JSON-RPC 2.0 §4.1).
		next.ServeHTTP(&discard{}, r)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if streamMethods[method] {
		ag.serveStream(w, r, next)
		return
	}

	// Answer into a recorder, so that faults can rewrite the response.
	rec := httptest.NewRecorder()
	rec.Header().Set("Content-Type", "application/json") // a2av0 sets none on errors
	next.ServeHTTP(rec, r)
	out := rec.Body.Bytes()
	ct := rec.Header().Get("Content-Type")
	var resp map[string]any
	if json.Unmarshal(out, &resp) == nil && resp != nil {
		errObj, _ := resp["error"].(map[string]any)
		code, _ := errObj["code"].(float64)
		changed := true
		switch f := ag.fault; {
		case f == InvalidParamsCode && code == -32602:
			errObj["code"] = -32603
		case f == IDNotEchoed:
			resp["id"] = "agentnet-test-wrong-id"
		case f == TaskNotFoundCode && code == -32001 && is(method, "GetTask", "tasks/get"):
			errObj["code"] = -32603
		case f == CancelFinished && code == -32002:
			delete(resp, "error")
			resp["result"] = map[string]any{"id": "finished", "contextId": "finished", "status": map[string]any{"state": "canceled"}}
		default:
			changed = false
		}
		if changed {
			out, _ = json.Marshal(resp)
		}
	}
	if ag.fault == ResponseContentType {
		ct = "text/plain; charset=utf-8"
	}
	w.Header().Set("Content-Type", ct)
	w.WriteHeader(rec.Code)
	w.Write(out)
}

// wellFormedSend reports whether a send request carries a message with a
// list of parts, so that malformed ones still get their -32602.
func wellFormedSend(body []byte) bool {
	var env struct {
		Params struct {
			Message struct {
				Parts []json.RawMessage `json:"parts"`
			} `json:"message"`
		} `json:"params"`
	}
	return json.Unmarshal(body, &env) == nil && len(env.Params.Message.Parts) > 0
}

func editParams(body []byte, edit func(map[string]any)) []byte {
	var env map[string]any
	if json.Unmarshal(body, &env) != nil {
		return body
	}
	if p, ok := env["params"].(map[string]any); ok {
		edit(p)
	}
	out, err := json.Marshal(env)
	if err != nil {
		return body
	}
	return out
}

// serveStream passes a stream through, broken as the fault says.
func (ag *Agent) serveStream(w http.ResponseWriter, r *http.Request, next http.Handler) {
	sw := &streamWriter{ResponseWriter: w, fault: ag.fault}
	next.ServeHTTP(sw, r)
	sw.flushLine()
	if ag.fault == StreamNeverCloses {
		// Hold the connection open until the client gives up.
		select {
		case <-r.Context().Done():
		case <-ag.done:
		case <-time.After(time.Minute):
		}
	}
}

// streamWriter rewrites a server-sent event stream line by line.
type streamWriter struct {
	http.ResponseWriter
	fault   Fault
	partial []byte
}

func (s *streamWriter) WriteHeader(code int) {
	if s.fault == StreamContentType {
		s.Header().Set("Content-Type", "application/json")
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *streamWriter) Write(p []byte) (int, error) {
	if s.fault != StreamNotEnvelope {
		return s.ResponseWriter.Write(p)
	}
	s.partial = append(s.partial, p...)
	for {
		i := bytes.IndexByte(s.partial, '\n')
		if i < 0 {
			break
		}
		line := s.partial[:i+1]
		if data, ok := bytes.CutPrefix(line, []byte("data: ")); ok {
			var env map[string]json.RawMessage
			if json.Unmarshal(data, &env) == nil && env["result"] != nil {
				line = append(append([]byte("data: "), env["result"]...), '\n')
			}
		}
		if _, err := s.ResponseWriter.Write(line); err != nil {
			return 0, err
		}
		s.partial = s.partial[i+1:]
	}
	return len(p), nil
}

func (s *streamWriter) flushLine() {
	if len(s.partial) > 0 {
		s.ResponseWriter.Write(s.partial)
		s.partial = nil
	}
	s.Flush()
}

func (s *streamWriter) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// discard drops a response.
type discard struct{ h http.Header }

func (d *discard) Header() http.Header {
	if d.h == nil {
		d.h = http.Header{}
	}
	return d.h
}
func (*discard) Write(p []byte) (int, error) { return len(p), nil }
func (*discard) WriteHeader(int)             {}
func (*discard) Flush()                      {}

// echo is the agent: each message becomes a task that reports working,
// returns the text as an artifact (in capitals when it starts with
// "shout") and completes.
type echo struct{}

var _ a2asrv.AgentExecutor = echo{}

func (echo) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		if ec.StoredTask == nil {
			if !yield(a2a.NewSubmittedTask(ec, ec.Message), nil) {
				return
			}
		}
		var text []string
		if ec.Message != nil {
			for _, p := range ec.Message.Parts {
				if t, ok := p.Content.(a2a.Text); ok {
					text = append(text, string(t))
				}
			}
		}
		out := strings.Join(text, "\n")
		if strings.HasPrefix(strings.ToLower(out), "shout") {
			out = strings.ToUpper(out)
		}
		working := a2a.NewMessageForTask(a2a.MessageRoleAgent, ec, a2a.NewTextPart("echoing"))
		if !yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, working), nil) {
			return
		}
		if !yield(a2a.NewArtifactEvent(ec, a2a.NewTextPart(out)), nil) {
			return
		}
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
	}
}

func (echo) Cancel(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

// finishedGuard refuses messages to finished tasks with -32004, as A2A 1.0
// requires (a2a-go answers -32602).
type finishedGuard struct {
	a2asrv.PassthroughCallInterceptor
	store taskstore.Store
}

func (g finishedGuard) Before(ctx context.Context, _ *a2asrv.CallContext, req *a2asrv.Request) (context.Context, any, error) {
	r, ok := req.Payload.(*a2a.SendMessageRequest)
	if !ok || r.Message == nil || r.Message.TaskID == "" {
		return ctx, nil, nil
	}
	st, err := g.store.Get(ctx, r.Message.TaskID)
	if err != nil || st.Task == nil || !st.Task.Status.State.Terminal() {
		return ctx, nil, nil
	}
	return ctx, nil, a2a.NewError(a2a.ErrUnsupportedOperation, fmt.Sprintf("task %s is finished", r.Message.TaskID))
}

// versionGuard refuses an A2A-Version the agent does not speak (A2A 1.0
// section 3.6.2; an empty one means 0.3).
type versionGuard struct {
	a2asrv.PassthroughCallInterceptor
}

func (versionGuard) Before(ctx context.Context, cc *a2asrv.CallContext, _ *a2asrv.Request) (context.Context, any, error) {
	if vs, ok := cc.ServiceParams().Get(a2a.SvcParamVersion); ok && len(vs) > 0 {
		if v := vs[0]; !supportedVersion(v) {
			return ctx, nil, a2a.NewError(a2a.ErrVersionNotSupported, fmt.Sprintf("A2A-Version %s is not supported (1.0 and 0.3 are)", v))
		}
	}
	return ctx, nil, nil
}

// supportedVersion reports whether the agent speaks A2A version v (empty
// means 0.3).
func supportedVersion(v string) bool {
	return v == "" || strings.HasPrefix(v, "1.") || strings.HasPrefix(v, "0.")
}
