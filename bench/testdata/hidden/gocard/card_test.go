// Package card holds hidden tests that talk to the delivery over HTTP at
// $AGENTNET_AGENT_URL: they read its agent card.
package card

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

func card(t *testing.T) map[string]any {
	t.Helper()
	url := strings.TrimSuffix(os.Getenv("AGENTNET_AGENT_URL"), "/") + "/.well-known/agent-card.json"
	client := &http.Client{Timeout: 30 * time.Second}
	resp, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	var c map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return c
}

func TestCardName(t *testing.T) {
	if got := card(t)["name"]; got != "shouter" {
		t.Errorf("card name = %v, want shouter", got)
	}
}

func TestCardNameWrongOnPurpose(t *testing.T) {
	if got := card(t)["name"]; got != "whisperer" {
		t.Errorf("card name = %v, want whisperer (wrong on purpose)", got)
	}
}
