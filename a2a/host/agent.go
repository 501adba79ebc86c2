package host

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"runtime/debug"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// agent is the host's a2asrv.AgentExecutor: one skill run per message.
type agent struct{ h *Host }

var _ a2asrv.AgentExecutor = (*agent)(nil)

// Execute runs the skill for the incoming message: submitted, working once
// the skill is chosen (again every heartbeat while the skill runs), then
// completed with the output as artifacts, or failed with the reason. A
// blocking call (quiet) gets no working statuses: its client sees the task
// only as it ended, which directHandler folds the events into.
func (a *agent) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		h := a.h
		if ec.StoredTask == nil {
			if !yield(a2a.NewSubmittedTask(ec, ec.Message), nil) {
				return
			}
		}
		req, err := requestFrom(ec, h.spool)
		if err != nil {
			yield(failed(ec, err.Error()), nil)
			return
		}
		// No working status of its own for choosing the skill: each event
		// costs a2a-go deep copies of the task (see BENCHMARKS.md, Hosting),
		// and the "running skill" status follows at once unless an LLM
		// chooses, whose wait the heartbeat covers.
		if quiet(ctx) {
			// A blocking call's client sees the task only as it ends: no
			// progress, no heartbeat, and so no goroutine to run it in.
			out, err := a.invoke(ctx, ec, req, nil)
			a.finish(ec, out, err, yield)
			return
		}
		a.stream(ctx, ec, req, yield)
	}
}

// stream runs the request while reporting its progress and a heartbeat as
// working statuses, then its end; a client that stops listening kills it.
func (a *agent) stream(ctx context.Context, ec *a2asrv.ExecutorContext, req *request, yield func(a2a.Event, error) bool) {
	h := a.h
	type done struct {
		out *outcome
		err error
	}
	progress := make(chan string, 4)
	result := make(chan done, 1)
	go func() {
		out, err := a.invoke(ctx, ec, req, func(s string) {
			select {
			case progress <- s:
			default:
			}
		})
		result <- done{out, err}
	}()

	beat := time.NewTicker(h.cfg.heartbeat)
	defer beat.Stop()
	start, status := time.Now(), "working"
	for {
		select {
		case s := <-progress:
			status = s
			if !yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, agentText(ec, s)), nil) {
				h.kill(string(ec.TaskID))
				<-result
				return
			}
		case <-beat.C:
			msg := fmt.Sprintf("%s (%s)", status, time.Since(start).Round(time.Second))
			if !yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, agentText(ec, msg)), nil) {
				h.kill(string(ec.TaskID))
				<-result
				return
			}
		case d := <-result:
			a.finish(ec, d.out, d.err, yield)
			return
		}
	}
}

// invoke runs the request (Host.invoke), a panic in it being an internal
// error of the task.
func (a *agent) invoke(ctx context.Context, ec *a2asrv.ExecutorContext, req *request, progress func(string)) (out *outcome, err error) {
	defer func() {
		if r := recover(); r != nil {
			a.h.log.Error("skill run panicked", "task", ec.TaskID, "panic", r, "stack", string(debug.Stack()))
			out, err = nil, fmt.Errorf("internal error: %v", r)
		}
	}()
	return a.h.invoke(ctx, req, progress)
}

func (a *agent) finish(ec *a2asrv.ExecutorContext, out *outcome, err error, yield func(a2a.Event, error) bool) {
	h := a.h
	var f *failure
	switch {
	case errors.Is(err, errKilled) && h.isClosed():
		yield(failed(ec, "the host shut down while the skill ran"), nil)
		return
	case errors.Is(err, errKilled):
		// Canceled: Cancel has already reported it.
		return
	case errors.As(err, &f):
		h.log.Info("task failed", "task", ec.TaskID, "reason", f.msg)
		ev := failed(ec, f.msg)
		if f.binding != nil {
			// How the skill was called travels with the failure, as it
			// does with an answer (the output artifact's metadata).
			ev.(*a2a.TaskStatusUpdateEvent).Status.Message.Metadata = map[string]any{BindingMetadataKey: f.binding}
		}
		yield(ev, nil)
		return
	case err != nil:
		h.log.Error("task failed", "task", ec.TaskID, "err", err)
		yield(failed(ec, "internal error in the host; see its log"), nil)
		return
	}
	h.log.Info("task completed", "task", ec.TaskID, "skill", out.skill.ID, "by", out.by, "elapsed", out.run.elapsed, "files", len(out.files))
	if out.stdout != "" || len(out.files) == 0 {
		ev := a2a.NewArtifactEvent(ec, a2a.NewTextPart(out.stdout))
		ev.Artifact.Name = "output"
		// Which skill ran, and how it was chosen, travels in the
		// description rather than in task metadata, which a2a-go would
		// deep-copy again on every later event.
		ev.Artifact.Description = fmt.Sprintf("standard output of skill %s (chosen by %s)", out.skill.ID, out.by)
		// How each argument was bound, and from what (see Binder).
		ev.Artifact.Metadata = map[string]any{BindingMetadataKey: bindingMetadata(out)}
		if !yield(ev, nil) {
			return
		}
	}
	for _, f := range out.files {
		ev := a2a.NewArtifactEvent(ec, filePart(f))
		ev.Artifact.Name = f.name
		ev.Artifact.Description = fmt.Sprintf("file written by skill %s", out.skill.ID)
		if !yield(ev, nil) {
			h.files.drop(string(ec.TaskID)) // the task will not complete
			return
		}
	}
	var msg *a2a.Message
	if out.note != "" {
		msg = agentText(ec, out.note)
	}
	yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, msg), nil)
}

// Cancel stops the task's skill process (its whole group) and reports the
// task canceled.
func (a *agent) Cancel(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		a.h.kill(string(ec.TaskID))
		a.h.log.Info("task canceled", "task", ec.TaskID)
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, agentText(ec, "canceled")), nil)
	}
}

func failed(ec *a2asrv.ExecutorContext, msg string) a2a.Event {
	return a2a.NewStatusUpdateEvent(ec, a2a.TaskStateFailed, agentText(ec, msg))
}

func agentText(ec *a2asrv.ExecutorContext, s string) *a2a.Message {
	return a2a.NewMessageForTask(a2a.MessageRoleAgent, ec, a2a.NewTextPart(s))
}

// requestFrom turns the A2A message into a transport-neutral request; a
// file part whose bytes went to the spool (see messageLimits) is taken
// from there.
func requestFrom(ec *a2asrv.ExecutorContext, sp *spool) (_ *request, err error) {
	m := ec.Message
	req := &request{taskID: string(ec.TaskID)}
	if m == nil {
		return nil, errors.New("no message")
	}
	defer func() {
		if err != nil {
			req.dropSpooled()
		}
	}()
	for _, md := range []map[string]any{m.Metadata, ec.Metadata} {
		for _, k := range SkillMetadataKeys {
			if s, ok := md[k].(string); ok && s != "" && req.skill == "" {
				req.skill = s
			}
		}
	}
	var texts []string
	for i, p := range m.Parts {
		if p == nil {
			continue
		}
		if token, ok := p.Metadata[spoolKey].(string); ok {
			if file, ok := sp.take(token); ok {
				req.files = append(req.files, inFile{name: p.Filename, mediaType: p.MediaType, spooled: file})
				continue
			}
		}
		switch c := p.Content.(type) {
		case a2a.Text:
			texts = append(texts, string(c))
		case a2a.Data:
			obj, ok := c.Value.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("part %d: a data part must hold a JSON object of arguments, got %T", i, c.Value)
			}
			if skill, args, ok, err := structuredCall(obj); ok || err != nil {
				if err != nil {
					return nil, fmt.Errorf("part %d: %w", i, err)
				}
				// A structured call: the skill and its arguments as
				// such, no language binding (see docs/bundle.md).
				req.skill, req.args = skill, args
				continue
			}
			if req.data == nil {
				req.data = map[string]any{}
			}
			maps.Copy(req.data, obj)
		case a2a.Raw:
			req.files = append(req.files, inFile{name: p.Filename, mediaType: p.MediaType, data: c})
		case a2a.URL:
			// messageLimits checked it against the fetch list.
			req.files = append(req.files, inFile{name: p.Filename, mediaType: p.MediaType, url: string(c)})
		}
	}
	req.text = strings.Join(texts, "\n")
	if len(texts) > 0 {
		req.instruction = texts[0]
	}
	if len(texts) > 1 {
		req.content = strings.Join(texts[1:], "\n")
	}
	return req, nil
}

// structuredCall recognises a data part {"skill": ID, "arguments": {...}}:
// a call of one skill with its arguments, as an orchestrator that plans
// with the skills' schemas sends it. ok is false for any other object (a
// data part of arguments by name); err says what is wrong with one that
// has both keys but not of the right kinds.
func structuredCall(obj map[string]any) (skill string, args map[string]any, ok bool, err error) {
	rawSkill, hasSkill := obj["skill"]
	rawArgs, hasArgs := obj["arguments"]
	if !hasSkill || !hasArgs || len(obj) != 2 {
		return "", nil, false, nil
	}
	skill, _ = rawSkill.(string)
	if strings.TrimSpace(skill) == "" {
		return "", nil, false, errors.New(`a structured call's "skill" must be a skill id`)
	}
	args, isObj := rawArgs.(map[string]any)
	if !isObj && rawArgs != nil {
		return "", nil, false, fmt.Errorf(`a structured call's "arguments" must be a JSON object, got %T`, rawArgs)
	}
	if args == nil {
		args = map[string]any{}
	}
	return skill, args, true, nil
}
