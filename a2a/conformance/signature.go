package conformance

import (
	"encoding/base64"
	"encoding/json"
	"strings"

	"github.com/agentnet/agentnet/cards"
)

// checkSignature runs the card signature checks (A2A 1.0 section 8.4): the
// protected headers carry alg and kid, a signature verifies over the card's
// RFC 8785 canonical form without its signatures member, and (MAY) the card
// is signed at all. The verifying key is the jwk a protected header embeds,
// or the trusted keys given with WithTrustedKeys; a jku is never fetched.
func (r *run) checkSignature(data []byte) {
	sigs, _ := r.cardObj["signatures"].([]any)
	if len(sigs) == 0 {
		r.fail(CardSigned, "", "the card carries no signature")
		r.skip(CardSignatureHeader, "", "the card carries no signature")
		r.skip(CardSignatureValid, "", "the card carries no signature")
		return
	}
	var bad []string
	for i, s := range sigs {
		obj, _ := s.(map[string]any)
		prot, _ := obj["protected"].(string)
		raw, err := base64.RawURLEncoding.DecodeString(prot)
		var h map[string]any
		if err != nil || json.Unmarshal(raw, &h) != nil {
			bad = append(bad, "signatures["+itoa(i)+"]: the protected header is not base64url JSON")
			continue
		}
		for _, k := range []string{"alg", "kid"} {
			if v, _ := h[k].(string); v == "" {
				bad = append(bad, "signatures["+itoa(i)+"]: the protected header has no "+k)
			}
		}
	}
	if len(bad) > 0 {
		r.fail(CardSignatureHeader, "", "%s", strings.Join(bad, "; "))
	} else {
		r.pass(CardSignatureHeader, "")
	}
	r.pass(CardSigned, "")
	v := cards.VerifyJSON(data, r.a.trusted)
	switch {
	case v.Valid():
		r.add(CardSignatureValid, "", Pass, v.String())
	case onlyUnresolvable(v.Problems):
		r.skip(CardSignatureValid, "", "no key to verify with: %s", strings.Join(v.Problems, "; "))
	default:
		r.fail(CardSignatureValid, "", "%s", v.String())
	}
}

// onlyUnresolvable reports whether every signature failed for want of a key
// (a jku the audit does not fetch), not because it is wrong.
func onlyUnresolvable(problems []string) bool {
	if len(problems) == 0 {
		return false
	}
	for _, p := range problems {
		if !strings.Contains(p, "not fetched") && !strings.Contains(p, "no key to verify with") && !strings.Contains(p, "not among the trusted keys") {
			return false
		}
	}
	return true
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}
