package orchestrator_test

import (
	"encoding/json"
	"testing"

	"github.com/agentnet/agentnet/a2a/proxy"
	"github.com/agentnet/agentnet/orchestrator"
)

// FuzzSends reads arbitrary answer bodies as a trace: never a panic.
func FuzzSends(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"artifactId":"a","name":"out.csv"}]}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"kind":"status-update","taskId":"t","status":{"state":"failed","message":{"parts":[{"kind":"text","text":"no"}]}}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"boom"}}`))
	f.Add([]byte(`{"result":[[[{"status":{"state":7}}]]]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		e := proxy.Entry{Exchange: 1, Kind: proxy.KindResponse, Status: 200}
		if json.Valid(body) {
			e.Body = body
		} else {
			e.Text = string(body)
		}
		sends := orchestrator.Sends([]proxy.Entry{{Exchange: 1, Kind: proxy.KindRequest, RPCMethod: "SendMessage", Agent: "a"}, e})
		if len(sends) != 1 {
			t.Fatalf("Sends() = %d sends, want 1", len(sends))
		}
		orchestrator.Attribute(sends, 2)
	})
}
