package static

import (
	"strings"
	"testing"

	"github.com/agentnet/agentnet/bundle"
)

// A bare "=" is YAML 1.1's value key, which Python's YAML loader cannot
// read: a default of "=" is written quoted.
func TestMarshalQuotesEquals(t *testing.T) {
	b := &bundle.Bundle{Version: 1, Name: "t", Description: "T.", Skills: []bundle.Skill{{ID: "s", Name: "s", Description: "S.", Run: bundle.Command{"t", "{{sep}}"},
		Params: map[string]any{"type": "object", "properties": map[string]any{"sep": map[string]any{"type": "string", "default": "="}}}}}}
	data, err := Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `default: "="`) {
		t.Errorf("Marshal wrote:\n%s\nwant the = quoted", data)
	}
	if _, err := bundle.Parse("agent.yaml", data); err != nil {
		t.Errorf("the bundle does not load back: %v", err)
	}
}
