package host_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/cards"
)

// The card a signing host serves over HTTP verifies, by the host's key, in
// both the A2A 1.0 and the legacy card path.
func TestHostSignsCard(t *testing.T) {
	t.Parallel()
	k, err := cards.NewKey("es256")
	if err != nil {
		t.Fatal(err)
	}
	s := serve(t, textkit, map[string]string{"upper.py": upperPy}, host.WithSigningKey(k))
	code, body := get(t, s.URL+host.CardPath)
	if code != http.StatusOK {
		t.Fatalf("GET card = %d %s", code, body)
	}
	v := cards.VerifyJSON([]byte(body), nil)
	if !v.Valid() || v.Verified.KeyID != k.KeyID() {
		t.Fatalf("served card: %v, want signed by %s\n%s", v, k.KeyID(), body)
	}
	if ps := cards.Validate([]byte(body)); ps != nil {
		t.Errorf("signed card invalid: %v", ps)
	}
}

// A host given signatures made ahead of time serves them, and refuses to
// start when they do not verify over its own card.
func TestHostCardSignatures(t *testing.T) {
	t.Parallel()
	k, _ := cards.NewKey("ed25519")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, bundle.FileName), []byte(textkit), 0o644)
	os.WriteFile(filepath.Join(dir, "upper.py"), []byte(upperPy), 0o755)
	b, err := bundle.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	const url = "http://127.0.0.1:9/"
	sigs, err := host.SignCard(k, b, url)
	if err != nil {
		t.Fatal(err)
	}
	h, err := host.New(b, url, host.WithCardSignatures(sigs))
	if err != nil {
		t.Fatalf("host with valid signatures: %v", err)
	}
	if len(h.Card().Signatures) != 1 {
		t.Errorf("card signatures = %v", h.Card().Signatures)
	}
	h.Close()
	// Signed for another URL: the card differs, the host must refuse.
	if _, err := host.New(b, "http://127.0.0.1:10/", host.WithCardSignatures(sigs)); err == nil || !strings.Contains(err.Error(), "do not verify") {
		t.Errorf("host with signatures of another card: %v", err)
	}
}

// A bundle's own server's card is signed as it is served, after its URLs
// are rewritten to the host's.
func TestOwnServerSignedCard(t *testing.T) {
	t.Parallel()
	k, _ := cards.NewKey("ed25519")
	s, _ := serveOwn(t, `[python3, server.py, --port, "{{port}}"]`, host.WithSigningKey(k))
	code, body := get(t, s.URL+host.CardPath)
	if code != http.StatusOK {
		t.Fatalf("GET card = %d %s", code, body)
	}
	if v := cards.VerifyJSON([]byte(body), nil); !v.Valid() || v.Verified.KeyID != k.KeyID() {
		t.Fatalf("own server's card: %v\n%s", v, body)
	}
	if !strings.Contains(body, s.URL+"/") {
		t.Errorf("card not rewritten: %s", body)
	}
}
