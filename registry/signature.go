package registry

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentnet/agentnet/cards"
)

// Signature is the key a record's card is signed by, as the registry
// verified it (A2A 1.0 section 8.4).
type Signature = cards.SignatureInfo

// WithTrustedKeys makes the registry verify card signatures against these
// public keys only (a JWK Set file, cards.LoadTrustedKeys). Without it a
// signature verifies against the key its protected header embeds: that
// proves the card is unchanged since that key signed it and pins the key
// id, not who holds the key. A jku is never fetched.
func WithTrustedKeys(t *cards.TrustedKeys) Option { return func(c *serviceConfig) { c.trusted = t } }

// WithRequireSigned refuses cards without a signature that verifies.
func WithRequireSigned(require bool) Option {
	return func(c *serviceConfig) { c.requireSigned = require }
}

// verifyCard checks the signatures of a fetched card for registration. A
// card that carries signatures must have one that verifies, whatever the
// options: a signature that fails means the card changed after signing. An
// unsigned card passes unless signatures are required.
func (s *Service) verifyCard(raw []byte) (*Signature, []string) {
	v := cards.VerifyJSON(raw, s.trusted)
	switch {
	case v.Valid():
		return v.Verified, nil
	case v.Signed:
		return nil, []string{"card " + v.String()}
	case s.requireSigned:
		return nil, []string{"card is unsigned; this registry requires signed cards (A2A 1.0 section 8.4; see 'agentnet keys')"}
	}
	return nil, nil
}

// checkUpdate refuses a registration that would replace a signed card with
// one not signed by the same key: the key id a record shows can only
// change to another key the registry trusts (key rotation through the
// trusted-keys file).
func (s *Service) checkUpdate(ctx context.Context, id string, sig *Signature) error {
	old, err := s.store.Get(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	prev := cards.VerifyJSON(old.Card, s.trusted).Verified
	switch {
	case prev == nil:
		return nil
	case sig == nil:
		return invalid(old.URL, fmt.Sprintf("the registered card is signed by %s; an update must be signed too", prev.KeyID))
	case sig.KeyID != prev.KeyID && sig.Source != cards.KeySourceTrusted:
		return invalid(old.URL, fmt.Sprintf("the registered card is signed by %s, the new one by %s; a new key must be among the registry's trusted keys", prev.KeyID, sig.KeyID))
	}
	return nil
}

// withSignature fills rec.Signature by verifying its stored card again, so
// the key shown is always one the registry's current keys accept.
func (s *Service) withSignature(rec *Record) {
	rec.Signature = cards.VerifyJSON(rec.Card, s.trusted).Verified
}

func (s *Service) withSignatures(hits []Hit) {
	for i := range hits {
		s.withSignature(&hits[i].Record)
	}
}
