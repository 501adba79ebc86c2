package cards

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	jose "github.com/go-jose/go-jose/v4"
)

// MaxSignatures is how many signatures of one card Verify looks at; the
// rest are ignored.
const MaxSignatures = 16

// The sources of a verifying key.
const (
	KeySourceTrusted  = "trusted-keys" // the verifier's own trusted-keys file
	KeySourceEmbedded = "embedded-jwk" // the jwk in the signature's protected header
)

// SignatureInfo names the key a card's signature verified with.
type SignatureInfo struct {
	KeyID  string `json:"key_id"` // RFC 7638 thumbprint of the verifying public key
	Alg    string `json:"alg"`
	Source string `json:"source"` // KeySourceTrusted or KeySourceEmbedded
}

// Verification is what Verify found: whether the card is signed at all,
// the first signature that verified, and why the others did not.
type Verification struct {
	Signed   bool           `json:"signed"`
	Verified *SignatureInfo `json:"verified,omitempty"`
	Problems []string       `json:"problems,omitempty"`
}

// Valid reports whether a signature verified.
func (v Verification) Valid() bool { return v.Verified != nil }

// String is one line: "unsigned", "signed by KID (alg, source)" or
// "invalid signature: PROBLEM; PROBLEM".
func (v Verification) String() string {
	switch {
	case v.Verified != nil:
		return fmt.Sprintf("signed by %s (%s, %s)", v.Verified.KeyID, v.Verified.Alg, v.Verified.Source)
	case !v.Signed:
		return "unsigned"
	}
	return "invalid signature: " + strings.Join(v.Problems, "; ")
}

// TrustedKeys is a set of public keys a verifier accepts. A nil
// *TrustedKeys trusts the key each signature embeds (integrity and a
// stable key id, not who holds the key).
type TrustedKeys struct {
	keys map[string]jose.JSONWebKey // by thumbprint and by the file's kid
}

// Len is the number of keys.
func (t *TrustedKeys) Len() int {
	if t == nil {
		return 0
	}
	n := 0
	for id, k := range t.keys {
		if tp, _ := thumbprint(k); tp == id {
			n++
		}
	}
	return n
}

// LoadTrustedKeys reads a trusted-keys file: a JWK Set ({"keys": [...]}) of
// Ed25519 and P-256 public keys, as `agentnet keys show --jwks` prints.
func LoadTrustedKeys(path string) (*TrustedKeys, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 4<<20))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	t, err := ParseTrustedKeys(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// ParseTrustedKeys parses a JWK Set of public keys. A private key in it is
// an error: the file is meant to be shared.
func ParseTrustedKeys(data []byte) (*TrustedKeys, error) {
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(data, &set); err != nil {
		return nil, fmt.Errorf("not a JWK Set: %w", err)
	}
	if set.Keys == nil {
		return nil, errors.New(`not a JWK Set: no "keys" member`)
	}
	t := &TrustedKeys{keys: map[string]jose.JSONWebKey{}}
	for i, raw := range set.Keys {
		k, err := publicJWK(raw)
		if err != nil {
			return nil, fmt.Errorf("keys[%d]: %w", i, err)
		}
		tp, _ := thumbprint(k)
		t.keys[tp] = k
		if k.KeyID != "" {
			t.keys[k.KeyID] = k
		}
	}
	return t, nil
}

// publicJWK parses one JWK that must be an Ed25519 or P-256 public key.
func publicJWK(raw []byte) (jose.JSONWebKey, error) {
	var k jose.JSONWebKey
	if err := k.UnmarshalJSON(raw); err != nil {
		return k, fmt.Errorf("not a JWK: %w", err)
	}
	if !k.IsPublic() {
		return k, errors.New("a private key: only public keys belong here")
	}
	if !k.Valid() {
		return k, errors.New("not a valid key")
	}
	if _, err := keyAlg(k); err != nil {
		return k, err
	}
	return k, nil
}

// keyAlg is the one signature algorithm a public key verifies.
func keyAlg(k jose.JSONWebKey) (string, error) {
	switch pub := k.Key.(type) {
	case ed25519.PublicKey:
		return AlgEdDSA, nil
	case *ecdsa.PublicKey:
		if pub.Curve == elliptic.P256() {
			return AlgES256, nil
		}
		return "", fmt.Errorf("an ECDSA key on %s: only P-256 (ES256) verifies cards", pub.Curve.Params().Name)
	}
	return "", fmt.Errorf("a %T key: only Ed25519 (EdDSA) and P-256 (ES256) keys verify cards", k.Key)
}

// header is the part of a JWS protected header Verify reads.
type header struct {
	Alg   string          `json:"alg"`
	KeyID string          `json:"kid"`
	JWK   json.RawMessage `json:"jwk"`
	JKU   string          `json:"jku"`
}

func decodeHeader(protected string) (header, error) {
	var h header
	raw, err := base64.RawURLEncoding.DecodeString(protected)
	if err != nil {
		return h, errors.New("protected header is not base64url")
	}
	if err := json.Unmarshal(raw, &h); err != nil {
		return h, errors.New("protected header is not a JSON object")
	}
	return h, nil
}

// VerifyJSON checks the signatures of a card's JSON (A2A 1.0 section
// 8.4.3). Each signature's key comes from trusted when it is not nil (by
// the header's kid, or the thumbprint of its jwk), else from the jwk its
// protected header embeds. A jku is never fetched: a card could point the
// verifier anywhere. The first signature that verifies wins.
func VerifyJSON(data []byte, trusted *TrustedKeys) Verification {
	var card struct {
		Signatures []json.RawMessage `json:"signatures"`
	}
	if err := json.Unmarshal(data, &card); err != nil {
		return Verification{Signed: true, Problems: []string{"signatures: " + err.Error()}}
	}
	if len(card.Signatures) == 0 {
		return Verification{}
	}
	v := Verification{Signed: true}
	payload, err := SigningPayload(data)
	if err != nil {
		v.Problems = append(v.Problems, err.Error())
		return v
	}
	for i, raw := range card.Signatures {
		if i == MaxSignatures {
			v.Problems = append(v.Problems, fmt.Sprintf("signatures beyond the first %d are not checked", MaxSignatures))
			break
		}
		info, err := verifyOne(raw, payload, trusted)
		if err == nil {
			v.Verified, v.Problems = info, nil
			return v
		}
		v.Problems = append(v.Problems, fmt.Sprintf("signatures[%d]: %v", i, err))
	}
	return v
}

func verifyOne(raw json.RawMessage, payload []byte, trusted *TrustedKeys) (*SignatureInfo, error) {
	var sig struct {
		Protected string `json:"protected"`
		Signature string `json:"signature"`
	}
	if err := json.Unmarshal(raw, &sig); err != nil {
		return nil, errors.New("not a signature object")
	}
	if sig.Protected == "" || sig.Signature == "" {
		return nil, errors.New("protected and signature are required")
	}
	h, err := decodeHeader(sig.Protected)
	if err != nil {
		return nil, err
	}
	if h.Alg != AlgEdDSA && h.Alg != AlgES256 {
		return nil, fmt.Errorf("alg %q is not accepted (want %s or %s)", h.Alg, AlgEdDSA, AlgES256)
	}
	if h.KeyID == "" {
		return nil, errors.New("the protected header has no kid")
	}
	key, source, err := resolveKey(h, trusted)
	if err != nil {
		return nil, err
	}
	alg, err := keyAlg(key)
	if err != nil {
		return nil, err
	}
	if alg != h.Alg {
		return nil, fmt.Errorf("alg %s does not match the %s key", h.Alg, alg)
	}
	obj, err := jose.ParseDetached(sig.Protected+".."+sig.Signature, payload,
		[]jose.SignatureAlgorithm{jose.EdDSA, jose.ES256})
	if err != nil {
		return nil, fmt.Errorf("not a JWS: %v", err)
	}
	if _, err := obj.Verify(key); err != nil {
		return nil, errors.New("the signature does not verify: the card changed after it was signed, or another key signed it")
	}
	tp, err := thumbprint(key)
	if err != nil {
		return nil, err
	}
	return &SignatureInfo{KeyID: tp, Alg: alg, Source: source}, nil
}

func resolveKey(h header, trusted *TrustedKeys) (jose.JSONWebKey, string, error) {
	var embedded *jose.JSONWebKey
	if len(h.JWK) > 0 {
		k, err := publicJWK(h.JWK)
		if err != nil {
			return jose.JSONWebKey{}, "", fmt.Errorf("embedded jwk: %v", err)
		}
		embedded = &k
	}
	if trusted != nil {
		if k, ok := trusted.keys[h.KeyID]; ok {
			return k, KeySourceTrusted, nil
		}
		if embedded != nil {
			if tp, err := thumbprint(*embedded); err == nil {
				if k, ok := trusted.keys[tp]; ok {
					return k, KeySourceTrusted, nil
				}
			}
		}
		return jose.JSONWebKey{}, "", fmt.Errorf("key %s is not among the trusted keys", h.KeyID)
	}
	if embedded != nil {
		return *embedded, KeySourceEmbedded, nil
	}
	if h.JKU != "" {
		return jose.JSONWebKey{}, "", fmt.Errorf("key %s is named by jku %s, which is not fetched: list the key in a trusted-keys file", h.KeyID, h.JKU)
	}
	return jose.JSONWebKey{}, "", fmt.Errorf("no key to verify with: the header embeds no jwk and no trusted-keys file lists %s", h.KeyID)
}
