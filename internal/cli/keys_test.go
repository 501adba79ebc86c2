package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/cards"
	"github.com/agentnet/agentnet/registry"
)

// runHome runs agentnet with AGENTNET_HOME at home.
func runHome(t *testing.T, home, exe string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{Args: args, Stdout: &out, Stderr: &errb, Ctx: t.Context(), Executable: exe, Environ: os.Environ,
		Getenv: func(k string) string {
			if k == "AGENTNET_HOME" {
				return home
			}
			return ""
		}}
	return Main(env), out.String(), errb.String()
}

func TestKeys(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	code, out, errs := runHome(t, home, "", "keys", "new", "--json")
	var k keyInfo
	if err := json.Unmarshal([]byte(out), &k); code != ExitOK || err != nil {
		t.Fatalf("keys new = %d %q %q (%v)", code, out, errs, err)
	}
	if want := filepath.Join(home, "keys", "default.pem"); k.Path != want || k.Alg != cards.AlgEdDSA || k.KeyID == "" {
		t.Errorf("keys new = %+v, want an EdDSA key at %s", k, want)
	}
	if st, err := os.Stat(k.Path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("key file mode = %v, %v; want 0600", st.Mode().Perm(), err)
	}
	if data, _ := os.ReadFile(k.Path); !strings.Contains(string(data), "PRIVATE KEY") || strings.Contains(out, string(data)) {
		t.Error("the key file is not a PEM private key, or keys new printed it")
	}
	if code, _, errs := runHome(t, home, "", "keys", "new"); code != ExitInvalid || !strings.Contains(errs, "never overwritten") {
		t.Errorf("second keys new = %d %q; want exit 2", code, errs)
	}
	if code, _, errs := runHome(t, home, "", "keys", "new", "x", "--type", "rsa"); code != ExitInvalid || !strings.Contains(errs, "unknown key type") {
		t.Errorf("keys new --type rsa = %d %q", code, errs)
	}

	code, out, _ = runHome(t, home, "", "keys", "show", "--jwks")
	trusted, err := cards.ParseTrustedKeys([]byte(out))
	if code != ExitOK || err != nil || trusted.Len() != 1 || strings.Contains(out, `"d"`) {
		t.Fatalf("keys show --jwks = %d %q (%v); want one public key", code, out, err)
	}
	code, out, _ = runHome(t, home, "", "keys", "new", "ops", "--type", "es256")
	if code != ExitOK || !strings.Contains(out, "alg\tES256") {
		t.Errorf("keys new ops --type es256 = %d %q", code, out)
	}
	if code, out, _ := runHome(t, home, "", "keys", "show", "ops"); code != ExitOK || !strings.Contains(out, "kid\t") {
		t.Errorf("keys show ops = %d %q", code, out)
	}
	os.Chmod(k.Path, 0o644)
	if code, _, errs := runHome(t, home, "", "keys", "show"); code != ExitInvalid || !strings.Contains(errs, "chmod 600") {
		t.Errorf("keys show of a readable key = %d %q; want exit 2", code, errs)
	}
	if code, _, errs := runHome(t, home, "", "serve", "nowhere", "--sign-key", "missing"); code != ExitInvalid {
		t.Errorf("serve --sign-key missing = %d %q; want exit 2", code, errs)
	}
}

// serve --sign-key serves a card that verifies by that key.
func TestServeSignKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "agent.yaml"), shouterYAML)
	k, _ := cards.NewKey("es256")
	keyFile := filepath.Join(t.TempDir(), "card.pem")
	if err := k.WriteKeyFile(keyFile); err != nil {
		t.Fatal(err)
	}
	s := startServe(t, "serve", dir, "--sign-key", keyFile)
	card := fetchCard(t, s.url)
	if v := cards.VerifyJSON(card, nil); !v.Valid() || v.Verified.KeyID != k.KeyID() {
		t.Fatalf("served card: %v", v)
	}
}

func fetchCard(t *testing.T, base string) []byte {
	t.Helper()
	resp, err := http.Get(strings.TrimSuffix(base, "/") + "/.well-known/agent-card.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return data
}

// fleet up --sign-key: the agents (child processes) serve cards signed by a
// key only the fleet process read, and a registry that requires signatures
// by that key registers them.
func TestFleetSignKey(t *testing.T) {
	t.Parallel()
	exe := buildAgentnet(t)
	home := t.TempDir()
	t.Cleanup(func() { runHome(t, home, exe, "fleet", "down") })
	if code, _, errs := runHome(t, home, exe, "keys", "new"); code != ExitOK {
		t.Fatalf("keys new: %q", errs)
	}
	_, jwks, _ := runHome(t, home, exe, "keys", "show", "--jwks")
	trusted, err := cards.ParseTrustedKeys([]byte(jwks))
	if err != nil {
		t.Fatal(err)
	}
	store, err := registry.OpenSQLite(t.Context(), ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	svc := registry.NewService(store, registry.CardsValidator, registry.WithRequireSigned(true), registry.WithTrustedKeys(trusted))
	reg := httptest.NewServer(registry.NewHandler(svc))
	defer reg.Close()

	dir := filepath.Join(t.TempDir(), "one")
	writeFile(t, filepath.Join(dir, "agent.yaml"), shouterYAML)
	// Without a key the registry refuses the card, and fleet up fails.
	if code, _, errs := runHome(t, home, exe, "fleet", "up", "--registry", reg.URL, dir); code == ExitOK || !strings.Contains(errs, "unsigned") {
		t.Fatalf("unsigned fleet up = %d %q; want the registry's refusal", code, errs)
	}
	code, out, errs := runHome(t, home, exe, "fleet", "up", "--json", "--sign-key", "default", "--registry", reg.URL, dir)
	var up []struct {
		URL        string `json:"url"`
		RegistryID string `json:"registry_id"`
	}
	if err := json.Unmarshal([]byte(out), &up); err != nil || code != ExitOK || len(up) != 1 {
		t.Fatalf("fleet up --sign-key = %d %q %q (%v)", code, out, errs, err)
	}
	rec, err := registry.NewClient(reg.URL).Get(t.Context(), up[0].RegistryID)
	if err != nil || rec.Signature == nil || rec.Signature.Source != cards.KeySourceTrusted {
		t.Fatalf("registry record signature = %+v, %v", rec.Signature, err)
	}
	if v := cards.VerifyJSON(fetchCard(t, up[0].URL), trusted); !v.Valid() {
		t.Errorf("the agent's card: %v", v)
	}
	code, out, errs = runHome(t, home, exe, "registry", "list", "--registry", reg.URL)
	if code != ExitOK || !strings.Contains(out, "SIGNED BY") || !strings.Contains(out, rec.Signature.KeyID) {
		t.Errorf("registry list = %d %q %q; want the signing key's id", code, out, errs)
	}
}

// Signatures handed to serve that are not JSON, or that do not verify over
// its card, are refused with exit 2 before anything is served.
func TestServeCardSignaturesRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "agent.yaml"), shouterYAML)
	other, _ := cards.NewKey("ed25519")
	stranger, _ := other.SignJSON([]byte(`{"name":"someone else"}`))
	var card struct {
		Signatures json.RawMessage `json:"signatures"`
	}
	json.Unmarshal(stranger, &card)
	for name, value := range map[string]string{"not json": "[{", "another card's": string(card.Signatures)} {
		var out, errb bytes.Buffer
		env := &Env{Args: []string{"serve", dir, "--no-check"}, Stdout: &out, Stderr: &errb, Ctx: t.Context(), Environ: os.Environ,
			Getenv: func(k string) string {
				if k == "AGENTNET_CARD_SIGNATURES" {
					return value
				}
				return ""
			}}
		if code := Main(env); code != ExitInvalid || out.Len() > 0 {
			t.Errorf("%s signatures: exit %d, stdout %q, stderr %q; want exit 2 and nothing served", name, code, out.String(), errb.String())
		}
	}
}

// registry serve --require-signed --trusted-keys: the flags reach the
// registry; an unsigned agent is refused and a signed one registers.
func TestRegistryServeRequireSigned(t *testing.T) {
	t.Parallel()
	noenv := func(string) string { return "" }
	k, _ := cards.NewKey("ed25519")
	keyFile := filepath.Join(t.TempDir(), "k.pem")
	if err := k.WriteKeyFile(keyFile); err != nil {
		t.Fatal(err)
	}
	jwks, _ := k.PublicJWKS()
	trustedFile := filepath.Join(t.TempDir(), "trusted.json")
	writeFile(t, trustedFile, string(jwks))
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "agent.yaml"), shouterYAML)
	plain, _ := startLong(t, noenv, "serve", dir)
	signed, _ := startLong(t, noenv, "serve", dir, "--sign-key", keyFile)
	regURL, _ := startLong(t, noenv, "registry", "serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "r.db"),
		"--require-signed", "--trusted-keys", trustedFile)
	if code, _, errs := runEnv(t, noenv, "registry", "add", "--registry", regURL, plain); code != ExitInvalid || !strings.Contains(errs, "requires signed cards") {
		t.Errorf("registry add (unsigned) = %d %q; want exit 2, refused", code, errs)
	}
	if code, out, errs := runEnv(t, noenv, "registry", "add", "--registry", regURL, signed); code != ExitOK {
		t.Errorf("registry add (signed) = %d %q %q", code, out, errs)
	}
	if code, _, errs := runEnv(t, noenv, "registry", "serve", "--addr", "127.0.0.1:0", "--trusted-keys", keyFile); code != ExitInvalid || !strings.Contains(errs, "--trusted-keys") {
		t.Errorf("registry serve --trusted-keys PRIVATE-KEY-FILE = %d %q; want exit 2", code, errs)
	}
}
