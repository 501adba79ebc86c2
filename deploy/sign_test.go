package deploy_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentnet/agentnet/cards"
	"github.com/agentnet/agentnet/deploy"
)

const signedBundle = "version: 1\nname: signed\ndescription: Echoes text.\nskills:\n" +
	"  - id: echo\n    name: Echo\n    description: Echo the text.\n" +
	"    params: {type: object, properties: {text: {type: string}}, required: [text]}\n" +
	"    run: [echo, \"{{text}}\"]\n"

// upSigned brings up a bundle with a signing key on runtime name and
// returns the card its agent serves.
func upSigned(t *testing.T, name string, k *cards.SigningKey, bundleDir string, cleanup func(agent string)) []byte {
	t.Helper()
	rt, err := deploy.Open(name, deploy.Config{Self: agentnetBinary(t), Env: os.Environ(), ReadyTimeout: 60 * time.Second, SignKey: k})
	if err != nil {
		t.Fatal(err)
	}
	var suffix [3]byte
	rand.Read(suffix[:])
	agent := "sig-" + hex.EncodeToString(suffix[:])
	cleanup(agent)
	a, err := rt.Up(t.Context(), deploy.Spec{Name: agent, Bundle: bundleDir})
	if err != nil {
		t.Fatalf("Up() = %v", err)
	}
	t.Cleanup(func() { rt.Down(context.Background(), a) })
	resp, err := http.Get(strings.TrimSuffix(a.URL, "/") + "/.well-known/agent-card.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return data
}

// The card of an agent whose runtime holds the key verifies by that key;
// only the signatures went to the agent (the key file is nowhere in the
// bundle or the container).
func TestSignedCardRuntimes(t *testing.T) {
	t.Parallel()
	k, _ := cards.NewKey("ed25519")
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"agent.yaml": signedBundle})
	t.Run("process", func(t *testing.T) {
		t.Parallel()
		card := upSigned(t, "process", k, dir, func(string) {})
		if v := cards.VerifyJSON(card, nil); !v.Valid() || v.Verified.KeyID != k.KeyID() {
			t.Errorf("card: %v\n%s", v, card)
		}
	})
	t.Run("docker", func(t *testing.T) {
		t.Parallel()
		dc := dockerClient(t)
		card := upSigned(t, "docker", k, dir, func(agent string) { cleanupDocker(t, dc, []string{agent}) })
		if v := cards.VerifyJSON(card, nil); !v.Valid() || v.Verified.KeyID != k.KeyID() {
			t.Errorf("card: %v\n%s", v, card)
		}
	})
	t.Run("swarm", func(t *testing.T) {
		t.Parallel()
		dc := dockerClient(t)
		swarmManager(t, dc)
		card := upSigned(t, "swarm", k, dir, func(agent string) { cleanupSwarm(t, dc, []string{agent}) })
		if v := cards.VerifyJSON(card, nil); !v.Valid() || v.Verified.KeyID != k.KeyID() {
			t.Errorf("card: %v\n%s", v, card)
		}
	})
	t.Run("own server refused", func(t *testing.T) {
		own := filepath.Join(t.TempDir(), "own")
		writeFiles(t, own, map[string]string{"agent.yaml": "version: 1\nname: own\ndescription: x.\nserve: [python3, server.py, --port, \"{{port}}\"]\n"})
		rt, _ := deploy.Open("process", deploy.Config{Self: agentnetBinary(t), SignKey: k})
		if _, err := rt.Up(t.Context(), deploy.Spec{Name: "own", Bundle: own}); err == nil || !strings.Contains(err.Error(), "own server") {
			t.Errorf("Up(own server, key) = %v; want a refusal naming its own server", err)
		}
	})
}
