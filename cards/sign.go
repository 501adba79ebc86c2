package cards

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	jose "github.com/go-jose/go-jose/v4"
)

// The signature algorithms of card signatures (RFC 7518 and RFC 8037 names).
const (
	AlgEdDSA = "EdDSA" // Ed25519
	AlgES256 = "ES256" // ECDSA on P-256 with SHA-256
)

// KeyTypes lists the key types NewKey makes, as the CLI names them.
var KeyTypes = []string{"ed25519", "es256"}

// maxKeyFile bounds the size of a key file read.
const maxKeyFile = 64 << 10

// SigningKey is a private key that signs agent cards. Its KeyID is the RFC
// 7638 thumbprint of its public key (SHA-256, base64url), so the same key
// has the same id wherever it is seen.
type SigningKey struct {
	priv  crypto.Signer
	alg   string
	keyID string
}

// NewKey makes a new private key of type typ ("ed25519" or "es256").
func NewKey(typ string) (*SigningKey, error) {
	switch strings.ToLower(typ) {
	case "ed25519", "eddsa":
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return nil, err
		}
		return newSigningKey(priv)
	case "es256", "p256", "p-256":
		priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return nil, err
		}
		return newSigningKey(priv)
	}
	return nil, fmt.Errorf("unknown key type %q (want %s)", typ, strings.Join(KeyTypes, " or "))
}

func newSigningKey(priv crypto.Signer) (*SigningKey, error) {
	k := &SigningKey{priv: priv}
	switch p := priv.(type) {
	case ed25519.PrivateKey:
		k.alg = AlgEdDSA
	case *ecdsa.PrivateKey:
		if p.Curve != elliptic.P256() {
			return nil, fmt.Errorf("ECDSA key on %s: only P-256 (ES256) signs cards", p.Curve.Params().Name)
		}
		k.alg = AlgES256
	default:
		return nil, fmt.Errorf("a %T key cannot sign cards (want Ed25519 or ECDSA P-256)", priv)
	}
	id, err := thumbprint(k.Public())
	if err != nil {
		return nil, err
	}
	k.keyID = id
	return k, nil
}

// Alg is the JWS algorithm the key signs with (AlgEdDSA or AlgES256).
func (k *SigningKey) Alg() string { return k.alg }

// KeyID is the key's id: its public key's RFC 7638 thumbprint.
func (k *SigningKey) KeyID() string { return k.keyID }

// Public is the public half of the key as a JWK, with its kid, alg and use.
func (k *SigningKey) Public() jose.JSONWebKey {
	return jose.JSONWebKey{Key: k.priv.Public(), KeyID: k.keyID, Algorithm: k.alg, Use: "sig"}
}

// PublicJWKS is the key's public half as a JWK Set, the form a registry's
// trusted-keys file takes.
func (k *SigningKey) PublicJWKS() ([]byte, error) {
	return json.MarshalIndent(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{k.Public()}}, "", "  ")
}

// thumbprint is the RFC 7638 SHA-256 thumbprint of a public key, base64url.
func thumbprint(pub jose.JSONWebKey) (string, error) {
	sum, err := pub.Thumbprint(crypto.SHA256)
	if err != nil {
		return "", fmt.Errorf("key thumbprint: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(sum), nil
}

// WriteKeyFile writes the private key to path as PKCS #8 PEM, readable by
// its owner alone (0600), creating the parent directory (0700). It never
// overwrites an existing file.
func (k *SigningKey) WriteKeyFile(path string) error {
	der, err := x509.MarshalPKCS8PrivateKey(k.priv)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if err := pem.Encode(f, &pem.Block{Type: "PRIVATE KEY", Bytes: der}); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}

// LoadKeyFile reads a private key written by WriteKeyFile (any PKCS #8 PEM
// of an Ed25519 or P-256 key). A key file that its group or others may read
// is refused, as ssh refuses one: the key would no longer be the user's own.
func LoadKeyFile(path string) (*SigningKey, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%s: permissions %04o let others read the private key (want 0600: chmod 600 %s)", path, st.Mode().Perm(), path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxKeyFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > maxKeyFile {
		return nil, fmt.Errorf("%s: larger than %d bytes: not a key file", path, maxKeyFile)
	}
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("%s: not a PEM \"PRIVATE KEY\" (PKCS #8) file", path)
	}
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("%s: a %T key cannot sign", path, key)
	}
	k, err := newSigningKey(signer)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// SigningPayload is what a card signature covers (A2A 1.0 section 8.4.1):
// the card's JSON without its signatures member, canonicalized by RFC 8785.
// data is the card as served; members a2a-go leaves out when they hold
// their default value are already absent from it.
func SigningPayload(data []byte) ([]byte, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return nil, fmt.Errorf("card is not a JSON object: %w", err)
	}
	if members == nil {
		return nil, errors.New("card is not a JSON object")
	}
	// Canonicalize the card as received, not the map: the map would hide a
	// duplicate member name, which Canonicalize refuses.
	canon, err := Canonicalize(data)
	if err != nil {
		return nil, err
	}
	if _, ok := members["signatures"]; !ok {
		return canon, nil
	}
	delete(members, "signatures")
	rest, err := json.Marshal(members)
	if err != nil {
		return nil, err
	}
	return Canonicalize(rest)
}

// SignJSON adds a signature by k to the card data (its JSON) and returns
// the signed card's JSON. Signatures the card already has are kept (a card
// may carry several, for key rotation), but a previous signature by the same
// key is replaced. The protected header carries alg, typ JOSE, kid (the
// key's thumbprint) and the public key itself as jwk, so a verifier can
// check the signature without fetching anything and pin the key id.
func (k *SigningKey) SignJSON(data []byte) ([]byte, error) {
	payload, err := SigningPayload(data)
	if err != nil {
		return nil, err
	}
	sig, err := k.sign(payload)
	if err != nil {
		return nil, err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return nil, err
	}
	var sigs []a2a.AgentCardSignature
	if old, ok := members["signatures"]; ok {
		if err := json.Unmarshal(old, &sigs); err != nil {
			return nil, fmt.Errorf("card signatures: %w", err)
		}
	}
	sigs = append(removeKeySignatures(sigs, k.keyID), sig)
	enc, err := json.Marshal(sigs)
	if err != nil {
		return nil, err
	}
	members["signatures"] = enc
	return json.Marshal(members)
}

// Sign returns a copy of card signed by k, as SignJSON signs its JSON.
func (k *SigningKey) Sign(card *a2a.AgentCard) (*a2a.AgentCard, error) {
	data, err := json.Marshal(card)
	if err != nil {
		return nil, err
	}
	signed, err := k.SignJSON(data)
	if err != nil {
		return nil, err
	}
	var out a2a.AgentCard
	if err := json.Unmarshal(signed, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

func (k *SigningKey) sign(payload []byte) (a2a.AgentCardSignature, error) {
	opts := (&jose.SignerOptions{}).WithType("JOSE").WithHeader("jwk", k.Public())
	signer, err := jose.NewSigner(jose.SigningKey{
		Algorithm: jose.SignatureAlgorithm(k.alg),
		Key:       jose.JSONWebKey{Key: k.priv, KeyID: k.keyID, Algorithm: k.alg},
	}, opts)
	if err != nil {
		return a2a.AgentCardSignature{}, err
	}
	obj, err := signer.Sign(payload)
	if err != nil {
		return a2a.AgentCardSignature{}, err
	}
	compact, err := obj.DetachedCompactSerialize()
	if err != nil {
		return a2a.AgentCardSignature{}, err
	}
	protected, signature, ok := strings.Cut(compact, "..")
	if !ok {
		return a2a.AgentCardSignature{}, errors.New("jws: unexpected detached serialization")
	}
	return a2a.AgentCardSignature{Protected: protected, Signature: signature}, nil
}

// removeKeySignatures drops the signatures whose protected header names kid.
func removeKeySignatures(sigs []a2a.AgentCardSignature, kid string) []a2a.AgentCardSignature {
	out := sigs[:0:0]
	for _, s := range sigs {
		if h, err := decodeHeader(s.Protected); err == nil && h.KeyID == kid {
			continue
		}
		out = append(out, s)
	}
	return out
}
