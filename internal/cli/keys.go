package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/spf13/cobra"

	"github.com/agentnet/agentnet/a2a/host"

	"github.com/agentnet/agentnet/cards"
)

// defaultKeyName is the key `keys new` makes and --sign-key default names.
const defaultKeyName = "default"

func newKeysCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "keys",
		Short: "Make and show the keys that sign agent cards",
		Long: `Keys makes and shows the private keys that sign agent cards (A2A 1.0
section 8.4: a JWS over the card's RFC 8785 canonical JSON, its signatures
member left out). A key is a PKCS #8 PEM file readable by its owner alone
(0600); it never leaves the machine: serve and fleet up read it and put only
signatures in the cards they serve. Keys live in $AGENTNET_HOME/keys/NAME.pem
(AGENTNET_HOME defaulting to ~/.agentnet); a NAME with a slash or ending in
.pem is a file path instead.

A key's id (kid) is the RFC 7638 thumbprint of its public key, so a registry
shows the same id for the same key anywhere. "keys show --jwks" prints the
public key as a JWK Set, the form of a registry's --trusted-keys file.`,
	}
	cmd.AddCommand(newKeysNewCmd(env), newKeysShowCmd(env))
	return cmd
}

// keyInfo is what keys new and keys show print with --json.
type keyInfo struct {
	Path   string          `json:"path"`
	KeyID  string          `json:"kid"`
	Alg    string          `json:"alg"`
	Public json.RawMessage `json:"public_jwk"`
}

func newKeysNewCmd(env *Env) *cobra.Command {
	var typ string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "new [NAME]",
		Short: "Make a new card-signing key (Ed25519 by default, or ES256)",
		Example: `  agentnet keys new
  agentnet keys new ops --type es256
  agentnet keys new ./signing.pem`,
		Args: maxArgs(1, "NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := keyPath(env, firstArg(args))
			k, err := cards.NewKey(typ)
			if err != nil {
				return usageError("keys new: %v", err)
			}
			if err := k.WriteKeyFile(path); err != nil {
				if errors.Is(err, fs.ErrExist) {
					return invalidInput(fmt.Errorf("keys new: %s exists; a key is never overwritten", path))
				}
				return fmt.Errorf("keys new: %w", err)
			}
			return printKey(env, path, k, asJSON)
		},
	}
	cmd.Flags().StringVar(&typ, "type", "ed25519", "key type: "+strings.Join(cards.KeyTypes, " or "))
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"path", "kid", "alg", "public_jwk"} as JSON`)
	return cmd
}

func newKeysShowCmd(env *Env) *cobra.Command {
	var asJSON, jwks bool
	cmd := &cobra.Command{
		Use:   "show [NAME]",
		Short: "Show a key's id, algorithm and public key (never the private key)",
		Example: `  agentnet keys show
  agentnet keys show --jwks > trusted-keys.json`,
		Args: maxArgs(1, "NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := keyPath(env, firstArg(args))
			k, err := cards.LoadKeyFile(path)
			if err != nil {
				return invalidInput(fmt.Errorf("keys show: %w", err))
			}
			if jwks {
				data, err := k.PublicJWKS()
				if err != nil {
					return err
				}
				_, err = fmt.Fprintf(env.Stdout, "%s\n", data)
				return err
			}
			return printKey(env, path, k, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"path", "kid", "alg", "public_jwk"} as JSON`)
	cmd.Flags().BoolVar(&jwks, "jwks", false, "print the public key as a JWK Set (a registry's --trusted-keys file)")
	return cmd
}

func printKey(env *Env, path string, k *cards.SigningKey, asJSON bool) error {
	pub, err := json.Marshal(k.Public())
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(env.Stdout, keyInfo{Path: path, KeyID: k.KeyID(), Alg: k.Alg(), Public: pub})
	}
	_, err = fmt.Fprintf(env.Stdout, "key\t%s\nkid\t%s\nalg\t%s\npublic\t%s\n", path, k.KeyID(), k.Alg(), pub)
	return err
}

// keyPath is where key NAME lives: a path when it has a slash or ends in
// .pem, else $AGENTNET_HOME/keys/NAME.pem.
func keyPath(env *Env, name string) string {
	if name == "" {
		name = defaultKeyName
	}
	if strings.ContainsRune(name, filepath.Separator) || strings.Contains(name, "/") || strings.HasSuffix(name, ".pem") {
		return name
	}
	return filepath.Join(agentnetHomeDir(env), "keys", name+".pem")
}

// loadSignKey reads the key a --sign-key flag names; "" is no key.
func loadSignKey(env *Env, name string) (*cards.SigningKey, error) {
	if name == "" {
		return nil, nil
	}
	k, err := cards.LoadKeyFile(keyPath(env, name))
	if err != nil {
		return nil, invalidInput(fmt.Errorf("--sign-key: %w", err))
	}
	return k, nil
}

func firstArg(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// signKeyFlagHelp is the help of every --sign-key flag.
const signKeyFlagHelp = "sign the agent cards served with this key: a NAME in $AGENTNET_HOME/keys (see 'agentnet keys') or a .pem file"

// maxArgs is cobra.MaximumNArgs with the contract's exit code for bad usage.
func maxArgs(n int, names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > n {
			return usageError("%s: want at most %d argument(s) %s, got %d (see '%s --help')", cmd.CommandPath(), n, strings.Join(names, " "), len(args), cmd.CommandPath())
		}
		return nil
	}
}

// cardSigning is the host options of --sign-key and AGENTNET_CARD_SIGNATURES.
func cardSigning(env *Env, signKey string) ([]host.Option, error) {
	k, err := loadSignKey(env, signKey)
	if err != nil {
		return nil, err
	}
	if k != nil {
		return []host.Option{host.WithSigningKey(k)}, nil
	}
	raw := env.getenv(host.CardSignaturesEnv)
	if raw == "" {
		return nil, nil
	}
	var sigs []a2a.AgentCardSignature
	if err := json.Unmarshal([]byte(raw), &sigs); err != nil || len(sigs) == 0 {
		return nil, invalidInput(fmt.Errorf("%s: not a JSON array of card signatures", host.CardSignaturesEnv))
	}
	return []host.Option{host.WithCardSignatures(sigs)}, nil
}
