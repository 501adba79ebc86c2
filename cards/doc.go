// Package cards holds helpers over a2a.AgentCard (plural, like strings):
// building a card from an agent bundle, parsing cards of A2A 1.0 and 0.3
// agents, and strict validation — a JSON Schema generated from a2a-go's
// AgentCard type plus the lint rules a schema can't express.
//
// The host builds its card from the bundle and the URL callers reach it at:
//
//	card := cards.Build(b, "http://127.0.0.1:8080/")
//
// The registry, the generator's success test and the audit validate any
// card's JSON and report every problem at once:
//
//	for _, p := range cards.Validate(data) {
//		fmt.Println(p) // skills[1].id: duplicate skill id "top" (also skills[0]) [lint]
//	}
//
// Cards are signed and verified as A2A 1.0 section 8.4 says (sign.go,
// verify.go): a JWS over the card's RFC 8785 canonical JSON without its
// signatures member (Canonicalize, SigningPayload), by Ed25519 or ES256 keys
// kept in 0600 PKCS #8 files, checked against the key a signature embeds or
// a trusted JWK Set; a jku is never fetched:
//
//	k, _ := cards.NewKey("ed25519")
//	signed, _ := k.SignJSON(data)
//	v := cards.VerifyJSON(signed, nil) // v.Verified.KeyID == k.KeyID()
//
// The package imports no HTTP server or client.
package cards
