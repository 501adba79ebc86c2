package orchestrator_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/a2a/binding"
	"github.com/agentnet/agentnet/a2a/proxy"
	"github.com/agentnet/agentnet/orchestrator"
)

// TestChainBindings runs the three-step chain over each A2A binding
// through the recording proxies: every step's files reach the next, the
// result records the binding, and the trace shows each message in that
// binding — gRPC calls decoded, with their status.
func TestChainBindings(t *testing.T) {
	t.Parallel()
	reg, _ := fleet(t)
	for _, b := range binding.All {
		t.Run(string(b), func(t *testing.T) {
			t.Parallel()
			r := orchestrator.New(directory{reg.client}, orchestrator.NewBM25(), orchestrator.WithBinding(b))
			defer r.Close()
			var trace bytes.Buffer
			res, err := r.Run(t.Context(), backtestChain(), &trace)
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != orchestrator.OK || !res.OrchestrationOK || res.Binding != string(b) {
				t.Fatalf("Run() = %s (orchestration ok %v, binding %q): %s", res.Outcome, res.OrchestrationOK, res.Binding, stepSummary(res))
			}
			if !strings.Contains(res.Output.Text, "lines: 1") {
				t.Errorf("output = %q, want the line count of the chart", res.Output.Text)
			}
			written, err := proxy.ReadLog(&trace)
			if err != nil {
				t.Fatal(err)
			}
			sends := orchestrator.Sends(written)
			if len(sends) != 3 {
				t.Fatalf("the trace shows %d messages, want 3", len(sends))
			}
			bodies := requestBodies(written)
			for i, want := range []string{`"filename":"prices.csv"`, `"filename":"equity.csv"`, `"filename":"chart.svg"`} {
				s := sends[i]
				if s.Binding != string(b) || s.Method != "SendStreamingMessage" || s.State != "completed" || !s.Content || s.TaskID == "" {
					t.Errorf("send %d = %+v, want a completed %s stream with content", i+1, s, b)
				}
				if body := bodies[s.Exchange]; !strings.Contains(strings.ReplaceAll(body, " ", ""), want) || !strings.Contains(body, res.ContextID) {
					t.Errorf("step %d request %.300s lacks %s or the chain's context id", i+1, body, want)
				}
			}
			events, ends := 0, 0
			for _, e := range written {
				if e.Exchange != sends[0].Exchange {
					continue
				}
				switch e.Kind {
				case proxy.KindEvent:
					events++
				case proxy.KindEnd:
					ends++
					if b == binding.GRPC && (e.GRPCStatus == nil || *e.GRPCStatus != 0) {
						t.Errorf("gRPC end entry = %+v, want grpc_status 0", e)
					}
				}
			}
			if events < 2 || ends != 1 {
				t.Errorf("step 1's exchange recorded %d events and %d ends, want several events and one end", events, ends)
			}
		})
	}
}
