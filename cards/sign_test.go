package cards

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/bundle"
)

// The golden cases are RFC 8785's own examples (sections 3.2.2 and 3.2.3,
// appendix B) and the A2A 1.0.1 specification's example of section 8.4.1.
var jcsGolden = []struct{ name, in, want string }{
	{"rfc8785 3.2.2", `{
	  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
	  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
	  "literals": [null, true, false]
	}`, `{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`},
	{"rfc8785 3.2.3 sorting by utf-16", `{
	  "\u20ac": "Euro Sign",
	  "\r": "Carriage Return",
	  "\ufb33": "Hebrew Letter Dalet With Dagesh",
	  "1": "One",
	  "\ud83d\ude00": "Emoji: Grinning Face",
	  "\u0080": "Control",
	  "\u00f6": "Latin Small Letter O With Diaeresis"
	}`, "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\",\"ö\":\"Latin Small Letter O With Diaeresis\",\"€\":\"Euro Sign\",\"😀\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}"},
	{"a2a 8.4.1 after default removal", `{"name": "Example Agent", "description": "", "capabilities": {"streaming": false, "pushNotifications": false}, "skills": []}`,
		`{"capabilities":{"pushNotifications":false,"streaming":false},"description":"","name":"Example Agent","skills":[]}`},
	{"nesting and space", " [ {\"b\" : [ 1 , {\"d\":1,\"c\":2} ], \"a\": {} } , [] ] ", `[{"a":{},"b":[1,{"c":2,"d":1}]},[]]`},
	{"escapes", `"\u0000\u001f\b\t\u2028</>"`, "\"\\u0000\\u001f\\b\\t\u2028</>\""},
}

// RFC 8785 appendix B: IEEE 754 doubles and their ECMAScript text.
var jcsNumbers = map[string]string{
	"0": "0", "-0": "0", "1": "1", "-1.5": "-1.5", "1e21": "1e+21", "1e20": "100000000000000000000",
	"999999999999999900000": "999999999999999900000", "1e-6": "0.000001", "1e-7": "1e-7",
	"5e-324": "5e-324", "1.7976931348623157e308": "1.7976931348623157e+308", "9007199254740993": "9007199254740992",
	"295147905179352830000": "295147905179352830000", "4.35": "4.35", "0.0000001e3": "0.0001",
}

func TestCanonicalizeGolden(t *testing.T) {
	for _, c := range jcsGolden {
		got, err := Canonicalize([]byte(c.in))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if string(got) != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
	for in, want := range jcsNumbers {
		got, err := Canonicalize([]byte(in))
		if err != nil || string(got) != want {
			t.Errorf("number %s: got %s (%v), want %s", in, got, err, want)
		}
	}
}

func TestCanonicalizeRefuses(t *testing.T) {
	for name, in := range map[string]string{
		"duplicate member":    `{"a":1,"b":{"c":1,"c":2}}`,
		"trailing value":      `{} {}`,
		"number beyond float": `1e400`,
		"too deep":            strings.Repeat("[", maxCanonicalDepth+1) + strings.Repeat("]", maxCanonicalDepth+1),
		"not json":            `{"a":}`,
	} {
		if got, err := Canonicalize([]byte(in)); err == nil {
			t.Errorf("%s: got %s, want an error", name, got)
		}
	}
}

// validCard is a card as the host serves it.
var validCard = func() string {
	card := Build(&bundle.Bundle{Name: "shouter", Description: "Turns text into capital letters.",
		Skills: []bundle.Skill{{ID: "shout", Name: "Shout", Description: "Upper case.", Tags: []string{"text"}}}},
		"http://127.0.0.1:8080/")
	data, _ := json.Marshal(card)
	return string(data)
}()

func testCard(t *testing.T) *a2a.AgentCard {
	t.Helper()
	card, err := Parse([]byte(validCard))
	if err != nil {
		t.Fatal(err)
	}
	return card
}

func TestSignVerify(t *testing.T) {
	for _, typ := range KeyTypes {
		t.Run(typ, func(t *testing.T) {
			k, err := NewKey(typ)
			if err != nil {
				t.Fatal(err)
			}
			signed, err := k.Sign(testCard(t))
			if err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal(signed)
			if err != nil {
				t.Fatal(err)
			}
			if ps := Validate(data); ps != nil {
				t.Fatalf("a signed card must stay valid: %v", ps)
			}
			v := VerifyJSON(data, nil)
			if !v.Valid() || v.Verified.KeyID != k.KeyID() || v.Verified.Alg != k.Alg() || v.Verified.Source != KeySourceEmbedded {
				t.Fatalf("verify: %+v (want key %s)", v, k.KeyID())
			}
			h, err := decodeHeader(signed.Signatures[0].Protected)
			if err != nil || h.KeyID != k.KeyID() || h.Alg != k.Alg() {
				t.Fatalf("protected header %+v, %v", h, err)
			}

			// The same card served with its members in another order and
			// indented still verifies: the payload is canonical.
			var m map[string]any
			json.Unmarshal(data, &m)
			pretty, _ := json.MarshalIndent(m, "", "    ")
			if v := VerifyJSON(pretty, nil); !v.Valid() {
				t.Errorf("reformatted card: %v", v)
			}

			// Any change to the card breaks the signature.
			tampered := strings.Replace(string(data), `"name":"`, `"name":"X`, 1)
			if v := VerifyJSON([]byte(tampered), nil); v.Valid() || !v.Signed {
				t.Errorf("tampered card verified: %v", v)
			}

			// Trusted keys: the key verifies when listed, not otherwise.
			jwks, err := k.PublicJWKS()
			if err != nil {
				t.Fatal(err)
			}
			trusted, err := ParseTrustedKeys(jwks)
			if err != nil || trusted.Len() != 1 {
				t.Fatalf("trusted keys: %v (len %d)", err, trusted.Len())
			}
			if v := VerifyJSON(data, trusted); !v.Valid() || v.Verified.Source != KeySourceTrusted {
				t.Errorf("trusted: %v", v)
			}
			other, _ := NewKey(typ)
			otherJWKS, _ := other.PublicJWKS()
			untrusted, _ := ParseTrustedKeys(otherJWKS)
			if v := VerifyJSON(data, untrusted); v.Valid() || !strings.Contains(v.String(), "not among the trusted keys") {
				t.Errorf("untrusted key: %v", v)
			}
		})
	}
}

func TestVerifyUnsignedAndHostile(t *testing.T) {
	if v := VerifyJSON([]byte(validCard), nil); v.Signed || v.Valid() || v.String() != "unsigned" {
		t.Errorf("unsigned card: %+v", v)
	}
	k, _ := NewKey("ed25519")
	other, _ := NewKey("ed25519")
	signed, err := k.SignJSON([]byte(validCard))
	if err != nil {
		t.Fatal(err)
	}
	var card map[string]json.RawMessage
	json.Unmarshal(signed, &card)
	var sigs []a2a.AgentCardSignature
	json.Unmarshal(card["signatures"], &sigs)

	header := func(h map[string]any) string {
		b, _ := json.Marshal(h)
		return base64.RawURLEncoding.EncodeToString(b)
	}
	withSig := func(s a2a.AgentCardSignature) []byte {
		b, _ := json.Marshal([]a2a.AgentCardSignature{s})
		card["signatures"] = b
		out, _ := json.Marshal(card)
		return out
	}
	for name, c := range map[string]struct {
		sig  a2a.AgentCardSignature
		want string
	}{
		// Swapping in another key's jwk must not make a forged signature pass.
		"other jwk":   {a2a.AgentCardSignature{Protected: header(map[string]any{"alg": "EdDSA", "kid": other.KeyID(), "jwk": other.Public()}), Signature: sigs[0].Signature}, "does not verify"},
		"alg none":    {a2a.AgentCardSignature{Protected: header(map[string]any{"alg": "none", "kid": "x"}), Signature: "e30"}, `alg "none"`},
		"no kid":      {a2a.AgentCardSignature{Protected: header(map[string]any{"alg": "EdDSA", "jwk": k.Public()}), Signature: sigs[0].Signature}, "no kid"},
		"jku only":    {a2a.AgentCardSignature{Protected: header(map[string]any{"alg": "ES256", "kid": "k1", "jku": "https://example.com/jwks.json"}), Signature: "e30"}, "not fetched"},
		"not b64":     {a2a.AgentCardSignature{Protected: "%%%", Signature: "e30"}, "base64url"},
		"alg swap":    {a2a.AgentCardSignature{Protected: header(map[string]any{"alg": "ES256", "kid": k.KeyID(), "jwk": k.Public()}), Signature: sigs[0].Signature}, "does not match"},
		"private jwk": {a2a.AgentCardSignature{Protected: header(map[string]any{"alg": "EdDSA", "kid": "k", "jwk": json.RawMessage(`{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"}`)}), Signature: "e30"}, "private key"},
	} {
		v := VerifyJSON(withSig(c.sig), nil)
		if v.Valid() || !v.Signed || !strings.Contains(v.String(), c.want) {
			t.Errorf("%s: %v (want a problem with %q)", name, v, c.want)
		}
	}
}

func TestSignKeepsOtherKeys(t *testing.T) {
	a, _ := NewKey("ed25519")
	b, _ := NewKey("es256")
	data, err := a.SignJSON([]byte(validCard))
	if err != nil {
		t.Fatal(err)
	}
	if data, err = b.SignJSON(data); err != nil {
		t.Fatal(err)
	}
	if data, err = a.SignJSON(data); err != nil { // re-signing replaces a's signature
		t.Fatal(err)
	}
	var card a2a.AgentCard
	if err := json.Unmarshal(data, &card); err != nil {
		t.Fatal(err)
	}
	if len(card.Signatures) != 2 {
		t.Fatalf("got %d signatures, want 2", len(card.Signatures))
	}
	jwks, _ := b.PublicJWKS()
	trusted, _ := ParseTrustedKeys(jwks)
	if v := VerifyJSON(data, trusted); !v.Valid() || v.Verified.KeyID != b.KeyID() {
		t.Errorf("the second key's signature: %v", v)
	}
}

func TestKeyFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "keys", "default.pem")
	for _, typ := range KeyTypes {
		k, _ := NewKey(typ)
		p := path + "." + typ
		if err := k.WriteKeyFile(p); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(p)
		if err != nil || st.Mode().Perm() != 0o600 {
			t.Fatalf("key file mode %v, %v; want 0600", st.Mode().Perm(), err)
		}
		if err := k.WriteKeyFile(p); err == nil {
			t.Error("WriteKeyFile overwrote an existing key")
		}
		got, err := LoadKeyFile(p)
		if err != nil || got.KeyID() != k.KeyID() || got.Alg() != k.Alg() {
			t.Fatalf("load: %v, %v", got, err)
		}
		os.Chmod(p, 0o644)
		if _, err := LoadKeyFile(p); err == nil || !strings.Contains(err.Error(), "chmod 600") {
			t.Errorf("a world-readable key file loaded: %v", err)
		}
	}
	junk := filepath.Join(dir, "junk.pem")
	os.WriteFile(junk, []byte("not a key"), 0o600)
	if _, err := LoadKeyFile(junk); err == nil {
		t.Error("junk loaded as a key")
	}
	if _, err := NewKey("rsa"); err == nil {
		t.Error("an RSA key type was accepted")
	}
	if _, err := ParseTrustedKeys([]byte(`{"keys":[{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"}]}`)); err == nil {
		t.Error("a private key was accepted as trusted")
	}
}
