package bundle

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/agentnet/agentnet/internal/schemax"
)

// DefaultTimeout bounds a skill run whose bundle gives no timeout.
const DefaultTimeout = 5 * time.Minute

// RepoDir returns the directory of the wrapped repository: the local source
// resolved against the bundle directory, .agentnet/repo inside the bundle for
// a git source (where generation checks it out), or the bundle directory
// itself when there is no repo.
func (b *Bundle) RepoDir() string {
	dir := b.AbsDir()
	switch {
	case b.Repo == nil || b.Repo.Source == "":
		return dir
	case IsGitURL(b.Repo.Source):
		return filepath.Join(dir, ".agentnet", "repo")
	default:
		return filepath.Join(dir, b.Repo.Source)
	}
}

// AbsDir returns the bundle directory as an absolute path: the value of
// {{bundle}} in the bundle's templates.
func (b *Bundle) AbsDir() string {
	if abs, err := filepath.Abs(b.Dir); err == nil {
		return abs
	}
	return b.Dir
}

// Skill returns the skill with the given id, or nil.
func (b *Bundle) Skill(id string) *Skill {
	for i := range b.Skills {
		if b.Skills[i].ID == id {
			return &b.Skills[i]
		}
	}
	return nil
}

// RunTimeout returns the skill's timeout, or DefaultTimeout.
func (sk *Skill) RunTimeout() time.Duration {
	if sk.Timeout.Duration > 0 {
		return sk.Timeout.Duration
	}
	return DefaultTimeout
}

// Formats that mark a parameter as a file in the task's work directory.
const (
	FormatPath   = "path"        // a file the run reads (attached, or made of text)
	FormatOutput = "output-path" // a file the run writes, returned as an artifact
)

// KeyAllowDash is the schema keyword by which a parameter says that a value
// beginning with "-" may stand where an option would ("x-allow-dash": true):
// without it the host refuses such a value unless the template puts "--"
// before it.
const KeyAllowDash = "x-allow-dash"

// Param describes one declared parameter of a skill.
type Param struct {
	Name        string
	Type        string // the schema's type ("string", "integer", ...), the first of a list, or ""
	Format      string
	Description string
	Required    bool
	Default     any // nil when the schema gives none
	HasDefault  bool
	AllowDash   bool // the schema says x-allow-dash: true
	Restricted  bool // the schema fixes the values (enum or const)
	// Role is the part the parameter plays (one of Roles): its x-role, or
	// DeriveRole's when the bundle gives none (RoleDerived).
	Role        string
	RoleDerived bool
	// Accepts are the media types a file parameter takes (or an output
	// writes): its x-accepts, or DeriveAccepts's; empty for any.
	Accepts []string
}

// IsPath reports whether the parameter names a file the run reads (format:
// path).
func (p Param) IsPath() bool { return p.Format == FormatPath }

// IsOutput reports whether the parameter names a file the run writes
// (format: output-path).
func (p Param) IsOutput() bool { return p.Format == FormatOutput }

// IsFile reports whether the parameter names a file, read or written.
func (p Param) IsFile() bool { return p.IsPath() || p.IsOutput() }

// ParamList returns the skill's declared parameters, sorted by name with the
// required ones first.
func (sk *Skill) ParamList() []Param {
	props, _ := sk.Params["properties"].(map[string]any)
	var req []any
	if r, ok := sk.Params["required"].([]any); ok {
		req = r
	}
	var out []Param
	for _, name := range slices.Sorted(maps.Keys(props)) {
		p := Param{Name: name, Required: slices.Contains(req, any(name))}
		if m, ok := props[name].(map[string]any); ok {
			p.Type, _ = m["type"].(string)
			if ts, ok := m["type"].([]any); ok && len(ts) > 0 {
				// "type: [boolean, string]": the first type is the one a
				// caller usually gives (a switch that may take a value).
				p.Type, _ = ts[0].(string)
			}
			p.Format, _ = m["format"].(string)
			p.Description, _ = m["description"].(string)
			p.Default, p.HasDefault = m["default"]
			p.AllowDash, _ = m[KeyAllowDash].(bool)
			_, enum := m["enum"]
			_, konst := m["const"]
			p.Restricted = enum || konst
			roleOf(sk, &p, m)
		} else {
			roleOf(sk, &p, nil)
		}
		out = append(out, p)
	}
	describedInput(sk, out)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Required && !out[j].Required })
	return out
}

// ParamsSchema returns the skill's params schema, or the schema of an empty
// object when the bundle gives none. The map is shared; do not modify it.
func (sk *Skill) ParamsSchema() map[string]any {
	if sk.Params == nil {
		return map[string]any{"type": "object", "properties": map[string]any{}}
	}
	return sk.Params
}

// WithDefaults returns a copy of args with the schema's defaults filled in
// for absent parameters. An empty string default is no value: the
// parameter stays absent, so that [--ignore, "{{ignore}}"] leaves the
// program its own default rather than passing --ignore "".
func (sk *Skill) WithDefaults(args map[string]any) map[string]any {
	out := maps.Clone(args)
	if out == nil {
		out = map[string]any{}
	}
	for _, p := range sk.ParamList() {
		if s, ok := p.Default.(string); ok && s == "" {
			continue
		}
		if _, ok := out[p.Name]; !ok && p.HasDefault {
			out[p.Name] = p.Default
		}
	}
	return out
}

// Check validates args against the skill's params schema and returns every
// violation, or nil. Skills of a bundle that was not loaded through Load or
// Parse accept any object.
func (sk *Skill) Check(args map[string]any) []schemax.Issue {
	if sk.schema == nil {
		sch, err := schemax.Compile(sk.ParamsSchema())
		if err != nil {
			return []schemax.Issue{{Msg: err.Error()}}
		}
		sk.schema = sch
	}
	if args == nil {
		args = map[string]any{}
	}
	return sk.schema.Validate(args)
}

// Argv expands the skill's run template for one task.
func (sk *Skill) Argv(vars Vars, args map[string]any) ([]string, error) {
	return Expand(sk.Run, vars, args)
}

// StdinParam names the parameter whose value the run reads on standard
// input, or "" when the skill reads none.
func (sk *Skill) StdinParam() string {
	if names := Placeholders(sk.Stdin); len(names) == 1 {
		return names[0]
	}
	return ""
}

// Exists reports whether the bundle directory holds an agent.yaml.
func Exists(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, FileName))
	return err == nil && !fi.IsDir()
}
