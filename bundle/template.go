package bundle

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// The built-in template variables.
const (
	VarRepo    = "repo"    // the repo's directory
	VarBundle  = "bundle"  // the bundle's directory (where agent.yaml is)
	VarWorkdir = "workdir" // the task's work directory
	VarPort    = "port"    // a free TCP port
)

var placeholderRE = regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}`)

// Placeholders returns the names of the {{name}} placeholders in s, in order.
func Placeholders(s string) []string {
	var names []string
	for _, m := range placeholderRE.FindAllStringSubmatch(s, -1) {
		names = append(names, m[1])
	}
	return names
}

// IsBuiltin reports whether name is a built-in template variable.
func IsBuiltin(name string) bool {
	return name == VarRepo || name == VarBundle || name == VarWorkdir || name == VarPort
}

// Vars are the values of the built-in template variables for one run.
type Vars struct {
	Repo    string
	Bundle  string
	Workdir string
	Port    int
}

func (v Vars) lookup(name string) (string, bool) {
	switch name {
	case VarRepo:
		return v.Repo, v.Repo != ""
	case VarBundle:
		return v.Bundle, v.Bundle != ""
	case VarWorkdir:
		return v.Workdir, v.Workdir != ""
	case VarPort:
		return strconv.Itoa(v.Port), v.Port != 0
	}
	return "", false
}

// Expand fills the argv template tmpl with the built-in vars and args, and
// returns the argv of a process; nothing is ever handed to a shell, so
// values need no quoting. A program named by a relative path with a slash
// ("bin/tool", "./run.sh") is resolved against vars.Repo; a bare name is left
// for a PATH lookup.
//
// An element that is exactly "{{name}}" for a list value expands into one
// element per item. An element whose parameter has no value is dropped, and
// so is a flag ("-n", "--count") right before it, so that optional
// parameters can be written as [--n, "{{n}}"]. A boolean value right after
// such a flag makes it a switch: true keeps the flag alone, false drops it,
// so [--json, "{{json}}"] gives "--json" or nothing. Objects are passed as
// JSON.
//
// Expand checks nothing about the values: a caller that serves untrusted
// arguments confines them first (the host does, see package a2a/host).
func Expand(tmpl Command, vars Vars, args map[string]any) ([]string, error) {
	els, err := ExpandArgs(tmpl, vars, args)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(els))
	for i, el := range els {
		out[i] = el.Value
	}
	return out, nil
}

// Arg is one element of an expanded argv and where it came from.
type Arg struct {
	Value string
	Index int    // the template element it was made from
	Param string // the parameter whose value is in it, "" for literals and built-ins
}

// ExpandArgs is Expand, each element with its origin, so that a caller can
// check what a parameter's value became.
func ExpandArgs(tmpl Command, vars Vars, args map[string]any) ([]Arg, error) {
	var out []Arg
	for i, el := range tmpl {
		names := Placeholders(el)
		if len(names) == 1 && placeholderRE.FindString(el) == el && !IsBuiltin(names[0]) {
			v, ok := args[names[0]]
			if !ok || v == nil {
				out = dropFlag(out, tmpl, i)
				continue
			}
			if b, ok := v.(bool); ok && afterFlag(out, tmpl, i) {
				if !b {
					out = out[:len(out)-1]
				}
				continue
			}
			if list, ok := v.([]any); ok {
				for _, item := range list {
					s, err := format(item)
					if err != nil {
						return nil, fmt.Errorf("expand %s: %w", el, err)
					}
					out = append(out, Arg{Value: s, Index: i, Param: names[0]})
				}
				continue
			}
		}
		var missing bool
		var ferr error
		param := ""
		s := placeholderRE.ReplaceAllStringFunc(el, func(m string) string {
			name := placeholderRE.FindStringSubmatch(m)[1]
			if IsBuiltin(name) {
				v, ok := vars.lookup(name)
				if !ok {
					ferr = fmt.Errorf("built-in {{%s}} has no value here", name)
				}
				return v
			}
			if param == "" {
				param = name
			}
			v, ok := args[name]
			if !ok || v == nil {
				missing = true
				return ""
			}
			s, err := format(v)
			if err != nil {
				ferr = err
			}
			return s
		})
		if ferr != nil {
			return nil, fmt.Errorf("expand %q: %w", el, ferr)
		}
		if missing {
			out = dropFlag(out, tmpl, i)
			continue
		}
		out = append(out, Arg{Value: s, Index: i, Param: param})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("expand: empty argv")
	}
	if p := out[0].Value; strings.Contains(p, "/") && !filepath.IsAbs(p) && vars.Repo != "" {
		out[0].Value = filepath.Join(vars.Repo, p)
	}
	return out, nil
}

// afterFlag reports whether the template's previous element was a literal
// flag that is the last output element.
func afterFlag(out []Arg, tmpl Command, i int) bool {
	if i == 0 || len(out) == 0 {
		return false
	}
	prev := tmpl[i-1]
	return strings.HasPrefix(prev, "-") && len(Placeholders(prev)) == 0 && out[len(out)-1].Value == prev
}

// dropFlag removes the previous output element when the template's previous
// element was a literal flag that introduced the dropped value.
func dropFlag(out []Arg, tmpl Command, i int) []Arg {
	if i == 0 || len(out) == 0 {
		return out
	}
	prev := tmpl[i-1]
	if strings.HasPrefix(prev, "-") && len(Placeholders(prev)) == 0 && out[len(out)-1].Value == prev {
		return out[:len(out)-1]
	}
	return out
}

// format renders one argument value as an argv element.
func format(v any) (string, error) {
	switch t := v.(type) {
	case string:
		return t, nil
	case bool:
		return strconv.FormatBool(t), nil
	case json.Number:
		return t.String(), nil
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64), nil
	case float32:
		return strconv.FormatFloat(float64(t), 'f', -1, 32), nil
	case int:
		return strconv.Itoa(t), nil
	case int64:
		return strconv.FormatInt(t, 10), nil
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return "", fmt.Errorf("value %v: %w", v, err)
		}
		return string(b), nil
	}
}
