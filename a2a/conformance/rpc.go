package conformance

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// JSON-RPC and A2A error codes the checks expect.
const (
	codeParseError        = -32700
	codeInvalidRequest    = -32600
	codeMethodNotFound    = -32601
	codeInvalidParams     = -32602
	codeTaskNotFound      = -32001
	codeTaskNotCancelable = -32002
	codePushNotSupported  = -32003
	codeUnsupportedOp     = -32004
)

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// rpcReply is a decoded JSON-RPC response.
type rpcReply struct {
	http   *reply
	id     json.RawMessage // nil when the member is absent
	result json.RawMessage
	err    *rpcError
}

// decodeRPC reads a JSON-RPC response object.
func decodeRPC(data []byte) (*rpcReply, error) {
	var env map[string]json.RawMessage
	if err := json.Unmarshal(data, &env); err != nil || env == nil {
		return nil, fmt.Errorf("not a JSON-RPC response (%s)", snippet(data))
	}
	var ver string
	if json.Unmarshal(env["jsonrpc"], &ver) != nil || ver != "2.0" {
		return nil, fmt.Errorf("not a JSON-RPC 2.0 response: jsonrpc is %s", orAbsent(env["jsonrpc"]))
	}
	r := &rpcReply{id: env["id"], result: env["result"]}
	if raw, ok := env["error"]; ok && string(raw) != "null" {
		var e rpcError
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, fmt.Errorf("the error member is not {code, message}: %s", snippet(raw))
		}
		r.err = &e
	}
	if r.err == nil && r.result == nil {
		return nil, errors.New("the response has neither result nor error")
	}
	return r, nil
}

func orAbsent(raw json.RawMessage) string {
	if raw == nil {
		return "absent"
	}
	return string(raw)
}

// snippet quotes the start of a body for a reason.
func snippet(data []byte) string {
	s := strings.Join(strings.Fields(string(data)), " ")
	if s == "" {
		return "empty body"
	}
	if r := []rune(s); len(r) > 60 {
		s = string(r[:57]) + "..."
	}
	return fmt.Sprintf("%q", s)
}

// probe runs the protocol checks against one JSON-RPC interface.
type probe struct {
	r   *run
	d   dialect
	url string
	// note explains, in failure reasons, that the probed URL is not the
	// card's.
	note string
	seq  int
	// replies are the JSON-RPC responses seen, for rpc.content-type.
	replies []seenReply
	// task is the task message/send created, if any.
	task      map[string]any
	taskState string
}

type seenReply struct{ method, contentType string }

func (p *probe) nextID() string {
	p.seq++
	return fmt.Sprintf("agentnet-audit-%d", p.seq)
}

func request(id any, method string, params any) []byte {
	m := map[string]any{"jsonrpc": "2.0", "method": method}
	if id != nil {
		m["id"] = id
	}
	if params != nil {
		m["params"] = params
	}
	data, _ := json.Marshal(m)
	return data
}

// post sends a raw body and decodes the JSON-RPC response.
func (p *probe) post(ctx context.Context, method string, body []byte) (*rpcReply, error) {
	rep, err := p.r.c.do(ctx, http.MethodPost, p.url, body, map[string]string{"Content-Type": "application/json", "Accept": "application/json", "A2A-Version": p.d.version})
	if err != nil {
		return nil, err
	}
	rr, err := decodeRPC(rep.Body)
	if err != nil {
		return nil, fmt.Errorf("HTTP %d: %w", rep.Status, err)
	}
	rr.http = rep
	p.replies = append(p.replies, seenReply{method, rep.ContentType})
	return rr, nil
}

// call sends one request with a fresh id.
func (p *probe) call(ctx context.Context, method string, params any) (*rpcReply, error) {
	return p.post(ctx, method, request(p.nextID(), method, params))
}

// wantCode returns why a reply is not the JSON-RPC error code want, or "".
func wantCode(rr *rpcReply, err error, want int) string {
	switch {
	case err != nil:
		return err.Error()
	case rr.err == nil:
		return fmt.Sprintf("answered with a result (%s), want error %d", snippet(rr.result), want)
	case rr.err.Code != want:
		return fmt.Sprintf("answered error %d (%s), want %d", rr.err.Code, oneLine(rr.err.Message), want)
	}
	return ""
}

func (p *probe) failf(id, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if p.note != "" {
		msg += " " + p.note
	}
	p.r.fail(id, p.d.version, "%s", msg)
}

func (p *probe) pass(id string)                      { p.r.pass(id, p.d.version) }
func (p *probe) skip(id, format string, args ...any) { p.r.skip(id, p.d.version, format, args...) }

// result passes check id when reason is empty and fails it otherwise.
func (p *probe) result(id, reason string) {
	if reason == "" {
		p.pass(id)
		return
	}
	p.failf(id, "%s", reason)
}

// runAll runs every protocol check in order.
func (p *probe) runAll(ctx context.Context) {
	p.envelope(ctx)
	p.unknownIDs(ctx)
	p.send(ctx)
	p.getTask(ctx)
	p.streaming(ctx)
	p.push(ctx)
	p.listTasks(ctx)
	p.version(ctx)
	p.followUp(ctx)
	p.cancelFinished(ctx)
	p.contentType()
}

func (p *probe) envelope(ctx context.Context) {
	get := p.d.get
	// rpc.parse-error: a body cut short.
	body := []byte(`{"jsonrpc": "2.0", "id": "agentnet-audit-parse", "method": "` + get + `", "params": {"id": "x"`)
	rr, err := p.post(ctx, "(invalid JSON)", body)
	p.result(RPCParseError, wantCode(rr, err, codeParseError))

	// rpc.invalid-request: three malformed envelopes.
	probes := []struct {
		what string
		body []byte
	}{
		{"a request without method", []byte(`{"jsonrpc": "2.0", "id": "agentnet-audit-ir-1", "params": {"id": "x"}}`)},
		{`jsonrpc "1.0"`, []byte(`{"jsonrpc": "1.0", "id": "agentnet-audit-ir-2", "method": "` + get + `", "params": {"id": "x"}}`)},
		{"an object id", []byte(`{"jsonrpc": "2.0", "id": {"bad": "type"}, "method": "` + get + `", "params": {"id": "x"}}`)},
	}
	reason := ""
	for _, pr := range probes {
		rr, err := p.post(ctx, "(invalid request)", pr.body)
		if why := wantCode(rr, err, codeInvalidRequest); why != "" {
			reason = pr.what + ": " + why
			break
		}
	}
	p.result(RPCInvalidRequest, reason)

	rr, err = p.call(ctx, "agentnet/no-such-method", map[string]any{})
	p.result(RPCMethodNotFound, wantCode(rr, err, codeMethodNotFound))

	rr, err = p.call(ctx, p.d.send, map[string]any{"message": map[string]any{"parts": "invalid"}})
	p.result(RPCInvalidParams, wantCode(rr, err, codeInvalidParams))

	// rpc.id-echo: a string id and a number id come back as sent.
	reason = ""
	for _, id := range []any{"agentnet-audit-echo", 4242} {
		rr, err := p.post(ctx, get, request(id, get, p.d.getParams("agentnet-audit-no-such-task", -1)))
		if err != nil {
			reason = err.Error()
			break
		}
		want, _ := json.Marshal(id)
		if !bytes.Equal(bytes.TrimSpace(rr.id), want) {
			reason = fmt.Sprintf("request id %s came back as %s", want, orAbsent(rr.id))
			break
		}
	}
	p.result(RPCIDEcho, reason)

	// rpc.notification: no id, so no response.
	rep, err := p.r.c.do(ctx, http.MethodPost, p.url, request(nil, get, p.d.getParams("agentnet-audit-notification", -1)),
		map[string]string{"Content-Type": "application/json", "A2A-Version": p.d.version})
	switch {
	case err != nil:
		p.failf(RPCNotification, "%v", err)
	case rep.Status >= 300:
		p.skip(RPCNotification, "the notification was refused with HTTP %d", rep.Status)
	default:
		if rr, derr := decodeRPC(rep.Body); derr == nil {
			what := "a result"
			if rr.err != nil {
				what = fmt.Sprintf("error %d", rr.err.Code)
			}
			p.failf(RPCNotification, "a notification was answered with %s (HTTP %d)", what, rep.Status)
		} else {
			p.pass(RPCNotification)
		}
	}
}

func (p *probe) unknownIDs(ctx context.Context) {
	rr, err := p.call(ctx, p.d.get, p.d.getParams("agentnet-audit-no-such-task", -1))
	p.result(CoreGetUnknown, wantCode(rr, err, codeTaskNotFound))
	rr, err = p.call(ctx, p.d.cancel, map[string]any{"id": "agentnet-audit-no-such-task"})
	p.result(CoreCancelUnknown, wantCode(rr, err, codeTaskNotFound))
}

// send runs core.send and keeps the task it creates.
func (p *probe) send(ctx context.Context) {
	msg := p.d.message(p.nextID()+"-msg", p.r.sampleText(), "", "")
	rr, err := p.call(ctx, p.d.send, map[string]any{"message": msg})
	if err != nil {
		p.failf(CoreSend, "%s: %v", p.d.send, err)
		return
	}
	if rr.err != nil {
		p.failf(CoreSend, "%s answered error %d: %s", p.d.send, rr.err.Code, oneLine(rr.err.Message))
		return
	}
	ev, err := p.d.decodeEvent(rr.result, false)
	if err != nil {
		p.failf(CoreSend, "%s: %v", p.d.send, err)
		return
	}
	p.pass(CoreSend)
	if ev.kind == "task" {
		p.task, p.taskState = ev.obj, ev.state
		p.settle(ctx)
	}
	if !p.d.is03() {
		if ev.kind == "task" {
			p.r.answer(BindingJSONRPC, replyText(p.task))
		} else {
			p.r.answer(BindingJSONRPC, replyText(ev.obj))
		}
	}
}

func (p *probe) taskID() string {
	s, _ := p.task["id"].(string)
	return s
}

// settle polls a task that message/send left running until it finishes or
// needs input, within the request timeout.
func (p *probe) settle(ctx context.Context) {
	deadline := time.Now().Add(p.r.c.timeout)
	for !terminal(p.taskState) && !interrupted(p.taskState) && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return
		case <-time.After(200 * time.Millisecond):
		}
		rr, err := p.call(ctx, p.d.get, p.d.getParams(p.taskID(), -1))
		if err != nil || rr.err != nil {
			return
		}
		t, err := p.d.decodeTask(rr.result)
		if err != nil {
			return
		}
		st, _ := t["status"].(map[string]any)
		s, _ := st["state"].(string)
		p.task, p.taskState = t, normState(s)
	}
}

func (p *probe) noTask(ids ...string) bool {
	if p.task != nil {
		return false
	}
	for _, id := range ids {
		p.skip(id, "%s created no task to work with", p.d.send)
	}
	return true
}

func (p *probe) getTask(ctx context.Context) {
	if p.noTask(CoreGetTask, CoreHistoryLength) {
		return
	}
	id := p.taskID()
	rr, err := p.call(ctx, p.d.get, p.d.getParams(id, -1))
	switch {
	case err != nil:
		p.failf(CoreGetTask, "%v", err)
	case rr.err != nil:
		p.failf(CoreGetTask, "%s of task %s answered error %d: %s", p.d.get, id, rr.err.Code, oneLine(rr.err.Message))
	default:
		t, err := p.d.decodeTask(rr.result)
		switch {
		case err != nil:
			p.failf(CoreGetTask, "%v", err)
		case t["id"] != id:
			p.failf(CoreGetTask, "asked for task %s, got task %v", id, t["id"])
		default:
			p.pass(CoreGetTask)
		}
	}

	rr, err = p.call(ctx, p.d.get, p.d.getParams(id, 1))
	if err != nil || rr.err != nil {
		p.skip(CoreHistoryLength, "%s with historyLength failed: %s", p.d.get, errText(rr, err))
		return
	}
	t, err := p.d.decodeTask(rr.result)
	if err != nil {
		p.skip(CoreHistoryLength, "%v", err)
		return
	}
	if n := len(listAt(t, "history")); n > 1 {
		p.failf(CoreHistoryLength, "historyLength 1 returned %d history messages", n)
		return
	}
	p.pass(CoreHistoryLength)
}

func errText(rr *rpcReply, err error) string {
	if err != nil {
		return err.Error()
	}
	if rr != nil && rr.err != nil {
		return fmt.Sprintf("error %d: %s", rr.err.Code, oneLine(rr.err.Message))
	}
	return "no error"
}

func (p *probe) followUp(ctx context.Context) {
	if p.noTask(CoreFollowUp) {
		return
	}
	id := p.taskID()
	ctxID, _ := p.task["contextId"].(string)
	msg := p.d.message(p.nextID()+"-msg", p.r.sampleText(), id, ctxID)
	rr, err := p.call(ctx, p.d.send, map[string]any{"message": msg})
	switch {
	case terminal(p.taskState):
		if why := wantCode(rr, err, codeUnsupportedOp); why != "" {
			p.failf(CoreFollowUp, "a follow-up on %s task %s: %s", p.taskState, id, why)
			return
		}
		p.pass(CoreFollowUp)
	case interrupted(p.taskState):
		if err != nil || rr.err != nil {
			p.failf(CoreFollowUp, "a follow-up on %s task %s: %s", p.taskState, id, errText(rr, err))
			return
		}
		ev, err := p.d.decodeEvent(rr.result, false)
		if err != nil {
			p.failf(CoreFollowUp, "a follow-up on task %s: %v", id, err)
			return
		}
		if ev.kind == "task" && ev.obj["id"] != id {
			p.failf(CoreFollowUp, "a follow-up on task %s started task %v instead", id, ev.obj["id"])
			return
		}
		p.pass(CoreFollowUp)
	default:
		p.skip(CoreFollowUp, "task %s is still %s", id, p.taskState)
	}
}

func (p *probe) cancelFinished(ctx context.Context) {
	if p.noTask(CoreCancelFinished) {
		return
	}
	if !terminal(p.taskState) {
		p.skip(CoreCancelFinished, "task %s is %s, not finished", p.taskID(), p.taskState)
		return
	}
	rr, err := p.call(ctx, p.d.cancel, map[string]any{"id": p.taskID()})
	p.result(CoreCancelFinished, wantCode(rr, err, codeTaskNotCancelable))
}

func (p *probe) push(ctx context.Context) {
	declared := p.r.capability("pushNotifications")
	taskID := p.taskID()
	if !declared {
		p.skip(PushConfig, "the card does not declare pushNotifications")
		if taskID == "" {
			taskID = "agentnet-audit-no-such-task"
		}
		rr, err := p.call(ctx, p.d.pushSet, p.d.pushSetParams(taskID, p.r.pushURL()))
		p.result(PushUnsupported, wantCode(rr, err, codePushNotSupported))
		return
	}
	p.skip(PushUnsupported, "the card declares pushNotifications")
	if p.noTask(PushConfig) {
		return
	}
	url := p.r.pushURL()
	rr, err := p.call(ctx, p.d.pushSet, p.d.pushSetParams(taskID, url))
	if err != nil || rr.err != nil {
		p.failf(PushConfig, "%s: %s", p.d.pushSet, errText(rr, err))
		return
	}
	rr, err = p.call(ctx, p.d.pushGet, p.d.pushGetParams(taskID))
	if err != nil || rr.err != nil {
		p.failf(PushConfig, "%s: %s", p.d.pushGet, errText(rr, err))
		return
	}
	var res map[string]any
	if json.Unmarshal(rr.result, &res) != nil || p.d.pushURL(res) != url {
		p.failf(PushConfig, "%s returned %s, want the config with url %s", p.d.pushGet, snippet(rr.result), url)
		return
	}
	p.pass(PushConfig)
}

func (p *probe) contentType() {
	for _, s := range p.replies {
		if mt, _, _ := strings.Cut(s.contentType, ";"); !strings.EqualFold(strings.TrimSpace(mt), "application/json") {
			p.failf(RPCContentType, "the answer to %s came with Content-Type %q, want application/json", s.method, s.contentType)
			return
		}
	}
	if len(p.replies) == 0 {
		p.skip(RPCContentType, "no JSON-RPC response to look at")
		return
	}
	p.pass(RPCContentType)
}

// streaming runs the stream checks: those of a declared capability, or
// stream.unsupported.
func (p *probe) streaming(ctx context.Context) {
	msg := p.d.message(p.nextID()+"-msg", p.r.sampleText(), "", "")
	reqID := p.nextID()
	body := request(reqID, p.d.stream, map[string]any{"message": msg})
	if !p.r.capability("streaming") {
		p.skip(StreamContentType, "the card does not declare streaming")
		p.skip(StreamEvents, "the card does not declare streaming")
		p.skip(StreamCloses, "the card does not declare streaming")
		p.streamRefused(ctx, body)
		return
	}
	p.skip(StreamUnsupported, "the card declares streaming")

	sctx, cancel := context.WithTimeout(ctx, p.r.c.timeout)
	defer cancel()
	resp, err := p.r.c.stream(sctx, p.url, body)
	if err != nil {
		p.failf(StreamContentType, "%v", err)
		p.skip(StreamEvents, "no event stream")
		p.skip(StreamCloses, "no event stream")
		return
	}
	defer resp.Body.Close()
	ct := resp.Header.Get("Content-Type")
	if mt, _, _ := strings.Cut(ct, ";"); resp.StatusCode != http.StatusOK || !strings.EqualFold(strings.TrimSpace(mt), "text/event-stream") {
		head, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		p.failf(StreamContentType, "%s answered HTTP %d with Content-Type %q, want text/event-stream (%s)", p.d.stream, resp.StatusCode, ct, snippet(head))
		p.skip(StreamEvents, "no event stream")
		p.skip(StreamCloses, "no event stream")
		return
	}
	p.pass(StreamContentType)

	events := make(chan []byte)
	done := make(chan error, 1)
	go func() { done <- readSSE(io.LimitReader(resp.Body, p.r.c.maxBody), events, sctx.Done()) }()

	var (
		n          int
		eventsWhy  string
		closesWhy  string
		finalSeen  bool
		grace      <-chan time.Time
		errorEvent *rpcError
	)
	wantID, _ := json.Marshal(reqID)
loop:
	for {
		select {
		case data := <-events:
			n++
			if finalSeen && closesWhy == "" {
				closesWhy = fmt.Sprintf("event %d came after the final event", n)
			}
			result := json.RawMessage(data)
			rr, err := decodeRPC(data)
			switch {
			case err != nil:
				if eventsWhy == "" {
					eventsWhy = fmt.Sprintf("event %d is not a JSON-RPC response: %v", n, err)
				}
			case !bytes.Equal(bytes.TrimSpace(rr.id), wantID):
				if eventsWhy == "" {
					eventsWhy = fmt.Sprintf("event %d carries id %s, want %s", n, orAbsent(rr.id), wantID)
				}
				result = rr.result
			case rr.err != nil:
				errorEvent = rr.err
				result = nil
			default:
				result = rr.result
			}
			if errorEvent != nil && result == nil {
				finalSeen = true // an error ends the stream
			} else if ev, err := p.d.decodeEvent(result, true); err != nil {
				if eventsWhy == "" {
					eventsWhy = fmt.Sprintf("event %d: %v", n, err)
				}
			} else if ev.final() {
				finalSeen = true
			}
			if finalSeen && grace == nil {
				grace = time.After(p.r.a.streamGrace)
			}
		case err := <-done:
			if err != nil && closesWhy == "" && !finalSeen {
				closesWhy = fmt.Sprintf("reading the stream: %v", err)
			}
			break loop
		case <-grace:
			if closesWhy == "" {
				closesWhy = fmt.Sprintf("the stream stayed open %s after the final event", p.r.a.streamGrace)
			}
			break loop
		case <-sctx.Done():
			if closesWhy == "" {
				closesWhy = fmt.Sprintf("no final event within %s", p.r.c.timeout)
			}
			break loop
		}
	}
	cancel()
	switch {
	case eventsWhy != "":
		p.failf(StreamEvents, "%s", eventsWhy)
	case n == 0:
		p.failf(StreamEvents, "the stream carried no event")
	case errorEvent != nil && n == 1:
		p.failf(StreamEvents, "the stream carried only error %d: %s", errorEvent.Code, oneLine(errorEvent.Message))
	default:
		p.pass(StreamEvents)
	}
	switch {
	case closesWhy != "":
		p.failf(StreamCloses, "%s", closesWhy)
	case !finalSeen:
		p.failf(StreamCloses, "the stream closed after %d events without a final one", n)
	default:
		p.pass(StreamCloses)
	}
}

// streamRefused checks that an agent without streaming refuses
// message/stream with -32004, as a JSON-RPC response or as the first event
// of a stream.
func (p *probe) streamRefused(ctx context.Context, body []byte) {
	rep, err := p.r.c.do(ctx, http.MethodPost, p.url, body, map[string]string{"Content-Type": "application/json", "Accept": "text/event-stream, application/json"})
	if err != nil {
		p.failf(StreamUnsupported, "%v", err)
		return
	}
	data := rep.Body
	if rep.mediaType() == "text/event-stream" {
		ch := make(chan []byte, 1)
		stop := make(chan struct{})
		go readSSE(bytes.NewReader(rep.Body), ch, stop)
		select {
		case data = <-ch:
		case <-time.After(time.Second):
			data = nil
		}
		close(stop)
	}
	// A stream that carries the error as its first event refuses too.
	rr, err := decodeRPC(data)
	p.result(StreamUnsupported, wantCode(rr, err, codeUnsupportedOp))
}

// readSSE sends the data of each server-sent event on events until the
// reader ends or stop closes; it returns the read error, nil at EOF.
func readSSE(r io.Reader, events chan<- []byte, stop <-chan struct{}) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var data []string
	emit := func() bool {
		if len(data) == 0 {
			return true
		}
		ev := []byte(strings.Join(data, "\n"))
		data = nil
		select {
		case events <- ev:
			return true
		case <-stop:
			return false
		}
	}
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if !emit() {
				return nil
			}
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "data:"):
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
	}
	emit()
	return sc.Err()
}
