package cli

import (
	"encoding/json"
	"io"

	"github.com/spf13/cobra"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/eval"
	"github.com/agentnet/agentnet/tasks"
)

// schemas maps a file format to its JSON Schema; packages that own a format
// add theirs here.
var schemas = map[string]func() []byte{
	"suite":   tasks.SchemaJSON,
	"bundle":  bundle.SchemaJSON,
	"results": eval.ResultsSchemaJSON,
}

func newSchemaCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:       "schema suite|bundle|results",
		Short:     "Print the JSON Schema of a file format",
		Example:   "  agentnet schema suite > suite.schema.json",
		ValidArgs: []string{"suite", "bundle", "results"},
		Args:      exactArgs(1, "FORMAT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			gen, ok := schemas[args[0]]
			if !ok {
				return usageError("unknown format %q (want one of: %s)", args[0], schemaNames())
			}
			_, err := env.Stdout.Write(gen())
			return err
		},
	}
}

func schemaNames() string {
	names := ""
	for _, n := range []string{"suite", "bundle", "results"} {
		if _, ok := schemas[n]; ok {
			if names != "" {
				names += ", "
			}
			names += n
		}
	}
	return names
}

// writeJSONLine writes v as one line of JSON, for outputs read line by
// line (ready lines).
func writeJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
