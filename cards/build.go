package cards

import (
	"slices"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/bundle"
)

// V03 is the A2A protocol version of the 0.3 wire format that hosted agents
// also speak.
const V03 a2a.ProtocolVersion = "0.3"

// DefaultVersion is the agent version a card carries when none is given.
const DefaultVersion = "1.0.0"

// DefaultMode is the input and output mode of a skill that declares none.
const DefaultMode = "text/plain"

// BuildOption customizes Build.
type BuildOption func(*buildConfig)

type buildConfig struct {
	version string
	v03URL  string
}

// WithVersion sets the agent's own version (default DefaultVersion).
func WithVersion(v string) BuildOption {
	return func(c *buildConfig) {
		if v != "" {
			c.version = v
		}
	}
}

// WithV03URL sets the URL of the A2A 0.3 JSON-RPC interface when it differs
// from the 1.0 one (by default both are served at the same URL).
func WithV03URL(url string) BuildOption {
	return func(c *buildConfig) { c.v03URL = url }
}

// Build returns the A2A 1.0 card of bundle b served at url: a 1.0 and a 0.3
// JSON-RPC interface, then the HTTP+JSON and the gRPC interface of 1.0 at
// the same URL (gRPC over cleartext HTTP/2 on the same port for an http
// URL), streaming, and one card skill per bundle
// skill. Lists are never nil and required strings never empty (an empty
// skill name falls back to its id), so the card passes Validate whenever the
// bundle is valid and url is reachable.
func Build(b *bundle.Bundle, url string, opts ...BuildOption) *a2a.AgentCard {
	cfg := buildConfig{version: DefaultVersion, v03URL: url}
	for _, o := range opts {
		o(&cfg)
	}
	card := &a2a.AgentCard{
		Name:        strings.TrimSpace(b.Name),
		Description: strings.TrimSpace(b.Description),
		Version:     cfg.version,
		SupportedInterfaces: []*a2a.AgentInterface{
			{URL: url, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2a.Version},
			{URL: cfg.v03URL, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: V03},
			{URL: url, ProtocolBinding: a2a.TransportProtocolHTTPJSON, ProtocolVersion: a2a.Version},
			{URL: url, ProtocolBinding: a2a.TransportProtocolGRPC, ProtocolVersion: a2a.Version},
		},
		Capabilities:       a2a.AgentCapabilities{Streaming: true},
		DefaultInputModes:  []string{},
		DefaultOutputModes: []string{},
		Skills:             []a2a.AgentSkill{},
	}
	for _, sk := range b.Skills {
		// What goes in and out: the bundle's modes, else those its
		// parameters' roles and media types say (bundle.Skill.Modes).
		in, out := sk.Modes()
		card.DefaultInputModes = union(card.DefaultInputModes, in)
		card.DefaultOutputModes = union(card.DefaultOutputModes, out)
		s := a2a.AgentSkill{
			ID:          sk.ID,
			Name:        strings.TrimSpace(sk.Name),
			Description: strings.TrimSpace(sk.Description),
			Tags:        nonEmpty(sk.Tags),
			Examples:    nonEmpty(sk.Examples),
			InputModes:  in,
			OutputModes: out,
		}
		if s.Name == "" {
			s.Name = sk.ID
		}
		if len(s.Examples) == 0 {
			s.Examples = nil // omitted rather than an empty list
		}
		card.Skills = append(card.Skills, s)
	}
	if len(card.DefaultInputModes) == 0 {
		card.DefaultInputModes = []string{DefaultMode}
	}
	if len(card.DefaultOutputModes) == 0 {
		card.DefaultOutputModes = []string{DefaultMode}
	}
	return card
}

func union(a, b []string) []string {
	for _, x := range b {
		if !slices.Contains(a, x) {
			a = append(a, x)
		}
	}
	return a
}

func nonEmpty(list []string) []string {
	out := []string{}
	for _, s := range list {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
