package schemax

import (
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	t.Parallel()
	sch, err := Compile(map[string]any{
		"type":       "object",
		"properties": map[string]any{"file": map[string]any{"type": "string", "format": "path"}, "items": map[string]any{"type": "array", "items": map[string]any{"type": "integer", "minimum": 1}}},
		"required":   []any{"file"},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		v    any
		want []string
	}{
		{map[string]any{"file": "a.txt", "items": []any{1, 2}}, nil},
		{map[string]any{"items": []any{1, 0, "x"}}, []string{"(root): missing property 'file'", "items[1]: minimum: got 0, want 1", "items[2]: got string, want integer"}},
	}
	for _, tc := range tests {
		got := sch.Validate(tc.v)
		if len(got) != len(tc.want) {
			t.Fatalf("Validate(%v) = %v, want %v", tc.v, got, tc.want)
		}
		for i, w := range tc.want {
			if got[i].String() != w {
				t.Errorf("Validate(%v)[%d] = %q, want %q", tc.v, i, got[i], w)
			}
		}
	}
	if got := sch.ValidateJSON([]byte("{")); len(got) != 1 || !strings.Contains(got[0].Msg, "not valid JSON") {
		t.Errorf("ValidateJSON(broken) = %v", got)
	}
}

func TestCompileError(t *testing.T) {
	t.Parallel()
	if _, err := Compile(map[string]any{"type": 12}); err == nil || strings.Contains(err.Error(), "mem://") {
		t.Errorf("Compile(bad) error = %v, want an error without the internal resource name", err)
	}
}

func TestFieldPath(t *testing.T) {
	t.Parallel()
	if got := FieldPath([]string{"skills", "2", "id"}); got != "skills[2].id" {
		t.Errorf("FieldPath() = %q", got)
	}
}
