package cards

import (
	"encoding/json"
	"testing"
)

// The cost of signing and verifying a card, against canonicalizing it
// (the part of the work that is not cryptography) and against parsing it
// as the registry does for every registration anyway.
func BenchmarkCardSignature(b *testing.B) {
	unsigned := []byte(validCard)
	b.Run("parse", func(b *testing.B) {
		for b.Loop() {
			var m map[string]any
			if err := json.Unmarshal(unsigned, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("canonicalize", func(b *testing.B) {
		for b.Loop() {
			if _, err := SigningPayload(unsigned); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("verify-unsigned", func(b *testing.B) {
		for b.Loop() {
			if v := VerifyJSON(unsigned, nil); v.Signed {
				b.Fatal(v)
			}
		}
	})
	for _, typ := range KeyTypes {
		k, err := NewKey(typ)
		if err != nil {
			b.Fatal(err)
		}
		signed, err := k.SignJSON(unsigned)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("sign-"+typ, func(b *testing.B) {
			for b.Loop() {
				if _, err := k.SignJSON(unsigned); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("verify-"+typ, func(b *testing.B) {
			for b.Loop() {
				if v := VerifyJSON(signed, nil); !v.Valid() {
					b.Fatal(v)
				}
			}
		})
	}
}
