package tasks

import (
	"encoding/json"

	"github.com/invopop/jsonschema"
)

// Schema returns the JSON Schema of the suite file, generated from the Go
// types.
func Schema() *jsonschema.Schema {
	r := &jsonschema.Reflector{
		RequiredFromJSONSchemaTags: true,
		DoNotReference:             false,
	}
	s := r.Reflect(&Suite{})
	s.ID = "https://agentnet.dev/schema/suite.json"
	s.Title = "agentnet suite"
	s.Description = "Repos with ground-truth skills, and the single, chain and commission tasks to run on them."
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
