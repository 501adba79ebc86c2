package orchestrator_test

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/agentnet/agentnet/cards"
	"github.com/agentnet/agentnet/orchestrator"
	"github.com/agentnet/agentnet/registry"
)

// refOrchestrator is a small reference orchestrator agent, the kind a user
// brings to the a2a router: for each step of the chain it gets, it searches
// the registry it was given, sends the step to the best hit that is up, and
// passes the output on; it answers with the last step's output.
type refOrchestrator struct {
	hc *http.Client
	// pick chooses among the search hits of a step (default: the first).
	pick func(step int, hits []registry.Hit) registry.Hit
	// deleteErr is what an attempt to delete an agent through the registry
	// it was given brought.
	deleteErr chan error
}

func (o *refOrchestrator) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		if !yield(a2a.NewSubmittedTask(ec, ec.Message), nil) {
			return
		}
		fail := func(format string, args ...any) {
			yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateFailed, a2a.NewMessageForTask(a2a.MessageRoleAgent, ec, a2a.NewTextPart(fmt.Sprintf(format, args...)))), nil)
		}
		var brief map[string]any
		var files []*a2a.Part
		for _, p := range ec.Message.Parts {
			switch c := p.Content.(type) {
			case a2a.Data:
				brief, _ = c.Value.(map[string]any)
			case a2a.Raw:
				files = append(files, p)
			}
		}
		regURL, _ := brief["registry"].(string)
		steps, _ := brief["steps"].([]any)
		if regURL == "" || len(steps) == 0 {
			fail("no chain in the message")
			return
		}
		reg := registry.NewClient(regURL, registry.WithHTTPClient(o.hc))
		if o.deleteErr != nil {
			o.deleteErr <- reg.Delete(ctx, "anyone")
		}
		prev := files
		for i, s := range steps {
			instr, _ := s.(map[string]any)["instruction"].(string)
			page, err := reg.Search(ctx, registry.Query{Text: instr, Limit: 5, Statuses: []registry.Status{registry.StatusUp, registry.StatusChanged}})
			if err != nil || len(page.Hits) == 0 {
				fail("step %d: no agent found (%v)", i+1, err)
				return
			}
			hit := page.Hits[0]
			if o.pick != nil {
				hit = o.pick(i+1, page.Hits)
			}
			card, err := cards.Parse(hit.Card)
			if err != nil {
				fail("step %d: %v", i+1, err)
				return
			}
			client, err := a2aclient.NewFromCard(ctx, card, a2aclient.WithJSONRPCTransport(o.hc))
			if err != nil {
				fail("step %d: %v", i+1, err)
				return
			}
			msg := a2a.NewMessage(a2a.MessageRoleUser, append([]*a2a.Part{a2a.NewTextPart(instr)}, prev...)...)
			res, err := client.SendMessage(ctx, &a2a.SendMessageRequest{Message: msg})
			client.Destroy()
			task, ok := res.(*a2a.Task)
			if err != nil || !ok || task.Status.State != a2a.TaskStateCompleted {
				fail("step %d failed at %s: %v", i+1, hit.Name, err)
				return
			}
			prev = nil
			var text string
			for _, a := range task.Artifacts {
				for _, p := range a.Parts {
					if _, ok := p.Content.(a2a.Raw); ok {
						prev = append(prev, p)
					} else {
						text += p.Text()
					}
				}
			}
			if i == len(steps)-1 {
				yield(a2a.NewArtifactEvent(ec, a2a.NewTextPart(text)), nil)
				break
			}
			if text != "" {
				prev = append(prev, &a2a.Part{Content: a2a.Raw(text), Filename: "input.txt", MediaType: "text/plain"})
			}
		}
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
	}
}

func (o *refOrchestrator) Cancel(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

// serveExecutor serves an a2asrv executor with a card on httptest.
func serveExecutor(t testing.TB, name string, exec a2asrv.AgentExecutor, streaming bool) string {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	url := "http://" + srv.Listener.Addr().String() + "/"
	card := &a2a.AgentCard{
		Name: name, Description: "A test agent: " + name + ".", Version: "1.0.0",
		SupportedInterfaces: []*a2a.AgentInterface{a2a.NewAgentInterface(url, a2a.TransportProtocolJSONRPC)},
		Capabilities:        a2a.AgentCapabilities{Streaming: streaming},
		DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []a2a.AgentSkill{{ID: name, Name: name, Description: "Does " + name + ".", Tags: []string{name}}},
	}
	mux := http.NewServeMux()
	mux.Handle("/", a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(exec)))
	mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(card))
	srv.Config.Handler = mux
	srv.Start()
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return srv.URL
}

// TestA2ARouter hands a chain to a reference orchestrator agent and learns
// which agent did each step from the proxies' trace.
func TestA2ARouter(t *testing.T) {
	t.Parallel()
	reg, _ := fleet(t)
	hc := &http.Client{Transport: &http.Transport{}}
	defer hc.CloseIdleConnections()

	tests := []struct {
		name   string
		pick   func(int, []registry.Hit) registry.Hit
		orchOK bool
	}{
		{"routes well", nil, true},
		{"sends step 3 to the plotter", func(step int, hits []registry.Hit) registry.Hit {
			for _, h := range hits {
				if step == 3 && h.Name == "imgtool" {
					return h
				}
			}
			return hits[0]
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ref := &refOrchestrator{hc: hc, pick: tc.pick, deleteErr: make(chan error, 1)}
			orch := serveExecutor(t, "reference-orchestrator", ref, true)
			router, err := orchestrator.NewRouter("a2a="+orch, orchestrator.RouterConfig{})
			if err != nil {
				t.Fatal(err)
			}
			r := orchestrator.New(directory{reg.client}, router, orchestrator.WithRegistryURL(reg.URL), orchestrator.WithRouterName("a2a"))
			defer r.Close()
			res, err := r.Run(t.Context(), backtestChain(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := <-ref.deleteErr; err == nil || !strings.Contains(err.Error(), "405") {
				t.Errorf("DELETE through the registry view = %v, want 405 (the view is read-only)", err)
			}
			if res.OrchestrationOK != tc.orchOK {
				t.Fatalf("orchestration ok = %v, want %v: %s", res.OrchestrationOK, tc.orchOK, stepSummary(res))
			}
			if !tc.orchOK {
				if st := res.Steps[2]; st.Observed == nil || st.Observed.Name != "imgtool" || st.Correct {
					t.Errorf("step 3 = %+v, want it observed at imgtool and wrong", st)
				}
				return
			}
			if res.Outcome != orchestrator.OK || !strings.Contains(res.Output.Text, "lines:") {
				t.Fatalf("Run() = %s, output %q: %s", res.Outcome, res.Output.Text, stepSummary(res))
			}
			for _, st := range res.Steps {
				if st.Observed == nil || st.Observed.Name != st.Expected || st.State != "completed" || len(st.Artifacts) == 0 {
					t.Errorf("step %d = %+v", st.Step, st)
				}
			}
			// The orchestrator's own exchange is in the trace too, apart from
			// the steps.
			var orchSends, fleetSends int
			for _, s := range orchestrator.Sends(res.Trace) {
				if s.Agent == orchestrator.OrchestratorLabel {
					orchSends++
				} else {
					fleetSends++
				}
			}
			if orchSends != 1 || fleetSends != 3 {
				t.Errorf("trace: %d messages to the orchestrator, %d to the fleet; want 1 and 3", orchSends, fleetSends)
			}
		})
	}
}

// TestA2ARouterNeedsRegistryURL reports a missing registry URL on the chain.
func TestA2ARouterNeedsRegistryURL(t *testing.T) {
	t.Parallel()
	router, _ := orchestrator.NewRemote("http://127.0.0.1:9")
	r := orchestrator.New(staticDir(routingCands), router)
	defer r.Close()
	res, err := r.Run(t.Context(), backtestChain(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != orchestrator.RegistryFailed || !strings.Contains(res.Detail, "registry's URL") {
		t.Errorf("Run() = %s %q", res.Outcome, res.Detail)
	}
}
