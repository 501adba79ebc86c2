package bundle

import (
	"encoding/json"

	"github.com/invopop/jsonschema"
)

// Schema returns the JSON Schema of agent.yaml, generated from the Go types.
func Schema() *jsonschema.Schema {
	r := &jsonschema.Reflector{RequiredFromJSONSchemaTags: true}
	s := r.Reflect(&Bundle{})
	s.ID = "https://agentnet.dev/schema/bundle.json"
	s.Title = "agentnet agent bundle"
	s.Description = "agent.yaml: how a repository becomes an A2A agent — setup, check, and skills run from argv templates (or a server of its own)."
	return s
}

// SchemaJSON returns Schema indented as JSON.
func SchemaJSON() []byte {
	b, err := json.MarshalIndent(Schema(), "", "  ")
	if err != nil {
		panic(err) // the schema is built from static types
	}
	return append(b, '\n')
}
