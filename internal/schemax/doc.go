// Package schemax compiles JSON Schemas (draft 2020-12 by default) and
// validates values against them, reporting every violation as an Issue with
// the location of the offending value, so callers can turn them into
// file:line problems (bundles), 422 bodies (the registry) or failed tasks
// (the host).
//
//	sch, err := schemax.Compile(map[string]any{"type": "object", "required": []any{"file"}})
//	if err != nil { ... } // the schema itself is broken
//	for _, is := range sch.Validate(map[string]any{}) {
//		fmt.Println(is) // (root): missing property 'file'
//	}
//
// Values may be any Go value that encodes as JSON; they are normalized
// through encoding/json before validation, so numbers compare exactly.
package schemax
