package cli

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentnet/agentnet/internal/fetchpolicy"
)

// fileKeyName is the file under AGENTNET_HOME that holds the key with which
// `agentnet run` vouches for the file URLs it passes from agent to agent,
// and which `fleet up` hands to the agents it starts (AGENTNET_FILE_KEY).
const fileKeyName = "file.key"

// fileKey returns the key of the fleets under AGENTNET_HOME, made on first
// use (readable by the user alone). AGENTNET_FILE_KEY, when set, is it.
func fileKey(env *Env) ([]byte, error) {
	if key, err := existingFileKey(env); key != nil || err != nil {
		return key, err
	}
	p := filepath.Join(agentnetHomeDir(env), fileKeyName)
	key, err := fetchpolicy.NewKey()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if os.IsExist(err) {
		return fileKey(env) // made by another command a moment ago
	}
	if err != nil {
		return nil, err
	}
	_, err = f.WriteString(hex.EncodeToString(key) + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return key, err
}

// existingFileKey is fileKey without making one: nil when no fleet under
// AGENTNET_HOME has one (its agents then take no vouched URLs either).
func existingFileKey(env *Env) ([]byte, error) {
	if s := env.getenv(fetchpolicy.KeyEnv); s != "" {
		return fetchpolicy.ParseKey(s)
	}
	p := filepath.Join(agentnetHomeDir(env), fileKeyName)
	data, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	key, err := fetchpolicy.ParseKey(string(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return key, nil
}
