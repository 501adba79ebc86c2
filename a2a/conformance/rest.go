package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// restProbe runs the checks of an HTTP+JSON (REST) interface (A2A 1.0
// section 11): resource paths, HTTP status codes, the google.rpc.Status
// error body with its ErrorInfo, ListTasks paging, streams, SubscribeToTask
// and the A2A-Version header.
type restProbe struct {
	r    *run
	base string // the interface URL without a trailing slash
	seq  int
	task map[string]any
	// contentTypes are the media types of the JSON responses seen.
	contentTypes []string
}

// errorInfoDomain is the domain of A2A's google.rpc.ErrorInfo details.
const errorInfoDomain = "a2a-protocol.org"

func (p *restProbe) pass(id string) { p.r.pass(id, "1.0") }
func (p *restProbe) failf(id, format string, args ...any) {
	p.r.fail(id, "1.0", format, args...)
}
func (p *restProbe) skip(id, format string, args ...any) { p.r.skip(id, "1.0", format, args...) }
func (p *restProbe) result(id, why string) {
	if why == "" {
		p.pass(id)
	} else {
		p.failf(id, "%s", why)
	}
}

func (p *restProbe) do(ctx context.Context, method, path string, body any, version string) (*reply, error) {
	var data []byte
	if body != nil {
		data, _ = json.Marshal(body)
	}
	h := map[string]string{"Accept": "application/json", "A2A-Version": version}
	if body != nil {
		h["Content-Type"] = "application/json"
	}
	rep, err := p.r.c.do(ctx, method, p.base+path, data, h)
	if err == nil && len(rep.Body) > 0 {
		p.contentTypes = append(p.contentTypes, rep.mediaType())
	}
	return rep, err
}

func (p *restProbe) message(text string) map[string]any {
	p.seq++
	return map[string]any{"message": v10.message(fmt.Sprintf("agentnet-audit-rest-%d", p.seq), text, "", "")}
}

// restChecks lists the checks of a REST interface.
var restChecks = []string{RESTSend, RESTGetTask, RESTNotFound, RESTErrorInfo, RESTCancelNotFound, RESTCancelFinished, RESTListTasks,
	RESTStream, RESTSubscribe, RESTVersion, RESTContentType}

func (p *restProbe) runAll(ctx context.Context) {
	p.send(ctx)
	p.getTask(ctx)
	p.notFound(ctx)
	p.listTasks(ctx)
	p.stream(ctx)
	p.subscribeFinished(ctx)
	p.cancelFinished(ctx)
	p.version(ctx)
	var other []string
	for _, ct := range p.contentTypes {
		if ct != "application/a2a+json" && !contains(other, ct) {
			other = append(other, ct)
		}
	}
	if len(other) > 0 {
		p.failf(RESTContentType, "responses are served as %s, not application/a2a+json", strings.Join(other, ", "))
	} else {
		p.pass(RESTContentType)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (p *restProbe) send(ctx context.Context) {
	text := p.r.sampleText()
	rep, err := p.do(ctx, http.MethodPost, "/message:send", p.message(text), "1.0")
	if err != nil {
		p.failf(RESTSend, "%v", err)
		return
	}
	if rep.Status != http.StatusOK {
		p.failf(RESTSend, "POST /message:send answered HTTP %d: %s", rep.Status, snippet(rep.Body))
		return
	}
	ev, err := v10.decodeEvent(rep.Body, false)
	if err != nil {
		p.failf(RESTSend, "POST /message:send: %v", err)
		return
	}
	p.pass(RESTSend)
	if ev.kind == "task" {
		p.task = ev.obj
		p.settle(ctx)
		p.r.answer("rest", replyText(p.task))
	} else {
		p.r.answer("rest", replyText(ev.obj))
	}
}

func (p *restProbe) taskID() string {
	s, _ := p.task["id"].(string)
	return s
}

// settle polls the task until it finishes or needs input.
func (p *restProbe) settle(ctx context.Context) {
	deadline := time.Now().Add(p.r.c.timeout)
	for {
		st, _ := p.task["status"].(map[string]any)
		s, _ := st["state"].(string)
		if s = normState(s); terminal(s) || interrupted(s) || time.Now().After(deadline) {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(200 * time.Millisecond):
		}
		rep, err := p.do(ctx, http.MethodGet, "/tasks/"+url.PathEscape(p.taskID()), nil, "1.0")
		if err != nil || rep.Status != http.StatusOK {
			return
		}
		var t map[string]any
		if json.Unmarshal(rep.Body, &t) != nil {
			return
		}
		p.task = t
	}
}

func (p *restProbe) getTask(ctx context.Context) {
	if p.task == nil {
		p.skip(RESTGetTask, "POST /message:send created no task to work with")
		return
	}
	rep, err := p.do(ctx, http.MethodGet, "/tasks/"+url.PathEscape(p.taskID()), nil, "1.0")
	switch {
	case err != nil:
		p.failf(RESTGetTask, "%v", err)
	case rep.Status != http.StatusOK:
		p.failf(RESTGetTask, "GET /tasks/{id} answered HTTP %d: %s", rep.Status, snippet(rep.Body))
	default:
		var t map[string]any
		if err := json.Unmarshal(rep.Body, &t); err != nil || t["id"] != p.taskID() {
			p.failf(RESTGetTask, "GET /tasks/{id} did not return task %s: %s", p.taskID(), snippet(rep.Body))
			return
		}
		p.pass(RESTGetTask)
	}
}

// restError reads a google.rpc.Status error body: why it is not the
// A2A error reason want, or "".
func restError(rep *reply, status int, reason string) string {
	var body struct {
		Error *struct {
			Code    int              `json:"code"`
			Status  string           `json:"status"`
			Message string           `json:"message"`
			Details []map[string]any `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal(rep.Body, &body); err != nil || body.Error == nil {
		return fmt.Sprintf("the error body is not a google.rpc.Status object {\"error\": {...}}: %s", snippet(rep.Body))
	}
	if body.Error.Code != status {
		return fmt.Sprintf("error.code is %d, want the HTTP status %d", body.Error.Code, status)
	}
	for _, d := range body.Error.Details {
		if t, _ := d["@type"].(string); strings.HasSuffix(t, "google.rpc.ErrorInfo") {
			if d["reason"] != reason || d["domain"] != errorInfoDomain {
				return fmt.Sprintf("ErrorInfo has reason %v and domain %v, want %s and %s", d["reason"], d["domain"], reason, errorInfoDomain)
			}
			return ""
		}
	}
	return fmt.Sprintf("error.details has no google.rpc.ErrorInfo (reason %s, domain %s)", reason, errorInfoDomain)
}

const unknownTaskID = "agentnet-audit-no-such-task"

func (p *restProbe) notFound(ctx context.Context) {
	rep, err := p.do(ctx, http.MethodGet, "/tasks/"+unknownTaskID, nil, "1.0")
	switch {
	case err != nil:
		p.failf(RESTNotFound, "%v", err)
		p.skip(RESTErrorInfo, "no error answer")
	case rep.Status != http.StatusNotFound:
		p.failf(RESTNotFound, "GET /tasks/{unknown} answered HTTP %d, want 404 (TaskNotFoundError): %s", rep.Status, snippet(rep.Body))
		p.result(RESTErrorInfo, restError(rep, rep.Status, "TASK_NOT_FOUND"))
	default:
		p.pass(RESTNotFound)
		p.result(RESTErrorInfo, restError(rep, http.StatusNotFound, "TASK_NOT_FOUND"))
	}
	rep, err = p.do(ctx, http.MethodPost, "/tasks/"+unknownTaskID+":cancel", map[string]any{}, "1.0")
	switch {
	case err != nil:
		p.failf(RESTCancelNotFound, "%v", err)
	case rep.Status != http.StatusNotFound:
		p.failf(RESTCancelNotFound, "POST /tasks/{unknown}:cancel answered HTTP %d, want 404: %s", rep.Status, snippet(rep.Body))
	default:
		p.pass(RESTCancelNotFound)
	}
}

// listTasks pages through GET /tasks one task at a time, following
// nextPageToken (at most 3 pages): the token must be present on every
// page and empty on the last.
func (p *restProbe) listTasks(ctx context.Context) {
	if p.task == nil {
		p.skip(RESTListTasks, "POST /message:send created no task to list")
		return
	}
	p.r.c.do(ctx, http.MethodPost, p.base+"/message:send", mustJSON(p.message(p.r.sampleText())), map[string]string{"Content-Type": "application/json", "A2A-Version": "1.0"})
	token, seen := "", 0
	for page := 1; page <= 3; page++ {
		q := url.Values{"pageSize": {"1"}}
		if token != "" {
			q.Set("pageToken", token)
		}
		rep, err := p.do(ctx, http.MethodGet, "/tasks?"+q.Encode(), nil, "1.0")
		if err != nil {
			p.failf(RESTListTasks, "%v", err)
			return
		}
		if rep.Status == http.StatusUnauthorized {
			p.skip(RESTListTasks, "GET /tasks answered HTTP 401: ListTasks lists a caller's tasks only to an authenticated caller, and the audit sends no credentials")
			return
		}
		if rep.Status != http.StatusOK {
			p.failf(RESTListTasks, "GET /tasks answered HTTP %d: %s", rep.Status, snippet(rep.Body))
			return
		}
		var body map[string]json.RawMessage
		if err := json.Unmarshal(rep.Body, &body); err != nil {
			p.failf(RESTListTasks, "GET /tasks: %v", err)
			return
		}
		var tasks []any
		json.Unmarshal(body["tasks"], &tasks)
		if len(tasks) > 1 {
			p.failf(RESTListTasks, "GET /tasks?pageSize=1 returned %d tasks", len(tasks))
			return
		}
		seen += len(tasks)
		raw, ok := body["nextPageToken"]
		if !ok {
			p.failf(RESTListTasks, "page %d has no nextPageToken (CORE-LIST-004: it must always be present, \"\" on the last page)", page)
			return
		}
		json.Unmarshal(raw, &token)
		if token == "" {
			break
		}
	}
	if seen == 0 {
		p.failf(RESTListTasks, "GET /tasks listed no task, though POST /message:send created %s", p.taskID())
		return
	}
	p.pass(RESTListTasks)
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// sse opens a REST stream and reads its events' data.
func (p *restProbe) sse(ctx context.Context, path string, body any) (int, string, [][]byte, error) {
	sctx, cancel := context.WithTimeout(ctx, p.r.c.timeout)
	defer cancel()
	resp, err := p.r.c.stream(sctx, p.base+path, mustJSON(body))
	if err != nil {
		return 0, "", nil, err
	}
	defer resp.Body.Close()
	ct := resp.Header.Get("Content-Type")
	if mt, _, _ := strings.Cut(ct, ";"); !strings.EqualFold(strings.TrimSpace(mt), "text/event-stream") {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, p.r.c.maxBody))
		return resp.StatusCode, ct, [][]byte{data}, nil
	}
	events := make(chan []byte)
	done := make(chan error, 1)
	go func() { done <- readSSE(io.LimitReader(resp.Body, p.r.c.maxBody), events, sctx.Done()) }()
	var out [][]byte
	for {
		select {
		case ev := <-events:
			out = append(out, ev)
		case err := <-done:
			return resp.StatusCode, ct, out, err
		case <-sctx.Done():
			return resp.StatusCode, ct, out, fmt.Errorf("the stream did not end within %s", p.r.c.timeout)
		}
	}
}

func (p *restProbe) stream(ctx context.Context) {
	if !p.r.capability("streaming") {
		p.skip(RESTStream, "the card does not declare streaming")
		return
	}
	status, ct, events, err := p.sse(ctx, "/message:stream", p.message(p.r.sampleText()))
	switch {
	case err != nil:
		p.failf(RESTStream, "POST /message:stream: %v", err)
		return
	case status != http.StatusOK || !strings.HasPrefix(strings.ToLower(ct), "text/event-stream"):
		p.failf(RESTStream, "POST /message:stream answered HTTP %d with Content-Type %q, want text/event-stream", status, ct)
		return
	case len(events) == 0:
		p.failf(RESTStream, "POST /message:stream sent no event")
		return
	}
	for i, data := range events {
		if _, err := v10.decodeEvent(data, true); err != nil {
			p.failf(RESTStream, "event %d is not a StreamResponse: %v", i+1, err)
			return
		}
	}
	p.pass(RESTStream)
}

// subscribeFinished subscribes to the finished task: the spec refuses a
// subscription to a task in a terminal state (UnsupportedOperationError,
// HTTP 400).
func (p *restProbe) subscribeFinished(ctx context.Context) {
	st, _ := p.task["status"].(map[string]any)
	state, _ := st["state"].(string)
	switch {
	case !p.r.capability("streaming"):
		p.skip(RESTSubscribe, "the card does not declare streaming")
		return
	case p.task == nil || !terminal(normState(state)):
		p.skip(RESTSubscribe, "no finished task to subscribe to")
		return
	}
	status, _, events, err := p.sse(ctx, "/tasks/"+url.PathEscape(p.taskID())+":subscribe", map[string]any{})
	if err != nil {
		p.failf(RESTSubscribe, "POST /tasks/{id}:subscribe: %v", err)
		return
	}
	if status != http.StatusBadRequest || len(events) != 1 {
		p.failf(RESTSubscribe, "POST /tasks/{id}:subscribe of a %s task answered HTTP %d with %d events, want 400 UNSUPPORTED_OPERATION", normState(state), status, len(events))
		return
	}
	p.result(RESTSubscribe, restError(&reply{Body: events[0]}, http.StatusBadRequest, "UNSUPPORTED_OPERATION"))
}

func (p *restProbe) cancelFinished(ctx context.Context) {
	st, _ := p.task["status"].(map[string]any)
	state, _ := st["state"].(string)
	if p.task == nil || !terminal(normState(state)) {
		p.skip(RESTCancelFinished, "no finished task to cancel")
		return
	}
	rep, err := p.do(ctx, http.MethodPost, "/tasks/"+url.PathEscape(p.taskID())+":cancel", map[string]any{}, "1.0")
	switch {
	case err != nil:
		p.failf(RESTCancelFinished, "%v", err)
	case rep.Status != http.StatusBadRequest:
		p.failf(RESTCancelFinished, "POST /tasks/{id}:cancel of a %s task answered HTTP %d, want 400 TASK_NOT_CANCELABLE: %s", normState(state), rep.Status, snippet(rep.Body))
	default:
		p.result(RESTCancelFinished, restError(rep, http.StatusBadRequest, "TASK_NOT_CANCELABLE"))
	}
}

func (p *restProbe) version(ctx context.Context) {
	rep, err := p.do(ctx, http.MethodPost, "/message:send", p.message(p.r.sampleText()), unsupportedVersion)
	switch {
	case err != nil:
		p.failf(RESTVersion, "%v", err)
	case rep.Status != http.StatusBadRequest:
		p.failf(RESTVersion, "A2A-Version %s was answered HTTP %d, want 400 VERSION_NOT_SUPPORTED", unsupportedVersion, rep.Status)
	default:
		p.result(RESTVersion, restError(rep, http.StatusBadRequest, "VERSION_NOT_SUPPORTED"))
	}
}

// unsupportedVersion is an A2A version no agent speaks.
const unsupportedVersion = "99.0"

// replyText is the text of an answer: a message's text parts, or a task's
// artifacts' text parts (its status message's when it has no artifact).
func replyText(obj map[string]any) string {
	texts := func(parts []any) []string {
		var out []string
		for _, pt := range parts {
			m, _ := pt.(map[string]any)
			if s, ok := m["text"].(string); ok {
				out = append(out, strings.TrimSpace(s))
			}
		}
		return out
	}
	if parts, ok := obj["parts"].([]any); ok {
		return strings.Join(texts(parts), "\n")
	}
	var out []string
	arts, _ := obj["artifacts"].([]any)
	for _, a := range arts {
		m, _ := a.(map[string]any)
		ps, _ := m["parts"].([]any)
		out = append(out, texts(ps)...)
	}
	if len(out) == 0 {
		st, _ := obj["status"].(map[string]any)
		msg, _ := st["message"].(map[string]any)
		ps, _ := msg["parts"].([]any)
		out = texts(ps)
	}
	return strings.Join(out, "\n")
}
