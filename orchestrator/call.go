package orchestrator

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"

	"github.com/agentnet/agentnet/a2a/proxy"
)

// attempt collects what the HTTP layer saw during one call: a transport
// failure is known there, whatever error a2aclient makes of it.
type attempt struct {
	mu  sync.Mutex
	err error
}

func (a *attempt) fail(err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.err == nil {
		a.err = err
	}
}

func (a *attempt) transportErr() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}

type attemptKey struct{}

// classifying is the client's transport: it marks transport failures —
// no connection, a gateway or unavailability status, a body cut off — on
// the call's attempt.
// It also tags each request with the chain's tag.
type classifying struct {
	base http.RoundTripper
	tag  string
}

func (c classifying) RoundTrip(req *http.Request) (*http.Response, error) {
	if c.tag != "" {
		req = req.Clone(req.Context())
		req.Header.Set(TagHeader, c.tag)
	}
	at, _ := req.Context().Value(attemptKey{}).(*attempt)
	resp, err := c.base.RoundTrip(req)
	if at == nil {
		return resp, err
	}
	if err != nil {
		if req.Context().Err() == nil {
			at.fail(err)
		}
		return resp, err
	}
	switch resp.StatusCode {
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		// The head of the body says why (the proxy names the dial error);
		// the body is handed on whole.
		head := make([]byte, 512)
		n, _ := io.ReadFull(resp.Body, head)
		head = head[:n]
		resp.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
		why := strings.TrimSpace(strings.ToValidUTF8(string(head), "?"))
		if i := strings.IndexByte(why, '\n'); i >= 0 {
			why = why[:i]
		}
		at.fail(fmt.Errorf("HTTP %s: %s", resp.Status, why))
	}
	resp.Body = &watchedBody{ReadCloser: resp.Body, at: at, ctx: req.Context()}
	return resp, nil
}

type watchedBody struct {
	io.ReadCloser
	at  *attempt
	ctx context.Context
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF && b.ctx.Err() == nil {
		b.at.fail(fmt.Errorf("the answer broke off: %w", err))
	}
	return n, err
}

// callResult is the end of one call to an agent, after retries.
type callResult struct {
	outcome   Outcome
	detail    string
	state     a2a.TaskState
	taskID    string
	contextID string
	out       Output
	arts      []Artifact
	attempts  int
}

// agentClient returns an A2A client for card whose interfaces are reached
// through the proxy at proxyOrigin instead of the agent's own origin.
func agentClient(ctx context.Context, hc *http.Client, card *a2a.AgentCard, agentOrigin, proxyOrigin string) (*a2aclient.Client, error) {
	c := *card
	c.SupportedInterfaces = nil
	for _, iface := range card.SupportedInterfaces {
		if iface == nil {
			continue
		}
		cp := *iface
		cp.URL = string(proxy.ReplaceOrigin([]byte(iface.URL), agentOrigin, proxyOrigin))
		c.SupportedInterfaces = append(c.SupportedInterfaces, &cp)
	}
	return a2aclient.NewFromCard(ctx, &c,
		a2aclient.WithDefaultsDisabled(),
		a2aclient.WithJSONRPCTransport(hc),
		a2aclient.WithCompatTransport(a2av0.Version, a2a.TransportProtocolJSONRPC, a2av0.NewJSONRPCTransportFactory(a2av0.JSONRPCTransportConfig{Client: hc})),
	)
}

// call sends msg to the agent through its proxy and waits for the task to
// end, retrying transport failures with backoff. ctx carries the step's
// deadline.
func (s *session) call(ctx context.Context, card *a2a.AgentCard, agentOrigin, proxyOrigin string, msg *a2a.Message) callResult {
	var res callResult
	delay := s.r.backoff
	for n := 1; ; n++ {
		res = s.callOnce(ctx, card, agentOrigin, proxyOrigin, msg)
		res.attempts = n
		if res.outcome != TransportFailed || n >= s.r.attempts {
			return res
		}
		s.r.log.Info("transport failure; retrying", "agent", card.Name, "attempt", n, "err", res.detail, "in", delay)
		select {
		case <-ctx.Done():
			res.outcome, res.detail = ctxOutcome(ctx, res.detail)
			return res
		case <-time.After(delay):
		}
		delay = min(delay*2, s.r.maxBackoff)
	}
}

func (s *session) callOnce(ctx context.Context, card *a2a.AgentCard, agentOrigin, proxyOrigin string, msg *a2a.Message) (res callResult) {
	at := &attempt{}
	actx := context.WithValue(ctx, attemptKey{}, at)
	client, err := agentClient(actx, s.client, card, agentOrigin, proxyOrigin)
	if err != nil {
		return callResult{outcome: ProtocolError, detail: fmt.Sprintf("no usable interface on the card: %v", err)}
	}
	defer client.Destroy()

	var statusMsg string
	arts := map[a2a.ArtifactID]*a2a.Artifact{}
	var order []a2a.ArtifactID
	addArtifact := func(a *a2a.Artifact, appendTo bool) {
		if a == nil {
			return
		}
		if prev, ok := arts[a.ID]; ok && appendTo {
			prev.Parts = append(prev.Parts, a.Parts...)
			return
		}
		if _, ok := arts[a.ID]; !ok {
			order = append(order, a.ID)
		}
		cp := *a
		arts[a.ID] = &cp
	}
	var direct *a2a.Message
	var streamErr error
	for ev, err := range client.SendStreamingMessage(actx, &a2a.SendMessageRequest{Message: msg}) {
		if err != nil {
			streamErr = err
			break
		}
		switch e := ev.(type) {
		case *a2a.Task:
			res.taskID, res.contextID, res.state = string(e.ID), e.ContextID, e.Status.State
			statusMsg = MessageText(e.Status.Message)
			for _, a := range e.Artifacts {
				addArtifact(a, false)
			}
		case *a2a.Message:
			direct = e
			res.contextID = e.ContextID
			res.state = a2a.TaskStateCompleted
		case *a2a.TaskStatusUpdateEvent:
			res.taskID, res.contextID, res.state = string(e.TaskID), e.ContextID, e.Status.State
			if t := MessageText(e.Status.Message); t != "" {
				statusMsg = t
			}
		case *a2a.TaskArtifactUpdateEvent:
			res.taskID, res.contextID = string(e.TaskID), e.ContextID
			addArtifact(e.Artifact, e.Append)
		}
	}
	if streamErr != nil {
		res.outcome, res.detail = s.classify(ctx, at, streamErr)
		s.cancelTask(ctx, client, res)
		return res
	}
	// A stream (or answer) that ended before the task did: ask for the task
	// until it ends.
	if direct == nil && !terminal(res.state) && res.taskID != "" {
		task, err := s.await(actx, client, res.taskID)
		if err != nil {
			res.outcome, res.detail = s.classify(ctx, at, err)
			s.cancelTask(ctx, client, res)
			return res
		}
		res.state, statusMsg = task.Status.State, MessageText(task.Status.Message)
		for _, a := range task.Artifacts {
			addArtifact(a, false)
		}
	}
	var parts []*a2a.Part
	if direct != nil {
		parts = direct.Parts
	} else {
		for _, id := range order {
			parts = append(parts, arts[id].Parts...)
		}
	}
	res.out, res.arts = collect(parts, arts, order)
	switch res.state {
	case a2a.TaskStateCompleted:
		res.outcome = OK
		if empty(res.out) {
			// A task that completed with nothing to show did not do the
			// step: the next step would get no input.
			res.outcome, res.detail = EmptyAnswer, "the agent completed the task with no text and no file"
			if statusMsg != "" {
				res.detail += "; it said: " + statusMsg
			}
		}
	case a2a.TaskStateInputRequired, a2a.TaskStateAuthRequired:
		res.outcome, res.detail = AgentFailed, "the agent asked for more input: "+statusMsg
	case a2a.TaskStateFailed, a2a.TaskStateRejected, a2a.TaskStateCanceled:
		res.outcome = AgentFailed
		res.detail = fmt.Sprintf("the task ended %s", StateName(res.state))
		if statusMsg != "" {
			res.detail += ": " + statusMsg
		}
	default:
		res.outcome, res.detail = ProtocolError, fmt.Sprintf("the answer ended without a final task state (last: %s)", StateName(res.state))
	}
	return res
}

// empty reports whether an output holds nothing: no file and no text but
// white space.
func empty(o Output) bool {
	return len(o.Files) == 0 && strings.TrimSpace(o.Text) == ""
}

// await polls a task until it ends.
func (s *session) await(ctx context.Context, client *a2aclient.Client, id string) (*a2a.Task, error) {
	delay := 50 * time.Millisecond
	for {
		task, err := client.GetTask(ctx, &a2a.GetTaskRequest{ID: a2a.TaskID(id)})
		if err != nil {
			return nil, err
		}
		if terminal(task.Status.State) {
			return task, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(delay):
		}
		delay = min(delay*2, time.Second)
	}
}

// cancelTask asks the agent to cancel a task the step gave up on, briefly
// and whatever the step's context says.
func (s *session) cancelTask(ctx context.Context, client *a2aclient.Client, res callResult) {
	if res.taskID == "" || (res.outcome != Timeout && res.outcome != Canceled) {
		return
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if _, err := client.CancelTask(cctx, &a2a.CancelTaskRequest{ID: a2a.TaskID(res.taskID)}); err != nil {
		s.r.log.Debug("cancel task", "task", res.taskID, "err", err)
	}
}

// classify turns a call's error into an outcome.
func (s *session) classify(ctx context.Context, at *attempt, err error) (Outcome, string) {
	if ctx.Err() != nil {
		return ctxOutcome(ctx, err.Error())
	}
	if terr := at.transportErr(); terr != nil {
		return TransportFailed, terr.Error()
	}
	var ae *a2a.Error
	if errors.As(err, &ae) {
		return AgentFailed, "the agent answered with an error: " + err.Error()
	}
	return ProtocolError, "the answer is not valid A2A: " + err.Error()
}

// ctxOutcome names why ctx ended: the step's deadline or the run's cancel.
func ctxOutcome(ctx context.Context, detail string) (Outcome, string) {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return Timeout, "no final answer before the step's timeout"
	}
	return Canceled, "the run was canceled"
}

// collect turns artifact parts into an output: text parts make the text,
// file parts the files; data parts are added to the text as JSON.
func collect(parts []*a2a.Part, arts map[a2a.ArtifactID]*a2a.Artifact, order []a2a.ArtifactID) (Output, []Artifact) {
	var out Output
	var text strings.Builder
	var list []Artifact
	names := map[string]int{}
	for _, p := range parts {
		if p == nil {
			continue
		}
		switch c := p.Content.(type) {
		case a2a.Text:
			text.WriteString(string(c))
		case a2a.Data:
			if b, err := jsonText(c.Value); err == nil {
				text.WriteString(b)
			}
		case a2a.Raw:
			name := p.Filename
			if name == "" {
				name = fmt.Sprintf("file-%d", len(out.Files)+1)
			}
			// Two files of one name would overwrite each other at the next agent.
			if n := names[name]; n > 0 {
				name = fmt.Sprintf("%d-%s", n+1, name)
			}
			names[p.Filename]++
			out.Files = append(out.Files, File{Name: name, MediaType: p.MediaType, Data: []byte(c)})
			list = append(list, Artifact{Name: name, MediaType: p.MediaType, Bytes: len(c)})
		}
	}
	out.Text = text.String()
	if out.Text != "" {
		list = append([]Artifact{{Name: "output", MediaType: "text/plain", Bytes: len(out.Text)}}, list...)
	}
	if list == nil {
		list = []Artifact{}
	}
	return out, list
}

// MessageText is the text of a message's parts, trimmed ("" for nil).
func MessageText(m *a2a.Message) string {
	if m == nil {
		return ""
	}
	var b strings.Builder
	for _, p := range m.Parts {
		if p != nil {
			b.WriteString(p.Text())
		}
	}
	return strings.TrimSpace(b.String())
}

// StateName is a task state as people say it: "completed", "failed".
func StateName(s a2a.TaskState) string {
	if s == a2a.TaskStateUnspecified {
		return "none"
	}
	return strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(string(s), "TASK_STATE_")), "_", "-")
}
