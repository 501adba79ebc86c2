package host

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// directHandler answers a blocking SendMessage that starts a new task
// itself, on every binding, and passes every other call to a2a-go's
// handler. It sits under a2a-go's InterceptedHandler, so the host's call
// interceptors (versionGuard, messageLimits, finishedTaskGuard) and
// a2a-go's call context run before it as before.
//
// a2a-go runs every message through its task manager: an executor and an
// event processor in goroutines of their own joined by an event queue,
// each event deep-copied twice with encoding/gob (a fresh encoder and
// decoder, so type descriptions and all) before the store sees it — about a
// third of the host's own time per small message (see BENCHMARKS.md). A
// blocking call's client sees only the task as it ended, so there is
// nothing to queue or copy: the executor runs in the request's goroutine,
// its events are folded into the task, and the task is stored once, when it
// has ended, as a2a-go would store it. Streams, tasks continued by a later
// message, ReturnImmediately and push configurations keep a2a-go's path.
type directHandler struct {
	a2asrv.RequestHandler // a2a-go's handler: everything not answered here
	h                     *Host

	mu      sync.Mutex
	running map[a2a.TaskID]*directRun // streams answered here, until they end
}

// direct puts a directHandler under handler, which must be what
// a2asrv.NewHandler returned; any other handler is returned unchanged.
func (h *Host) direct(handler a2asrv.RequestHandler) a2asrv.RequestHandler {
	if ih, ok := handler.(*a2asrv.InterceptedHandler); ok {
		ih.Handler = &directHandler{RequestHandler: ih.Handler, h: h}
	}
	return handler
}

// SendMessage implements a2asrv.RequestHandler.
func (d *directHandler) SendMessage(ctx context.Context, req *a2a.SendMessageRequest) (a2a.SendMessageResult, error) {
	if !d.takes(ctx, req) {
		return d.RequestHandler.SendMessage(ctx, req)
	}
	ec := newExecution(ctx, req)
	// As a2a-go runs a task: to its end, whether or not the caller waits.
	res, err := d.run(context.WithoutCancel(ctx), ec)
	if err != nil {
		return nil, err
	}
	if t, ok := res.(*a2a.Task); ok {
		if _, err := d.h.store.Create(ctx, t); err != nil { // a copy: the answer is t's to trim
			return nil, fmt.Errorf("failed to save task state: %w", err)
		}
		trimHistory(t, req.Config)
	}
	return res, nil
}

// newExecution returns the executor context of a new task for req, as
// a2a-go makes it: a fresh task id, the message's context or a new one, and
// the caller as the call context knows it.
func newExecution(ctx context.Context, req *a2a.SendMessageRequest) *a2asrv.ExecutorContext {
	m := req.Message
	ec := &a2asrv.ExecutorContext{Message: m, TaskID: a2a.NewTaskID(), ContextID: m.ContextID, Metadata: req.Metadata, Tenant: req.Tenant}
	if ec.ContextID == "" {
		ec.ContextID = a2a.NewContextID()
	}
	if cc, ok := a2asrv.CallContextFrom(ctx); ok {
		ec.User, ec.ServiceParams, ec.Tenant = cc.User, cc.ServiceParams(), cc.Tenant()
	}
	return ec
}

// trimHistory keeps the last HistoryLength messages of the answered task's
// history when the call asked for at most so many (A2A 1.0: zero asks for
// none, so that a payload the message brought is not carried back); the
// stored task keeps them all.
func trimHistory(t *a2a.Task, cfg *a2a.SendMessageConfig) {
	if cfg == nil || cfg.HistoryLength == nil || *cfg.HistoryLength < 0 || *cfg.HistoryLength >= len(t.History) {
		return
	}
	t.History = t.History[len(t.History)-*cfg.HistoryLength:]
}

// takes reports whether the call is one directHandler answers: a blocking
// SendMessage (messageLimits marked its context quiet) of a well-formed
// message that names no task, without a push configuration. Anything else,
// malformed messages included, gets a2a-go's path and its answers.
func (d *directHandler) takes(ctx context.Context, req *a2a.SendMessageRequest) bool {
	return quiet(ctx) && newTask(req)
}

// newTask reports whether req is a well-formed message that names no task,
// without a push configuration or ReturnImmediately.
func newTask(req *a2a.SendMessageRequest) bool {
	if req == nil {
		return false
	}
	m := req.Message
	if m == nil || m.ID == "" || m.TaskID != "" || len(m.Parts) == 0 || m.Role == "" {
		return false
	}
	return req.Config == nil || (req.Config.PushConfig == nil && !req.Config.ReturnImmediately)
}

// run executes the agent for ec and folds its events into the result: a
// message, or the task as it ended. A panic is an internal error, as
// a2asrv.WithExecutionPanicHandler makes it on a2a-go's path.
func (d *directHandler) run(ctx context.Context, ec *a2asrv.ExecutorContext) (res a2a.SendMessageResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			d.h.log.Error("skill execution panicked", "panic", r, "stack", string(debug.Stack()))
			res, err = nil, fmt.Errorf("internal error: %w", a2a.ErrInternalError)
		}
	}()
	var task *a2a.Task
	for ev, err := range d.h.agent.Execute(ctx, ec) {
		if err != nil {
			return nil, err
		}
		if msg, ok := ev.(*a2a.Message); ok && task == nil {
			return msg, nil
		}
		if task, err = fold(task, ec, ev); err != nil {
			return nil, err
		}
	}
	if task == nil {
		return nil, fmt.Errorf("execution finished without producing any events: %w", a2a.ErrInvalidAgentResponse)
	}
	return task, nil
}

// errAfterEnd is an event after the task ended.
var errAfterEnd = errors.New("an event after the task ended")

// fold applies one event of a new task to it (nil before the first) as
// a2a-go's task manager does: a task replaces it, an artifact is added or
// extended, a status becomes the task's, the previous status's message
// going to the history.
func fold(task *a2a.Task, ec *a2asrv.ExecutorContext, ev a2a.Event) (*a2a.Task, error) {
	if task != nil && task.Status.State.Terminal() {
		return nil, fmt.Errorf("%w: %w", errAfterEnd, a2a.ErrInvalidAgentResponse)
	}
	if info := ev.TaskInfo(); info.TaskID != ec.TaskID || info.ContextID != ec.ContextID {
		return nil, fmt.Errorf("an event of another task (%s): %w", info.TaskID, a2a.ErrInvalidAgentResponse)
	}
	if t, ok := ev.(*a2a.Task); ok {
		return t, nil
	}
	if task == nil {
		return nil, fmt.Errorf("first event must be a Task or a message: %w", a2a.ErrInvalidAgentResponse)
	}
	switch e := ev.(type) {
	case *a2a.TaskArtifactUpdateEvent:
		return addArtifact(task, e)
	case *a2a.TaskStatusUpdateEvent:
		if task.Status.Message != nil {
			task.History = append(task.History, task.Status.Message)
		}
		for k, v := range e.Metadata {
			if task.Metadata == nil {
				task.Metadata = map[string]any{}
			}
			task.Metadata[k] = v
		}
		task.Status = e.Status
		return task, nil
	}
	return nil, fmt.Errorf("unexpected event type %T: %w", ev, a2a.ErrInvalidAgentResponse)
}

func addArtifact(task *a2a.Task, e *a2a.TaskArtifactUpdateEvent) (*a2a.Task, error) {
	if e.Artifact == nil || len(e.Artifact.Parts) == 0 {
		return nil, fmt.Errorf("artifact cannot be empty: %w", a2a.ErrInvalidAgentResponse)
	}
	for _, a := range task.Artifacts {
		if a.ID != e.Artifact.ID {
			continue
		}
		if !e.Append {
			*a = *copyArtifact(e.Artifact)
			return task, nil
		}
		a.Parts = append(a.Parts, e.Artifact.Parts...)
		for k, v := range e.Artifact.Metadata {
			if a.Metadata == nil {
				a.Metadata = map[string]any{}
			}
			a.Metadata[k] = v
		}
		return task, nil
	}
	if e.Append {
		return nil, fmt.Errorf("no artifact %s to append to: %w", e.Artifact.ID, a2a.ErrInvalidAgentResponse)
	}
	task.Artifacts = append(task.Artifacts, copyArtifact(e.Artifact))
	return task, nil
}
