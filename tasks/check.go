package tasks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/invopop/jsonschema"
)

// Check is one expectation on a case's output. Exactly one field is set.
type Check struct {
	Contains    *string      `json:"contains,omitempty" jsonschema:"description=The text output contains this string."`
	Matches     *string      `json:"matches,omitempty" jsonschema:"description=The text output matches this regular expression (RE2)."`
	NotContains *string      `json:"not_contains,omitempty" jsonschema:"description=The text output does not contain this string."`
	Number      *NumberCheck `json:"number,omitempty" jsonschema:"description=Some number in the text output equals value within tolerance."`
	File        *FileCheck   `json:"file,omitempty" jsonschema:"description=An output file whose name matches the glob (and holds a string)."`
	JSON        *JSONCheck   `json:"json,omitempty" jsonschema:"description=The text output is JSON and the value at path equals a value."`
}

// NumberCheck expects a number in the output.
type NumberCheck struct {
	Value     float64 `json:"value" jsonschema:"required"`
	Tolerance float64 `json:"tolerance,omitempty" jsonschema:"minimum=0"`
}

// FileCheck expects an output file.
type FileCheck struct {
	Name     string `json:"name" jsonschema:"required,minLength=1,description=A glob matched against the file's base name."`
	Contains string `json:"contains,omitempty"`
}

// JSONCheck expects a JSON value at a path such as $.a.b[0].
type JSONCheck struct {
	Path   string `json:"path" jsonschema:"required,pattern=^\\$"`
	Equals any    `json:"equals"`
}

// JSONSchema requires exactly one kind of check per entry.
func (Check) JSONSchema() *jsonschema.Schema {
	type plain Check
	s := inlineSchema(&plain{})
	s.MinProperties, s.MaxProperties = ptr(uint64(1)), ptr(uint64(1))
	return s
}

// Kind names the kind of check ("contains", "matches", ...).
func (c Check) Kind() string {
	switch {
	case c.Contains != nil:
		return "contains"
	case c.Matches != nil:
		return "matches"
	case c.NotContains != nil:
		return "not_contains"
	case c.Number != nil:
		return "number"
	case c.File != nil:
		return "file"
	case c.JSON != nil:
		return "json"
	}
	return ""
}

func (c Check) count() int {
	n := 0
	for _, set := range []bool{c.Contains != nil, c.Matches != nil, c.NotContains != nil, c.Number != nil, c.File != nil, c.JSON != nil} {
		if set {
			n++
		}
	}
	return n
}

// String is a short human description of the check.
func (c Check) String() string {
	switch c.Kind() {
	case "contains":
		return fmt.Sprintf("contains %q", *c.Contains)
	case "matches":
		return fmt.Sprintf("matches /%s/", *c.Matches)
	case "not_contains":
		return fmt.Sprintf("does not contain %q", *c.NotContains)
	case "number":
		return fmt.Sprintf("a number %g±%g", c.Number.Value, c.Number.Tolerance)
	case "file":
		if c.File.Contains != "" {
			return fmt.Sprintf("a file %s containing %q", c.File.Name, c.File.Contains)
		}
		return "a file " + c.File.Name
	case "json":
		b, _ := json.Marshal(c.JSON.Equals)
		return fmt.Sprintf("json %s = %s", c.JSON.Path, b)
	}
	return "empty check"
}

// Output is what a case produced: its text and its files.
type Output struct {
	Text  string
	Files []File
}

// File is one output artifact.
type File struct {
	Name string // base name
	Data []byte
}

// Result is the outcome of one check.
type Result struct {
	Check  string `json:"check"`
	Pass   bool   `json:"pass"`
	Reason string `json:"reason,omitempty"`
}

// Eval evaluates every check against out and reports whether all held.
func Eval(checks []Check, out Output) (bool, []Result) {
	all := true
	res := make([]Result, len(checks))
	for i, c := range checks {
		ok, why := c.Eval(out)
		res[i] = Result{Check: c.String(), Pass: ok, Reason: why}
		all = all && ok
	}
	return all, res
}

var numberRE = regexp.MustCompile(`[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?`)

// Eval reports whether the check holds on out and, when it does not, why.
func (c Check) Eval(out Output) (bool, string) {
	switch c.Kind() {
	case "contains":
		if strings.Contains(out.Text, *c.Contains) {
			return true, ""
		}
		return false, fmt.Sprintf("output does not contain %q", *c.Contains)
	case "not_contains":
		if !strings.Contains(out.Text, *c.NotContains) {
			return true, ""
		}
		return false, fmt.Sprintf("output contains %q", *c.NotContains)
	case "matches":
		re, err := regexp.Compile(*c.Matches)
		if err != nil {
			return false, fmt.Sprintf("bad regular expression: %v", err)
		}
		if re.MatchString(out.Text) {
			return true, ""
		}
		return false, fmt.Sprintf("output does not match /%s/", *c.Matches)
	case "number":
		for _, m := range numberRE.FindAllString(out.Text, -1) {
			f, err := strconv.ParseFloat(m, 64)
			if err == nil && math.Abs(f-c.Number.Value) <= c.Number.Tolerance+1e-12 {
				return true, ""
			}
		}
		return false, fmt.Sprintf("no number within %g of %g in the output", c.Number.Tolerance, c.Number.Value)
	case "file":
		var names []string
		for _, f := range out.Files {
			if ok, _ := path.Match(c.File.Name, f.Name); !ok {
				continue
			}
			if c.File.Contains == "" || bytes.Contains(f.Data, []byte(c.File.Contains)) {
				return true, ""
			}
			names = append(names, f.Name)
		}
		if len(names) > 0 {
			return false, fmt.Sprintf("file %s does not contain %q", strings.Join(names, ", "), c.File.Contains)
		}
		return false, fmt.Sprintf("no output file matches %q", c.File.Name)
	case "json":
		var v any
		if err := json.Unmarshal([]byte(strings.TrimSpace(out.Text)), &v); err != nil {
			return false, "output is not JSON: " + clip(err.Error())
		}
		got, err := JSONPath(v, c.JSON.Path)
		if err != nil {
			return false, err.Error()
		}
		if jsonEqual(got, c.JSON.Equals) {
			return true, ""
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(c.JSON.Equals)
		return false, fmt.Sprintf("%s is %s, want %s", c.JSON.Path, clip(string(g)), w)
	}
	return false, "empty check"
}

// jsonEqual compares two JSON values, numbers by value.
func jsonEqual(a, b any) bool {
	na, aok := toFloat(a)
	nb, bok := toFloat(b)
	if aok && bok {
		return math.Abs(na-nb) <= 1e-9*math.Max(1, math.Abs(nb))
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint64:
		return float64(n), true
	}
	return 0, false
}

var pathTokenRE = regexp.MustCompile(`^(?:\.([A-Za-z_][A-Za-z0-9_-]*)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\])`)

// JSONPath returns the value at a simple JSONPath ($, .key, [N], ['key']).
func JSONPath(v any, p string) (any, error) {
	if err := checkJSONPath(p); err != nil {
		return nil, err
	}
	rest := p[1:]
	cur := v
	for rest != "" {
		m := pathTokenRE.FindStringSubmatch(rest)
		rest = rest[len(m[0]):]
		switch {
		case m[2] != "":
			i, _ := strconv.Atoi(m[2])
			arr, ok := cur.([]any)
			if !ok || i >= len(arr) {
				return nil, fmt.Errorf("%s: no element [%d]", p, i)
			}
			cur = arr[i]
		default:
			key := m[1] + m[3] + m[4]
			obj, ok := cur.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s: not an object where %q is looked up", p, key)
			}
			if cur, ok = obj[key]; !ok {
				return nil, fmt.Errorf("%s: no key %q", p, key)
			}
		}
	}
	return cur, nil
}

func checkJSONPath(p string) error {
	if !strings.HasPrefix(p, "$") {
		return fmt.Errorf("JSON path %q must start with $", p)
	}
	rest := p[1:]
	for rest != "" {
		m := pathTokenRE.FindString(rest)
		if m == "" {
			return fmt.Errorf("JSON path %q: cannot parse %q (use .key, [N] or ['key'])", p, rest)
		}
		rest = rest[len(m):]
	}
	return nil
}

func clip(s string) string {
	if len(s) <= 80 {
		return s
	}
	i := 77
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}
