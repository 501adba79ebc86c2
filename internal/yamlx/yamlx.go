package yamlx

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"

	"go.yaml.in/yaml/v4"
)

// Pos is a position in a file, 1-based.
type Pos struct{ Line, Col int }

// Problem is one thing wrong with a file.
type Problem struct {
	File  string `json:"file"`
	Line  int    `json:"line,omitempty"`
	Col   int    `json:"column,omitempty"`
	Field string `json:"field,omitempty"`
	Msg   string `json:"message"`
}

func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", p.Line, p.Col)
	}
	b.WriteString(": ")
	if p.Field != "" {
		b.WriteString(p.Field)
		b.WriteString(": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// Problems is a list of problems; as an error it prints one per line.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// AsProblems returns the problems held by err, if it is (or wraps) Problems.
func AsProblems(err error) (Problems, bool) {
	var ps Problems
	if errors.As(err, &ps) {
		return ps, true
	}
	return nil, false
}

// Unmarshaler is implemented by types that decode themselves from a node,
// reporting problems through d.
type Unmarshaler interface {
	UnmarshalYAMLNode(d *Decoder, n *yaml.Node, path string)
}

// Decoder decodes one file. It is not safe for concurrent use.
type Decoder struct {
	File    string
	probs   Problems
	pos     map[string]Pos
	root    *yaml.Node
	visits  int
	aliases int
	stopped bool
}

// maxVisits bounds the nodes decoded from one document, so that aliases
// expanding exponentially ("billion laughs") cannot exhaust the process.
const maxVisits = 200_000

// NewDecoder returns a decoder whose problems name file.
func NewDecoder(file string) *Decoder {
	return &Decoder{File: file, pos: map[string]Pos{}}
}

// DecodeBytes parses data and decodes it into v (a pointer to a struct).
func (d *Decoder) DecodeBytes(data []byte, v any) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		d.probs = append(d.probs, syntaxProblem(d.File, err))
		return
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		d.probs = append(d.probs, Problem{File: d.File, Line: 1, Col: 1, Msg: "empty document"})
		return
	}
	d.root = &doc
	d.Decode(doc.Content[0], reflect.ValueOf(v).Elem(), "")
}

// syntaxProblem turns a YAML syntax error into a Problem.
func syntaxProblem(file string, err error) Problem {
	var le *yaml.LoadError
	if errors.As(err, &le) {
		p := Problem{File: file, Line: le.Mark.Line, Col: le.Mark.Column, Msg: "syntax error: " + le.Message}
		// A parser error is best shown where its construct starts (an
		// unclosed "["); a scanner error where the scanner stopped.
		if le.Stage == yaml.ParserStage && le.ContextMark.Line > 0 {
			p.Line, p.Col = le.ContextMark.Line, le.ContextMark.Column
			if le.ContextMsg != "" {
				p.Msg += " (" + le.ContextMsg + ")"
			}
		}
		if p.Line == 0 {
			p.Line, p.Col = 1, 1
		}
		return p
	}
	return Problem{File: file, Line: 1, Col: 1, Msg: "syntax error: " + strings.TrimPrefix(err.Error(), "yaml: ")}
}

// Err returns the problems found so far, sorted by position, or nil.
func (d *Decoder) Err() error {
	if len(d.probs) == 0 {
		return nil
	}
	ps := append(Problems(nil), d.probs...)
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Line != ps[j].Line {
			return ps[i].Line < ps[j].Line
		}
		return ps[i].Col < ps[j].Col
	})
	return ps
}

// Problems returns the problems found so far, in the order found.
func (d *Decoder) Problems() Problems { return d.probs }

// Pos returns the position of the value at a field path ("tasks[2].repo"), or
// of its nearest recorded ancestor.
func (d *Decoder) Pos(path string) Pos {
	for {
		if p, ok := d.pos[path]; ok {
			return p
		}
		if path == "" {
			return Pos{Line: 1, Col: 1}
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			path = ""
		} else {
			path = path[:i]
		}
	}
}

// Errorf records a problem at the position of the field path.
func (d *Decoder) Errorf(path, format string, args ...any) {
	p := d.Pos(path)
	d.probs = append(d.probs, Problem{File: d.File, Line: p.Line, Col: p.Col, Field: path, Msg: fmt.Sprintf(format, args...)})
}

// Add records problems found elsewhere (in a file this one refers to).
func (d *Decoder) Add(ps ...Problem) { d.probs = append(d.probs, ps...) }

// NodeErrorf records a problem at the position of node n.
func (d *Decoder) NodeErrorf(n *yaml.Node, path, format string, args ...any) {
	d.probs = append(d.probs, Problem{File: d.File, Line: n.Line, Col: n.Column, Field: path, Msg: fmt.Sprintf(format, args...)})
}

var unmarshalerType = reflect.TypeOf((*Unmarshaler)(nil)).Elem()

// Decode decodes node n into v, recording the position of path.
func (d *Decoder) Decode(n *yaml.Node, v reflect.Value, path string) {
	for n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if d.stopped {
		return
	}
	if d.visits++; d.visits > maxVisits {
		d.stopped = true
		d.NodeErrorf(n, path, "document too large or too deeply aliased (more than %d values)", maxVisits)
		return
	}
	if n.Kind == yaml.AliasNode {
		if d.aliases > 64 {
			d.NodeErrorf(n, path, "aliases nested too deeply")
			return
		}
		d.aliases++
		defer func() { d.aliases-- }()
		d.Decode(n.Alias, v, path)
		return
	}
	d.pos[path] = Pos{n.Line, n.Column}
	if v.CanAddr() && v.Addr().Type().Implements(unmarshalerType) {
		v.Addr().Interface().(Unmarshaler).UnmarshalYAMLNode(d, n, path)
		return
	}
	if isNull(n) {
		v.Set(reflect.Zero(v.Type()))
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		d.Decode(n, v.Elem(), path)
	case reflect.Struct:
		d.decodeStruct(n, v, path)
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			d.NodeErrorf(n, path, "want a list, got %s", describe(n))
			return
		}
		s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
		for i, c := range n.Content {
			d.Decode(c, s.Index(i), fmt.Sprintf("%s[%d]", path, i))
		}
		v.Set(s)
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			d.NodeErrorf(n, path, "want a mapping, got %s", describe(n))
			return
		}
		if v.Type().Key().Kind() != reflect.String {
			d.NodeErrorf(n, path, "unsupported map key type %s", v.Type().Key())
			return
		}
		m := reflect.MakeMapWithSize(v.Type(), len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			elem := reflect.New(v.Type().Elem()).Elem()
			d.Decode(val, elem, join(path, k.Value))
			m.SetMapIndex(reflect.ValueOf(k.Value).Convert(v.Type().Key()), elem)
		}
		v.Set(m)
	case reflect.Interface:
		var x any
		if err := n.Decode(&x); err != nil {
			d.NodeErrorf(n, path, "%s", strings.TrimPrefix(err.Error(), "yaml: "))
			return
		}
		v.Set(reflect.ValueOf(normalize(x)))
	case reflect.String:
		if n.Kind != yaml.ScalarNode || n.Tag == "!!bool" {
			d.NodeErrorf(n, path, "want a string, got %s", describe(n))
			return
		}
		v.SetString(n.Value)
	case reflect.Bool:
		var b bool
		if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" || n.Decode(&b) != nil {
			d.NodeErrorf(n, path, "want true or false, got %s", describe(n))
			return
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int64, reflect.Int32:
		var i int64
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || n.Decode(&i) != nil {
			d.NodeErrorf(n, path, "want an integer, got %s", describe(n))
			return
		}
		v.SetInt(i)
	case reflect.Float64, reflect.Float32:
		var f float64
		if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") || n.Decode(&f) != nil || math.IsNaN(f) {
			d.NodeErrorf(n, path, "want a number, got %s", describe(n))
			return
		}
		v.SetFloat(f)
	default:
		d.NodeErrorf(n, path, "unsupported field type %s", v.Type())
	}
}

func (d *Decoder) decodeStruct(n *yaml.Node, v reflect.Value, path string) {
	if n.Kind != yaml.MappingNode {
		d.NodeErrorf(n, path, "want a mapping, got %s", describe(n))
		return
	}
	fields := structFields(v.Type())
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		fp := join(path, k.Value)
		if seen[k.Value] {
			d.NodeErrorf(k, fp, "duplicate key %q", k.Value)
			continue
		}
		seen[k.Value] = true
		idx, ok := fields[k.Value]
		if !ok {
			d.NodeErrorf(k, fp, "unknown field %q%s", k.Value, suggest(k.Value, fields))
			continue
		}
		d.Decode(val, v.FieldByIndex(idx), fp)
	}
}

// Has reports whether the mapping at path had the key (so "absent" and
// "present but empty" can be told apart).
func (d *Decoder) Has(path string) bool {
	_, ok := d.pos[path]
	return ok
}

func structFields(t reflect.Type) map[string][]int {
	m := map[string][]int{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			for k, idx := range structFields(f.Type) {
				m[k] = append([]int{i}, idx...)
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		m[name] = []int{i}
	}
	return m
}

func suggest(key string, fields map[string][]int) string {
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	sort.Strings(names)
	best, bestD := "", 3
	for _, k := range names {
		if dist := levenshtein(strings.ToLower(key), k); dist < bestD {
			best, bestD = k, dist
		}
	}
	if best == "" {
		return " (known: " + strings.Join(names, ", ") + ")"
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!str":
			return fmt.Sprintf("the string %q", truncate(n.Value))
		case "!!int", "!!float":
			return "the number " + truncate(n.Value)
		case "!!bool":
			return "the boolean " + n.Value
		case "!!null":
			return "null"
		}
		return fmt.Sprintf("%q", truncate(n.Value))
	}
	return "an unexpected node"
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

// normalize turns yaml.v3's generic values into JSON-compatible ones
// (map[string]any rather than map[any]any), so they marshal as JSON.
func normalize(x any) any {
	switch t := x.(type) {
	case map[string]any:
		for k, v := range t {
			t[k] = normalize(v)
		}
		return t
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, v := range t {
			m[fmt.Sprint(k)] = normalize(v)
		}
		return m
	case []any:
		for i, v := range t {
			t[i] = normalize(v)
		}
		return t
	}
	return x
}
