package registry

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/cards"
)

func signedCard(t *testing.T, k *cards.SigningKey, name string) []byte {
	t.Helper()
	data, err := json.Marshal(testCard(name, "Turns text into capital letters.", skill("shout", "Upper case.", "text")))
	if err != nil {
		t.Fatal(err)
	}
	signed, err := k.SignJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	return signed
}

func wantRefused(t *testing.T, err error, want string) {
	t.Helper()
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != http.StatusUnprocessableEntity || !strings.Contains(err.Error(), want) {
		t.Fatalf("Register() = %v, want a 422 naming %q", err, want)
	}
}

// The registry verifies signatures over HTTP, shows the key id in the API,
// the list and the web page, and refuses a changed card whose signature no
// longer verifies or that drops or swaps the key.
func TestRegistrySignedCards(t *testing.T) {
	t.Parallel()
	agents := newFakeAgents(t)
	reg := newTestRegistry(t)
	ctx := t.Context()
	k, _ := cards.NewKey("ed25519")

	agents.set(t, "signed", signedCard(t, k, "signed"))
	rec := mustRegister(t, reg.client, agents.url("signed"))
	if rec.Signature == nil || rec.Signature.KeyID != k.KeyID() || rec.Signature.Alg != cards.AlgEdDSA {
		t.Fatalf("registered signature = %+v, want key %s", rec.Signature, k.KeyID())
	}
	got, err := reg.client.Get(ctx, rec.ID)
	if err != nil || got.Signature == nil || got.Signature.KeyID != k.KeyID() {
		t.Fatalf("Get().Signature = %+v, %v", got.Signature, err)
	}
	page, err := reg.client.List(ctx, Query{})
	if err != nil || len(page.Hits) != 1 || page.Hits[0].Signature == nil {
		t.Fatalf("List() = %+v, %v", page, err)
	}
	resp, err := http.Get(reg.srv.URL + "/agents/" + rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), k.KeyID()) {
		t.Errorf("the agent's web page does not show key %s", k.KeyID())
	}

	// The card changes but keeps its old signature: refused, record kept.
	var card map[string]any
	json.Unmarshal(signedCard(t, k, "signed"), &card)
	card["description"] = "Now does something else."
	agents.set(t, "signed", card)
	_, _, err = reg.client.Register(ctx, agents.url("signed"))
	wantRefused(t, err, "does not verify")
	if got, _ := reg.client.Get(ctx, rec.ID); got.Description != "Turns text into capital letters." {
		t.Errorf("a refused update changed the record: %q", got.Description)
	}

	// Unsigned, or signed by another key: refused as an update.
	agents.set(t, "signed", testCard("signed", "Unsigned now.", skill("shout", "Upper case.", "text")))
	_, _, err = reg.client.Register(ctx, agents.url("signed"))
	wantRefused(t, err, "an update must be signed too")
	other, _ := cards.NewKey("es256")
	agents.set(t, "signed", signedCard(t, other, "signed"))
	_, _, err = reg.client.Register(ctx, agents.url("signed"))
	wantRefused(t, err, "trusted keys")

	// Re-signed by the same key after a change: accepted.
	agents.set(t, "signed", signedCard(t, k, "signed v2"))
	if rec := mustRegister(t, reg.client, agents.url("signed")); rec.Name != "signed v2" || rec.Signature == nil {
		t.Errorf("a re-signed update: %+v", rec)
	}

	// An unsigned card registers where signatures are not required.
	agents.set(t, "plain", testCard("plain", "No signature.", skill("shout", "Upper case.", "text")))
	if rec := mustRegister(t, reg.client, agents.url("plain")); rec.Signature != nil {
		t.Errorf("unsigned card shows a signature: %+v", rec.Signature)
	}
}

// --require-signed with --trusted-keys: only cards signed by a listed key
// register; the key id shown comes from the trusted set.
func TestRegistryRequireSignedTrusted(t *testing.T) {
	t.Parallel()
	agents := newFakeAgents(t)
	trustedKey, _ := cards.NewKey("es256")
	jwks, _ := trustedKey.PublicJWKS()
	trusted, err := cards.ParseTrustedKeys(jwks)
	if err != nil {
		t.Fatal(err)
	}
	reg := newTestRegistry(t, WithRequireSigned(true), WithTrustedKeys(trusted))
	ctx := t.Context()

	agents.set(t, "plain", testCard("plain", "No signature.", skill("shout", "Upper case.", "text")))
	_, _, err = reg.client.Register(ctx, agents.url("plain"))
	wantRefused(t, err, "requires signed cards")

	stranger, _ := cards.NewKey("ed25519")
	agents.set(t, "stranger", signedCard(t, stranger, "stranger"))
	_, _, err = reg.client.Register(ctx, agents.url("stranger"))
	wantRefused(t, err, "not among the trusted keys")

	agents.set(t, "ok", signedCard(t, trustedKey, "ok"))
	rec := mustRegister(t, reg.client, agents.url("ok"))
	if rec.Signature == nil || rec.Signature.KeyID != trustedKey.KeyID() || rec.Signature.Source != cards.KeySourceTrusted {
		t.Errorf("signature = %+v", rec.Signature)
	}
}
