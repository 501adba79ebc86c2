package host_test

import (
	"context"
	"fmt"
	"iter"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// BenchmarkOverhead measures the host's own cost per small task, the
// three parts it is the difference of interleaved in one loop, so that a
// shared machine's load falls on all three alike. Each iteration sends one
// message to the host serving echo, the same message to a bare a2a-go/v2
// server, and runs echo in a proc.Group as the host runs a skill; it
// reports each one's median (host-µs, bare-µs, proc-µs), the overhead of
// the medians (overhead-µs = host − bare − proc) and the median of each
// iteration's overhead (overhead-med-µs). The host's work left for after a
// task (removing its work directory) is done before bare and echo are
// timed, untimed, so that it slows neither. Sub-benchmarks:
//
//   - send: a blocking message/send; the bare server answers with a
//     message only (a2a-go's cheapest path);
//   - stream: message/stream over SSE; the bare server streams the very
//     events the host streamed for the same message (recorded once before
//     the loop: the task submitted, working, the artifact, completed), so
//     both send the same bytes but for ids.
//
// Run it with:
//
//	go test ./a2a/host -run '^$' -bench Overhead -benchtime 500x -benchmem
func BenchmarkOverhead(b *testing.B) {
	echoPath, err := exec.LookPath("echo")
	if err != nil {
		b.Skip("no echo program")
	}
	b.Run("send", func(b *testing.B) {
		url, settle := echoHostSettled(b)
		hostC := benchClient(b, url)
		bareC := benchClient(b, bareServer(b, benchMessage{}))
		benchOverhead(b, echoPath, func() { sendOnce(b, hostC) }, settle, func() { sendOnce(b, bareC) })
	})
	b.Run("stream", func(b *testing.B) {
		url, settle := echoHostSettled(b)
		hostC := benchClient(b, url)
		events := streamOnce(b, hostC)
		bareC := benchClient(b, bareServer(b, replay(events)))
		if got := streamOnce(b, bareC); len(got) != len(events) {
			b.Fatalf("the bare server streamed %d events, the host %d", len(got), len(events))
		}
		benchOverhead(b, echoPath, func() { streamOnce(b, hostC) }, settle, func() { streamOnce(b, bareC) })
	})
}

// benchOverhead runs host, bare and the contained echo once each per
// iteration and reports their medians and the host's overhead; settle,
// untimed, follows host.
func benchOverhead(b *testing.B, echoPath string, host, settle, bare func()) {
	var hostT, bareT, procT, over []time.Duration
	timed := func(f func()) time.Duration {
		t0 := time.Now()
		f()
		return time.Since(t0)
	}
	for b.Loop() {
		h := timed(host)
		b.StopTimer()
		settle()
		b.StartTimer()
		m := timed(bare)
		p := timed(func() { benchContainedOnce(b, echoPath) })
		hostT, bareT, procT = append(hostT, h), append(bareT, m), append(procT, p)
		over = append(over, h-m-p)
	}
	med := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)/2].Microseconds())
	}
	if len(hostT) == 0 {
		return
	}
	h, m, p := med(hostT), med(bareT), med(procT)
	b.ReportMetric(h, "host-µs")
	b.ReportMetric(m, "bare-µs")
	b.ReportMetric(p, "proc-µs")
	b.ReportMetric(h-m-p, "overhead-µs")
	b.ReportMetric(med(over), "overhead-med-µs")
}

// benchClient resolves the card at url and returns a JSON-RPC client.
func benchClient(b *testing.B, url string) *a2aclient.Client {
	ctx := context.Background()
	card, err := agentcard.DefaultResolver.Resolve(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	c, err := a2aclient.NewFromCard(ctx, card, a2aclient.WithDefaultsDisabled(), a2aclient.WithJSONRPCTransport(nil))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Destroy() })
	return c
}

// sendOnce sends hello and checks the answer echoes it.
func sendOnce(b *testing.B, c *a2aclient.Client) {
	res, err := c.SendMessage(context.Background(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("hello"))})
	if err != nil {
		b.Fatal(err)
	}
	if m, ok := res.(*a2a.Message); ok && strings.Contains(m.Parts[0].Text(), "hello") {
		return
	}
	task, ok := res.(*a2a.Task)
	if !ok || task.Status.State != a2a.TaskStateCompleted || len(task.Artifacts) == 0 ||
		!strings.Contains(task.Artifacts[0].Parts[0].Text(), "hello") {
		b.Fatalf("SendMessage() = %#v, want a completed task (or a message) echoing hello", res)
	}
}

// streamOnce streams hello and returns the events, checking that the
// stream ends completed with an artifact echoing it.
func streamOnce(b *testing.B, c *a2aclient.Client) []a2a.Event {
	var events []a2a.Event
	echoed := false
	req := &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("hello"))}
	for ev, err := range c.SendStreamingMessage(context.Background(), req) {
		if err != nil {
			b.Fatal(err)
		}
		if a, ok := ev.(*a2a.TaskArtifactUpdateEvent); ok && strings.Contains(a.Artifact.Parts[0].Text(), "hello") {
			echoed = true
		}
		events = append(events, ev)
	}
	last, ok := events[len(events)-1].(*a2a.TaskStatusUpdateEvent)
	if !echoed || !ok || last.Status.State != a2a.TaskStateCompleted {
		b.Fatalf("stream = %s, want an artifact echoing hello and completed last", describe(events))
	}
	return events
}

// replay is a bare server's executor that streams the given events again,
// as events of the task at hand.
type replay []a2a.Event

func (r replay) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		for _, ev := range r {
			if !yield(retarget(ev, ec), nil) {
				return
			}
		}
	}
}

func (replay) Cancel(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

// retarget returns a copy of ev as an event of ec's task.
func retarget(ev a2a.Event, ec *a2asrv.ExecutorContext) a2a.Event {
	msg := func(m *a2a.Message) *a2a.Message {
		if m == nil {
			return nil
		}
		cp := *m
		cp.TaskID, cp.ContextID = ec.TaskID, ec.ContextID
		return &cp
	}
	switch e := ev.(type) {
	case *a2a.Task:
		cp := *e
		cp.ID, cp.ContextID = ec.TaskID, ec.ContextID
		cp.History = []*a2a.Message{ec.Message}
		cp.Status.Message = msg(e.Status.Message)
		return &cp
	case *a2a.TaskStatusUpdateEvent:
		cp := *e
		cp.TaskID, cp.ContextID = ec.TaskID, ec.ContextID
		cp.Status.Message = msg(e.Status.Message)
		return &cp
	case *a2a.TaskArtifactUpdateEvent:
		cp := *e
		cp.TaskID, cp.ContextID = ec.TaskID, ec.ContextID
		art := *e.Artifact
		cp.Artifact = &art
		return &cp
	}
	return ev
}

// describe lists the events' kinds and states.
func describe(events []a2a.Event) string {
	var s []string
	for _, ev := range events {
		switch e := ev.(type) {
		case *a2a.Task:
			s = append(s, "task:"+string(e.Status.State))
		case *a2a.TaskStatusUpdateEvent:
			s = append(s, "status:"+string(e.Status.State))
		case *a2a.TaskArtifactUpdateEvent:
			s = append(s, "artifact")
		default:
			s = append(s, fmt.Sprintf("%T", ev))
		}
	}
	return strings.Join(s, " ")
}
