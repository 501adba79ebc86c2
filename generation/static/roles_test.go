package static

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/bundle"
)

// The generator writes each parameter's role and media types, and a bundle
// read back carries them as declared, not derived.
func TestWriteRoles(t *testing.T) {
	b := &bundle.Bundle{Version: 1, Name: "x", Description: "d", Skills: []bundle.Skill{{
		ID: "plot", Name: "Plot", Description: "Plot a column of a table.",
		Params: map[string]any{"type": "object", "properties": map[string]any{
			"table":  map[string]any{"type": "string", "format": "path", "description": "CSV file to read"},
			"column": map[string]any{"type": "string"},
			"output": map[string]any{"type": "string", "format": "output-path", "description": "PNG image to write"},
			"width":  map[string]any{"type": "integer"},
		}, "required": []any{"table"}},
		Run: bundle.Command{"plot", "{{table}}", "--column", "{{column}}", "-o", "{{output}}", "--width", "{{width}}"},
	}}}
	writeRoles(b)
	data, err := Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"x-role: input-file", "x-role: selector", "x-role: output", "x-role: setting", "x-accepts: [text/csv]", "x-accepts: [image/png]"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("bundle lacks %q:\n%s", want, data)
		}
	}
	back, err := bundle.Parse(filepath.Join(t.TempDir(), bundle.FileName), data)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range back.Skills[0].ParamList() {
		if p.RoleDerived {
			t.Errorf("%s: role derived on reading back, want declared", p.Name)
		}
	}
	in, out := back.Skills[0].Modes()
	if strings.Join(in, ",") != "text/csv" || strings.Join(out, ",") != "text/plain,image/png" {
		t.Errorf("Modes() = %v, %v", in, out)
	}
}
