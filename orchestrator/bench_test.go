package orchestrator_test

import (
	"context"
	"iter"
	"net/http"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/agentnet/agentnet/a2a/binding"
	"github.com/agentnet/agentnet/orchestrator"
)

// The benchmarks' commands (see BENCHMARKS.md):
//
//	go test ./orchestrator -run '^$' -bench . -benchtime 400x -cpu 2

const echoYAML = `version: 1
name: echo
description: Says hello.
skills:
  - id: hello
    name: Hello
    description: Say hello.
    tags: [hello]
    run: [echo, hello]
`

// hopAgents are the agents a hop is measured against: a bundle hosted by
// a2a/host (each call runs a skill process) and an in-process a2asrv
// agent (no process: the protocol's cost only).
func hopAgents(b *testing.B) map[string]orchestrator.Candidate {
	a := serveBundle(b, writeBundle(b, echoYAML, nil))
	inproc := serveExecutor(b, "hello", helloExec{}, true)
	return map[string]orchestrator.Candidate{
		"host":   candidate("echo", a.URL, a.Card),
		"inproc": candidate("hello", inproc, helloCard(inproc)),
	}
}

func helloCard(url string) *a2a.AgentCard {
	return &a2a.AgentCard{
		Name: "hello", Description: "Says hello.", Version: "1.0.0",
		SupportedInterfaces: []*a2a.AgentInterface{a2a.NewAgentInterface(url+"/", a2a.TransportProtocolJSONRPC)},
		Capabilities:        a2a.AgentCapabilities{Streaming: true},
		Skills:              []a2a.AgentSkill{{ID: "hello", Name: "Hello", Description: "Say hello.", Tags: []string{"hello"}}},
	}
}

// BenchmarkHop measures, in one run and interleaved, one step sent
// directly with an a2a-go/v2 client and the same step run by the
// orchestrator (directory read, BM25 routing, a proxy of the chain's own,
// recording every event). It reports both medians, the time added and the
// overhead in percent.
func BenchmarkHop(b *testing.B) {
	for _, name := range []string{"host", "inproc"} {
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			cand := hopAgents(b)[name]
			hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
			defer hc.CloseIdleConnections()
			client, err := a2aclient.NewFromCard(ctx, cand.Card, a2aclient.WithDefaultsDisabled(), a2aclient.WithJSONRPCTransport(hc))
			if err != nil {
				b.Fatal(err)
			}
			defer client.Destroy()
			r := orchestrator.New(staticDir{cand}, orchestrator.NewBM25())
			defer r.Close()
			chain := orchestrator.Chain{ID: "hop", Steps: []orchestrator.Step{{Repo: cand.Name(), Instruction: "Say hello."}}}

			direct := func() {
				msg := a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("Say hello."))
				done := false
				for ev, err := range client.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: msg}) {
					if err != nil {
						b.Fatal(err)
					}
					if u, ok := ev.(*a2a.TaskStatusUpdateEvent); ok && u.Status.State == a2a.TaskStateCompleted {
						done = true
					}
				}
				if !done {
					b.Fatal("direct call did not complete")
				}
			}
			orchestrated := func() {
				res, err := r.Run(ctx, chain, nil)
				if err != nil || res.Outcome != orchestrator.OK {
					b.Fatalf("Run() = %v, %v", res.Outcome, err)
				}
			}
			for range 10 { // warm up connections and caches
				direct()
				orchestrated()
			}
			var d, o []time.Duration
			for b.Loop() {
				t0 := time.Now()
				direct()
				t1 := time.Now()
				orchestrated()
				d, o = append(d, t1.Sub(t0)), append(o, time.Since(t1))
			}
			pd, po := median(d), median(o)
			b.ReportMetric(float64(pd.Microseconds()), "direct-p50-µs")
			b.ReportMetric(float64(po.Microseconds()), "orch-p50-µs")
			b.ReportMetric(float64((po - pd).Microseconds()), "added-p50-µs")
			b.ReportMetric(100*float64(po-pd)/float64(pd), "overhead-%")
		})
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkChains runs two-step chains against the hosted agent, as many
// at once as there are CPUs, and reports chains per second.
func BenchmarkChains(b *testing.B) {
	cand := hopAgents(b)["host"]
	r := orchestrator.New(staticDir{cand}, orchestrator.NewBM25(), orchestrator.WithParallel(runtime.GOMAXPROCS(0)))
	defer r.Close()
	chain := orchestrator.Chain{ID: "two", Steps: []orchestrator.Step{
		{Repo: "echo", Instruction: "Say hello."}, {Repo: "echo", Instruction: "Say hello again."}}}
	var chains []orchestrator.Chain
	start := time.Now()
	for b.Loop() {
		chains = append(chains, chain)
		if len(chains) == 2*runtime.GOMAXPROCS(0) {
			for _, res := range r.RunAll(context.Background(), chains, nil) {
				if res.Outcome != orchestrator.OK {
					b.Fatalf("chain: %s", stepSummary(res))
				}
			}
			chains = chains[:0]
		}
	}
	for _, res := range r.RunAll(context.Background(), chains, nil) {
		if res.Outcome != orchestrator.OK {
			b.Fatalf("chain: %s", stepSummary(res))
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "chains/s")
}

// helloExec is an in-process agent that answers "hello" at once.
type helloExec struct{}

func (helloExec) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		if !yield(a2a.NewSubmittedTask(ec, ec.Message), nil) {
			return
		}
		if !yield(a2a.NewArtifactEvent(ec, a2a.NewTextPart("hello\n")), nil) {
			return
		}
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
	}
}

func (helloExec) Cancel(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

// BenchmarkHopBinding is BenchmarkHop against the hosted agent over each
// binding: the direct call and the orchestrator's (through its recording
// proxy) both speak the binding, interleaved in one run.
//
//	go test ./orchestrator -run '^$' -bench HopBinding -benchtime 300x -cpu 2
func BenchmarkHopBinding(b *testing.B) {
	cand := hopAgents(b)["host"]
	for _, bd := range binding.All {
		b.Run(string(bd), func(b *testing.B) {
			ctx := context.Background()
			hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
			defer hc.CloseIdleConnections()
			conns := &binding.Conns{}
			defer conns.Close()
			client, err := a2aclient.NewFromCard(ctx, cand.Card, binding.ClientOptions(bd, hc, conns)...)
			if err != nil {
				b.Fatal(err)
			}
			defer client.Destroy()
			r := orchestrator.New(staticDir{cand}, orchestrator.NewBM25(), orchestrator.WithBinding(bd))
			defer r.Close()
			chain := orchestrator.Chain{ID: "hop", Steps: []orchestrator.Step{{Repo: cand.Name(), Instruction: "Say hello."}}}
			direct := func() {
				msg := a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("Say hello."))
				done := false
				for ev, err := range client.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: msg}) {
					if err != nil {
						b.Fatal(err)
					}
					if u, ok := ev.(*a2a.TaskStatusUpdateEvent); ok && u.Status.State == a2a.TaskStateCompleted {
						done = true
					}
				}
				if !done {
					b.Fatal("direct call did not complete")
				}
			}
			orchestrated := func() {
				res, err := r.Run(ctx, chain, nil)
				if err != nil || res.Outcome != orchestrator.OK || res.Binding != string(bd) {
					b.Fatalf("Run() = %v (%s), %v", res.Outcome, res.Binding, err)
				}
			}
			for range 10 {
				direct()
				orchestrated()
			}
			var d, o []time.Duration
			for b.Loop() {
				t0 := time.Now()
				direct()
				t1 := time.Now()
				orchestrated()
				d, o = append(d, t1.Sub(t0)), append(o, time.Since(t1))
			}
			pd, po := median(d), median(o)
			b.ReportMetric(float64(pd.Microseconds()), "direct-p50-µs")
			b.ReportMetric(float64(po.Microseconds()), "orch-p50-µs")
			b.ReportMetric(float64((po - pd).Microseconds()), "added-p50-µs")
			b.ReportMetric(100*float64(po-pd)/float64(pd), "overhead-%")
		})
	}
}
