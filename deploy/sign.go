package deploy

import (
	"encoding/json"
	"fmt"

	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/bundle"
)

// CardSignaturesVar is the environment variable that hands an agent the
// signatures of its card, made here with Config.SignKey: the key itself
// never reaches the agent's process or container, where the repository's
// code runs. It is "" when no key is configured.
func (c Config) CardSignaturesVar(b *bundle.Bundle, url string) (string, error) {
	if c.SignKey == nil {
		return "", nil
	}
	sigs, err := host.SignCard(c.SignKey, b, url)
	if err != nil {
		return "", fmt.Errorf("sign the card: %w", err)
	}
	data, err := json.Marshal(sigs)
	if err != nil {
		return "", err
	}
	return host.CardSignaturesEnv + "=" + string(data), nil
}
