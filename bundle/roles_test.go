package bundle

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/internal/yamlx"
)

const withRoles = `version: 1
name: x
description: y
skills:
  - id: a
    name: A
    description: d
    params:
      type: object
      properties:
        table: {type: string, format: path, x-role: input-file, x-accepts: [text/csv]}
        column: {type: string, x-role: selector}
        out: {type: string, format: output-path, x-role: output, x-accepts: [image/png]}
      required: [table, column]
    run: [tool, "{{table}}", "{{column}}", -o, "{{out}}"]
`

func TestRolesDeclared(t *testing.T) {
	t.Parallel()
	b, err := Load(writeBundle(t, withRoles))
	if err != nil {
		t.Fatal(err)
	}
	sk := b.Skill("a")
	got := map[string]Param{}
	for _, p := range sk.ParamList() {
		got[p.Name] = p
	}
	if p := got["table"]; p.Role != RoleInputFile || p.RoleDerived || !slices.Equal(p.Accepts, []string{"text/csv"}) {
		t.Errorf("table = %+v", p)
	}
	if p := got["column"]; p.Role != RoleSelector {
		t.Errorf("column role = %q", p.Role)
	}
	in, out := sk.Modes()
	if !slices.Equal(in, []string{"text/csv"}) || !slices.Equal(out, []string{"text/plain", "image/png"}) {
		t.Errorf("Modes() = %v, %v", in, out)
	}
}

// A bundle written before roles loads, its roles derived from the
// parameters' schemas, names and descriptions.
func TestRolesDerived(t *testing.T) {
	t.Parallel()
	b, err := Load(writeBundle(t, good))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range b.Skill("word-frequency").ParamList() {
		want := map[string]string{"file": RoleInputFile, "n": RoleSetting}[p.Name]
		if p.Role != want || !p.RoleDerived {
			t.Errorf("%s: role %q (derived %v), want %q derived", p.Name, p.Role, p.RoleDerived, want)
		}
	}
	sk := &Skill{Run: Command{"t", "{{expr}}", "{{sel}}"}, Stdin: "{{body}}", Params: map[string]any{
		"properties": map[string]any{
			"expr":       map[string]any{"type": "string"},
			"query":      map[string]any{"type": "string"},
			"css":        map[string]any{"type": "string", "description": "a selector"},
			"body":       map[string]any{"type": "string"},
			"output":     map[string]any{"type": "string", "format": "output-path"},
			"config":     map[string]any{"type": "string", "format": "path"},
			"photo":      map[string]any{"type": "string", "format": "path", "description": "A PNG image"},
			"mode":       map[string]any{"type": "string", "enum": []any{"a", "b"}},
			"name":       map[string]any{"type": "string"},
			"required":   map[string]any{"type": "string"},
			"nul_output": map[string]any{"type": "boolean", "description": "Use NUL to separate values in the output."},
		},
		"required": []any{"required"},
	}}
	want := map[string]string{"expr": RoleQuery, "query": RoleQuery, "css": RoleSelector, "body": RoleInputText, "output": RoleOutput,
		"config": RoleSetting, "photo": RoleInputFile, "mode": RoleSetting, "name": RoleSetting, "required": RoleInputText,
		"nul_output": RoleSetting}
	for _, p := range sk.ParamList() {
		if p.Role != want[p.Name] {
			t.Errorf("%s: role %q, want %q", p.Name, p.Role, want[p.Name])
		}
		if p.Name == "photo" && !slices.Equal(p.Accepts, []string{"image/png"}) {
			t.Errorf("photo accepts %v", p.Accepts)
		}
	}
}

func TestRolesProblems(t *testing.T) {
	t.Parallel()
	bad := strings.NewReplacer(
		"x-role: input-file, x-accepts: [text/csv]", "x-role: reader, x-accepts: [csv]",
		"x-role: selector}", "x-role: selector, x-accepts: [text/csv]}",
	).Replace(withRoles)
	bad = strings.Replace(bad, "{type: string, format: output-path, x-role: output", "{type: string, x-role: input-file", 1)
	_, err := Load(writeBundle(t, bad))
	ps, ok := yamlx.AsProblems(err)
	if !ok {
		t.Fatalf("Load() error = %v, want problems", err)
	}
	var got []string
	for _, p := range ps {
		got = append(got, p.String())
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		`agent.yaml:11:`, `skills[0].params.properties.table.x-role: reader is not a role (want one of input-file, input-text, output, query, selector, setting)`,
		`skills[0].params.properties.table.x-accepts[0]: "csv" is not a MIME type`,
		`skills[0].params.properties.column.x-accepts: only an input-file or output parameter accepts media types (this one is a selector)`,
		`skills[0].params.properties.out.x-role: an input-file parameter says format: path`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("problems lack %q:\n%s", want, all)
		}
	}
}

func TestAccepts(t *testing.T) {
	for _, tc := range []struct {
		types []string
		mt    string
		want  bool
	}{
		{nil, "image/png", true},
		{[]string{"image/*"}, "image/png", true},
		{[]string{"image/*"}, "application/pdf", false},
		{[]string{"text/csv"}, "text/plain", true}, // a CSV named input.txt
		{[]string{"image/png"}, "text/plain", false},
		{[]string{"application/yaml"}, "application/x-yaml", true},
		{[]string{"text/html"}, "text/csv", false},
		{[]string{"*/*"}, "application/zip", true},
	} {
		if got := Accepts(tc.types, tc.mt); got != tc.want {
			t.Errorf("Accepts(%v, %s) = %v, want %v", tc.types, tc.mt, got, tc.want)
		}
	}
}

// The one input file of a skill whose parameter says nothing of its kind
// takes what the skill's description names before saying what it gives.
func TestDescribedInput(t *testing.T) {
	t.Parallel()
	cases := []struct {
		desc  string
		files []string
		want  []string
	}{
		{"Flatten YAML (from a file or stdin) into one line per value.", []string{"file"}, []string{"application/yaml"}},
		{"Convert CSV to JSON.", []string{"file"}, []string{"text/csv"}},
		{"Convert a file to JSON.", []string{"file"}, nil},
		{"Extract the text of a PDF.", []string{"file"}, []string{"application/pdf"}},
		{"Count the lines of a file.", []string{"file"}, nil},
		{"Merge CSV tables.", []string{"left", "right"}, nil}, // which file is which is not said
		// Options and asides say how it answers, not what it takes.
		{"Run inspect (usage: inspect [--json] [INPUT]). Options: --json: Output machine-readable JSON.", []string{"input"}, nil},
		{"Print the header --json of a file.", []string{"input"}, nil},
		{"Summarise a file. Its report can be JSON.", []string{"input"}, nil},
	}
	for _, c := range cases {
		props := map[string]any{"width": map[string]any{"type": "integer"}}
		for _, f := range c.files {
			props[f] = map[string]any{"type": "string", "format": "path"}
		}
		sk := &Skill{Description: c.desc, Params: map[string]any{"properties": props}}
		for _, p := range sk.ParamList() {
			if p.Role != RoleInputFile {
				continue
			}
			if !slices.Equal(p.Accepts, c.want) {
				t.Errorf("%q: %s accepts %v, want %v", c.desc, p.Name, p.Accepts, c.want)
			}
		}
		if len(c.files) == 1 && c.want != nil {
			if in, _ := sk.Modes(); !slices.Equal(in, c.want) {
				t.Errorf("%q: input modes %v, want %v", c.desc, in, c.want)
			}
		}
	}
	// A declared x-accepts, or a parameter that names its own kind, wins.
	sk := &Skill{Description: "Turn JSON into rows.", Params: map[string]any{"properties": map[string]any{
		"table": map[string]any{"type": "string", "format": "path", "description": "a CSV file"},
	}}}
	if p := sk.ParamList()[0]; !slices.Equal(p.Accepts, []string{"text/csv"}) {
		t.Errorf("a parameter naming its kind: accepts %v", p.Accepts)
	}
}

// TestSkillInputTypes: the types a skill's examples name join those its
// description names for its input; with none described, none are derived.
func TestSkillInputTypes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		desc     string
		examples []string
		want     []string
	}{
		{"Run a query against an in-memory database.", []string{`Run tabs memory dogs.csv "select * from t"`, "It loads CSV or JSON data."},
			[]string{"application/vnd.sqlite3", "text/csv", "application/json"}},
		{"Run a query against a database.", nil, []string{"application/vnd.sqlite3"}},
		{"Run a query.", []string{"Run tabs q dogs.csv"}, nil},
	} {
		if got := SkillInputTypes(c.desc, c.examples); !slices.Equal(got, c.want) {
			t.Errorf("SkillInputTypes(%q, %q) = %v, want %v", c.desc, c.examples, got, c.want)
		}
	}
}
