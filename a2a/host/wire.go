package host

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
)

// Fixes of protocol details a2a-go v2.4.0 gets wrong, each found by
// `agentnet audit` (package a2a/conformance).

// finishedTaskGuard refuses a message to a task in a terminal state with
// UnsupportedOperationError (-32004), as A2A 1.0 §3.1.1 requires; a2a-go
// answers InvalidParams (-32602). It also refuses SubscribeToTask of a
// finished task with the same error (A2A 1.0 §3.1.6), where a2a-go streams
// the task back (HTTP+JSON) or answers NotFound (gRPC).
type finishedTaskGuard struct {
	a2asrv.PassthroughCallInterceptor
	store taskstore.Store
}

var _ a2asrv.CallInterceptor = finishedTaskGuard{}

func (g finishedTaskGuard) Before(ctx context.Context, _ *a2asrv.CallContext, req *a2asrv.Request) (context.Context, any, error) {
	if r, ok := req.Payload.(*a2a.SubscribeToTaskRequest); ok && r.ID != "" {
		// A finished task has no more events to stream (A2A 1.0 §3.1.6).
		st, err := g.store.Get(ctx, r.ID)
		if err != nil || st.Task == nil || !st.Task.Status.State.Terminal() {
			return ctx, nil, nil
		}
		return ctx, nil, a2a.NewError(a2a.ErrUnsupportedOperation,
			fmt.Sprintf("task %s is %s: it has no more updates to subscribe to; get it instead", r.ID, st.Task.Status.State))
	}
	r, ok := req.Payload.(*a2a.SendMessageRequest)
	if !ok || r.Message == nil || r.Message.TaskID == "" {
		return ctx, nil, nil
	}
	st, err := g.store.Get(ctx, r.Message.TaskID)
	if err != nil || st.Task == nil || !st.Task.Status.State.Terminal() {
		return ctx, nil, nil // a2a-go reports a missing task itself
	}
	return ctx, nil, a2a.NewError(a2a.ErrUnsupportedOperation,
		fmt.Sprintf("task %s is %s and takes no more messages; start a new task in its context", r.Message.TaskID, st.Task.Status.State))
}

// rpcPeek is what the host reads of a JSON-RPC request before the protocol
// handler parses it: one decode, the members left unknown skipped.
type rpcPeek struct {
	Method string          `json:"method"`
	ID     json.RawMessage `json:"id"` // "null" for an explicit null id
}

// isNotification reports whether the request is a notification: a method
// without an id member.
func (p *rpcPeek) isNotification() bool { return p.Method != "" && p.ID == nil }
