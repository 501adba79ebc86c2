package host

import (
	"context"
	"fmt"
	"iter"
	"runtime/debug"
	"sync"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
)

// directRun is a stream the directHandler answers, while it runs: what a
// CancelTask of its task needs.
type directRun struct {
	mu       sync.Mutex
	canceled bool
	done     chan struct{} // closed when the task is stored as it ended
}

// cancel marks the run canceled and reports whether it was already.
func (r *directRun) cancel() (again bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	again, r.canceled = r.canceled, true
	return again
}

func (r *directRun) isCanceled() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.canceled
}

// SendStreamingMessage implements a2asrv.RequestHandler. A stream that
// starts a new task (see newTask) is answered here: the executor runs in
// the request's goroutine and each of its events goes to the client as it
// comes — the task submitted, working statuses, artifacts, the final status
// — with no event queue between them and no copies of the task but the
// store's own. The task is stored as a2a-go's task manager stores it, but
// for the artifacts, which are stored with the status that follows them:
// every state change is in the store before the client sees it. Like
// a2a-go, the task runs to its end whether or not the client still listens.
func (d *directHandler) SendStreamingMessage(ctx context.Context, req *a2a.SendMessageRequest) iter.Seq2[a2a.Event, error] {
	if !newTask(req) {
		return d.RequestHandler.SendStreamingMessage(ctx, req)
	}
	return func(yield func(a2a.Event, error) bool) {
		ec := newExecution(ctx, req)
		run := &directRun{done: make(chan struct{})}
		d.mu.Lock()
		if d.running == nil {
			d.running = map[a2a.TaskID]*directRun{}
		}
		d.running[ec.TaskID] = run
		d.mu.Unlock()
		defer func() {
			d.mu.Lock()
			delete(d.running, ec.TaskID)
			d.mu.Unlock()
			close(run.done)
		}()
		listening := true
		send := func(ev a2a.Event, err error) {
			if listening {
				listening = yield(ev, err)
			}
		}
		if err := d.stream(context.WithoutCancel(ctx), ec, run, send); err != nil {
			send(nil, err)
		}
	}
}

// stream runs the executor for ec, folding, storing and sending each event;
// after a CancelTask (run canceled) the next event becomes the canceled
// status and ends the task (or follows the executor's last event when the
// killed skill leaves it none). A panic is an internal error.
func (d *directHandler) stream(ctx context.Context, ec *a2asrv.ExecutorContext, run *directRun, send func(a2a.Event, error)) (err error) {
	defer func() {
		if r := recover(); r != nil {
			d.h.log.Error("skill execution panicked", "panic", r, "stack", string(debug.Stack()))
			err = fmt.Errorf("internal error: %w", a2a.ErrInternalError)
		}
	}()
	var task *a2a.Task
	var version taskstore.TaskVersion
	dirty := false
	for ev, err := range d.h.agent.Execute(ctx, ec) {
		if err != nil {
			return err
		}
		if msg, ok := ev.(*a2a.Message); ok && task == nil {
			send(msg, nil)
			return nil
		}
		if task != nil && run.isCanceled() {
			d.h.log.Info("task canceled", "task", ec.TaskID)
			ev = a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, agentText(ec, "canceled"))
		}
		if task, err = fold(task, ec, ev); err != nil {
			return err
		}
		if task == ev {
			task = copyTask(task) // the event sent stays as it was
		}
		_, artifact := ev.(*a2a.TaskArtifactUpdateEvent)
		if dirty = artifact; !artifact {
			if version, err = d.save(ctx, task, ev, version); err != nil {
				return err
			}
		}
		send(ev, nil)
		if task.Status.State.Terminal() {
			return nil
		}
	}
	if task == nil {
		return fmt.Errorf("execution finished without producing any events: %w", a2a.ErrInvalidAgentResponse)
	}
	if run.isCanceled() && !task.Status.State.Terminal() {
		// The killed skill's executor ends without a word (on a2a-go's
		// path the canceled status is agent.Cancel's).
		ev := a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, agentText(ec, "canceled"))
		if task, err = fold(task, ec, ev); err == nil {
			_, err = d.save(ctx, task, ev, version)
		}
		if err == nil {
			send(ev, nil)
		}
		return err
	}
	if dirty {
		_, err = d.save(ctx, task, nil, version)
	}
	return err
}

// save writes task to the store: created at its first version, updated
// from version after.
func (d *directHandler) save(ctx context.Context, task *a2a.Task, ev a2a.Event, version taskstore.TaskVersion) (taskstore.TaskVersion, error) {
	var err error
	if version == taskstore.TaskVersionMissing {
		version, err = d.h.store.Create(ctx, task)
	} else {
		version, err = d.h.store.Update(ctx, &taskstore.UpdateRequest{Task: task, Event: ev, PrevVersion: version})
	}
	if err != nil {
		return version, fmt.Errorf("failed to save task state: %w", err)
	}
	return version, nil
}

// CancelTask implements a2asrv.RequestHandler. A task whose stream is
// answered here is canceled here: its skill is killed, its next event
// becomes the canceled status, and the task is answered once stored so. A
// task that ended first cannot be canceled, as on a2a-go's path; any other
// task is a2a-go's.
func (d *directHandler) CancelTask(ctx context.Context, req *a2a.CancelTaskRequest) (*a2a.Task, error) {
	var run *directRun
	if req != nil {
		d.mu.Lock()
		run = d.running[req.ID]
		d.mu.Unlock()
	}
	if run == nil {
		return d.RequestHandler.CancelTask(ctx, req)
	}
	again := run.cancel()
	d.h.kill(string(req.ID))
	select {
	case <-run.done:
	case <-ctx.Done():
		return nil, fmt.Errorf("failed to cancel: %w", ctx.Err())
	}
	st, err := d.h.store.Get(ctx, req.ID)
	if err != nil {
		return nil, fmt.Errorf("failed to cancel: %w", err)
	}
	if again || st.Task.Status.State != a2a.TaskStateCanceled {
		return nil, fmt.Errorf("failed to cancel: task is %s: %w", st.Task.Status.State, a2a.ErrTaskNotCancelable)
	}
	return st.Task, nil
}
