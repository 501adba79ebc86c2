// Package yamlx decodes YAML (and therefore JSON) documents into Go structs
// strictly, collecting every problem at once with its file, line, column and
// field path, so that a user fixing a suite or a bundle sees all mistakes in
// one pass instead of one per run.
//
// Field names come from the `json` struct tags, so one set of tags serves the
// YAML form, the JSON form and the generated JSON Schema:
//
//	var s Suite
//	d := yamlx.NewDecoder("suite.yaml")
//	d.DecodeBytes(data, &s)
//	if err := d.Err(); err != nil {
//		// err is yamlx.Problems: one line per problem, "suite.yaml:3:5: repos[0].id: ..."
//	}
//
// After decoding, semantic checks add their own problems at the position of
// the field they concern with Decoder.Errorf and a field path such as
// "tasks[2].repo".
package yamlx
