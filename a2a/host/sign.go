package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/cards"
)

// CardSignaturesEnv is the environment variable through which whoever starts
// "agentnet serve" hands it card signatures made with a key it holds (a
// JSON array of A2A AgentCardSignature objects, for WithCardSignatures).
const CardSignaturesEnv = "AGENTNET_CARD_SIGNATURES"

// WithSigningKey makes the host sign the card it serves with k (A2A 1.0
// section 8.4): the card of a bundle with skills once, at start; the card of
// a bundle's own server each time it is served, after its URLs are
// rewritten. The key stays in the host's memory.
func WithSigningKey(k *cards.SigningKey) Option { return func(c *config) { c.signKey = k } }

// WithCardSignatures attaches signatures made elsewhere (by the process that
// started the host, which holds the key) to the card. Start fails unless
// one of them verifies over the card the host builds, so a host never serves
// a card whose signature is wrong. A bundle with serve cannot take them:
// its card is not known before its server answers.
func WithCardSignatures(sigs []a2a.AgentCardSignature) Option {
	return func(c *config) { c.signatures = sigs }
}

// BuildCard returns the card JSON a host started with opts serves for
// bundle b at url, before any signature: the union of the A2A 1.0 and 0.3
// forms a2a-go serves, which is what a signature covers.
func BuildCard(b *bundle.Bundle, url string, opts ...Option) ([]byte, error) {
	return servedJSON(buildCard(b, url, newConfig(opts)))
}

func buildCard(b *bundle.Bundle, url string, cfg config) *a2a.AgentCard {
	return cards.Build(b, url, cards.WithVersion(cfg.version))
}

// servedJSON is the JSON a2a-go's card handler serves for card: the 1.0
// card with the 0.3 members beside.
func servedJSON(card *a2a.AgentCard) ([]byte, error) {
	p, ok := a2av0.NewStaticAgentCardProducer(card).(a2asrv.AgentCardJSONProducer)
	if !ok {
		return json.Marshal(card)
	}
	return p.CardJSON(context.Background())
}

// SignCard signs the card a host serves for b at url with k and returns its
// signatures, for WithCardSignatures.
func SignCard(k *cards.SigningKey, b *bundle.Bundle, url string, opts ...Option) ([]a2a.AgentCardSignature, error) {
	if len(b.Serve) > 0 {
		return nil, fmt.Errorf("bundle %s has its own server: its card is only known once the server answers, so only the host can sign it (agentnet serve --sign-key)", b.Name)
	}
	data, err := BuildCard(b, url, opts...)
	if err != nil {
		return nil, err
	}
	signed, err := k.SignJSON(data)
	if err != nil {
		return nil, err
	}
	var card struct {
		Signatures []a2a.AgentCardSignature `json:"signatures"`
	}
	if err := json.Unmarshal(signed, &card); err != nil {
		return nil, err
	}
	return card.Signatures, nil
}

// signCard applies the signing options to the card a host built: h.cardJSON
// becomes the signed JSON served, h.card carries the signatures.
func (h *Host) signCard() error {
	if h.cfg.signKey == nil && len(h.cfg.signatures) == 0 {
		return nil
	}
	data, err := servedJSON(h.card)
	if err != nil {
		return err
	}
	if h.cfg.signKey != nil {
		if data, err = h.cfg.signKey.SignJSON(data); err != nil {
			return fmt.Errorf("sign the card: %w", err)
		}
	} else {
		var members map[string]json.RawMessage
		if err := json.Unmarshal(data, &members); err != nil {
			return err
		}
		if members["signatures"], err = json.Marshal(h.cfg.signatures); err != nil {
			return err
		}
		if data, err = json.Marshal(members); err != nil {
			return err
		}
		if v := cards.VerifyJSON(data, nil); !v.Valid() {
			return fmt.Errorf("the card signatures given do not verify over this host's card: %s", v)
		}
	}
	var signed struct {
		Signatures []a2a.AgentCardSignature `json:"signatures"`
	}
	if err := json.Unmarshal(data, &signed); err != nil {
		return err
	}
	card := *h.card
	card.Signatures = signed.Signatures
	h.card, h.cardJSON = &card, data
	return nil
}

// signedProducer serves the signed card JSON as it was signed.
type signedProducer struct {
	card *a2a.AgentCard
	data []byte
}

func (p signedProducer) Card(context.Context) (*a2a.AgentCard, error) { return p.card, nil }
func (p signedProducer) CardJSON(context.Context) ([]byte, error)     { return p.data, nil }

// cardProducer is what the card paths serve.
func (h *Host) cardProducer() a2asrv.AgentCardProducer {
	if h.cardJSON != nil {
		return signedProducer{card: h.card, data: h.cardJSON}
	}
	return a2av0.NewStaticAgentCardProducer(h.card)
}

// signOwnCard signs the card JSON of a bundle's own server, when the host
// has a key.
func (h *Host) signOwnCard(data []byte) ([]byte, error) {
	if h.cfg.signKey == nil {
		return data, nil
	}
	return h.cfg.signKey.SignJSON(data)
}

var errOwnSignatures = errors.New("a bundle with serve cannot take card signatures made ahead of time: give the host the key instead")
