package yamlx

import (
	"encoding/json"
	"time"

	"github.com/invopop/jsonschema"
	"go.yaml.in/yaml/v4"
)

// Duration is a time.Duration written as a Go duration string ("90s",
// "2m"); it must be positive. Suites and bundles use it for timeouts.
type Duration struct{ time.Duration }

// UnmarshalYAMLNode parses a duration string.
func (t *Duration) UnmarshalYAMLNode(d *Decoder, n *yaml.Node, path string) {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		d.NodeErrorf(n, path, "want a duration such as \"90s\" or \"2m\", got %q", n.Value)
		return
	}
	v, err := time.ParseDuration(n.Value)
	if err != nil {
		d.NodeErrorf(n, path, "bad duration %q (want e.g. \"90s\", \"2m\")", n.Value)
		return
	}
	if v <= 0 {
		d.NodeErrorf(n, path, "duration %q must be positive", n.Value)
		return
	}
	t.Duration = v
}

// MarshalJSON writes the duration as a string.
func (t Duration) MarshalJSON() ([]byte, error) { return json.Marshal(t.String()) }

// IsZero reports whether no duration was given (for omitzero).
func (t Duration) IsZero() bool { return t.Duration == 0 }

// JSONSchema describes a duration string.
func (Duration) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type:        "string",
		Pattern:     `^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`,
		Description: "A Go duration such as 90s or 2m.",
	}
}
