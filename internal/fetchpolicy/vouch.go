package fetchpolicy

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// Vouching. An orchestrator that passes a file URL from one agent to the
// next vouches for it with an HMAC-SHA256 of the URL under a key it shares
// with the hosts it deployed; such a host fetches a vouched URL even when
// its origin is not on the host's fetch list (the address policy still
// applies). A caller without the key can vouch for nothing.

// KeyEnv is the environment variable that hands the key (hex) to the hosts
// agentnet deploys. Skills never see it.
const KeyEnv = "AGENTNET_FILE_KEY"

// VouchMetadataKey is the file part metadata key that holds the vouch.
const VouchMetadataKey = "agentnet.vouch"

// KeySize is the size of a key in bytes.
const KeySize = 32

// NewKey returns a random key.
func NewKey() ([]byte, error) {
	key := make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	return key, nil
}

// ParseKey reads a key written in hex (as KeyEnv holds it).
func ParseKey(s string) ([]byte, error) {
	key, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil || len(key) < 16 {
		return nil, fmt.Errorf("%s: want at least 16 bytes written in hex", KeyEnv)
	}
	return key, nil
}

// Vouch returns the vouch for url under key.
func Vouch(key []byte, url string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(url))
	return hex.EncodeToString(m.Sum(nil))
}

// Vouched reports whether vouch is url's under key; never with no key.
func Vouched(key []byte, url, vouch string) bool {
	if len(key) == 0 || vouch == "" {
		return false
	}
	got, err := hex.DecodeString(vouch)
	if err != nil {
		return false
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(url))
	return hmac.Equal(got, m.Sum(nil))
}
