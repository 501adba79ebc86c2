package generation

import (
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/lazyregexp"
)

// smokeCall is the call the gate makes of one skill: arguments by name and
// the files the file parameters name.
type smokeCall struct {
	args  map[string]any
	files []smokeFile
	from  string // "example N" or "parameter types"
}

type smokeFile struct {
	name      string
	mediaType string
	data      []byte
}

// smokeCallFor builds the gate's call of sk: from the first of its examples
// whose command line maps onto the skill's run template, else from its
// parameters' types. repo is the repository's directory, where an
// example's input file may be found.
func smokeCallFor(sk *bundle.Skill, repo string) smokeCall {
	for i, ex := range sk.Examples {
		if c, ok := callFromExample(sk, ex, repo); ok {
			c.from = "example " + strconv.Itoa(i+1)
			return c
		}
	}
	c := callFromTypes(sk)
	c.from = "parameter types"
	return c
}

var backtickRE = lazyregexp.New("`([^`]+)`")

// template is what a run template says of the command line: the option
// that introduces each parameter, the positional parameters in order, and
// the literal words (program, subcommands).
type template struct {
	options    map[string]string // "--out" → "output"
	positional []string
	literals   map[string]bool
}

func readTemplate(run bundle.Command) template {
	t := template{options: map[string]string{}, literals: map[string]bool{}}
	for i, el := range run {
		names := bundle.Placeholders(el)
		switch {
		case len(names) == 0:
			if i == 0 {
				t.literals[path.Base(el)] = true
			}
			t.literals[el] = true
		case len(names) == 1 && el == "{{"+names[0]+"}}":
			if bundle.IsBuiltin(names[0]) {
				continue
			}
			if i > 0 && strings.HasPrefix(run[i-1], "-") && len(bundle.Placeholders(run[i-1])) == 0 {
				t.options[run[i-1]] = names[0]
				continue
			}
			t.positional = append(t.positional, names[0])
		case len(names) == 1 && strings.HasPrefix(el, "-") && strings.HasSuffix(el, "={{"+names[0]+"}}"):
			t.options[strings.TrimSuffix(el, "{{"+names[0]+"}}")] = names[0] // "--out="
		}
	}
	return t
}

// callFromExample maps the command line of an example ("Run `tool sub
// -o out.png in.jpg`") onto the skill's run template. It fails when the
// example has no command line, names an option the template lacks, or
// leaves a required parameter without a value.
func callFromExample(sk *bundle.Skill, ex, repo string) (smokeCall, bool) {
	m := backtickRE.FindStringSubmatch(ex)
	// A pipeline or redirection is no single call; an address would
	// send the gate's offline call to the network.
	if m == nil || strings.ContainsAny(m[1], "|<>;&$") || strings.Contains(m[1], "://") {
		return smokeCall{}, false
	}
	words, err := splitWords(m[1])
	if err != nil || len(words) < 2 {
		return smokeCall{}, false
	}
	t := readTemplate(sk.Run)
	if !t.literals[path.Base(words[0])] {
		return smokeCall{}, false // an example of another program
	}
	params := map[string]bundle.Param{}
	for _, p := range sk.ParamList() {
		params[p.Name] = p
	}
	c := smokeCall{args: map[string]any{}}
	set := func(p bundle.Param, v string) {
		if p.IsFile() {
			c.addFile(p, v, repo)
			return
		}
		c.args[p.Name] = typed(p, v)
	}
	pos := 0
	for i := 1; i < len(words); i++ {
		w := words[i]
		if name, val, eq := strings.Cut(w, "="); eq && strings.HasPrefix(w, "-") {
			opt := t.options[name]
			if opt == "" {
				opt = t.options[name+"="]
			}
			if opt == "" {
				return smokeCall{}, false
			}
			set(params[opt], val)
			continue
		}
		if strings.HasPrefix(w, "-") && len(w) > 1 {
			name, ok := t.options[w]
			if !ok {
				return smokeCall{}, false
			}
			p := params[name]
			if p.Type == "boolean" {
				c.args[name] = true
				continue
			}
			if i+1 >= len(words) {
				return smokeCall{}, false
			}
			i++
			set(p, words[i])
			continue
		}
		if t.literals[w] && pos == 0 {
			continue // a subcommand's word
		}
		if pos >= len(t.positional) {
			return smokeCall{}, false
		}
		name := t.positional[pos]
		p := params[name]
		if p.Type == "array" {
			list, _ := c.args[name].([]any)
			if p.IsFile() {
				c.addFile(p, w, repo)
				list = append(list, safeBase(w))
			} else {
				list = append(list, w)
			}
			c.args[name] = list
			continue
		}
		pos++
		set(p, w)
	}
	for _, p := range sk.ParamList() {
		if _, ok := c.args[p.Name]; p.Required && !ok {
			return smokeCall{}, false
		}
	}
	return c, true
}

// addFile gives a file parameter the file named: for an input, the
// repository's own file of that name when it has one (small), else a
// sample of the kind its extension names.
func (c *smokeCall) addFile(p bundle.Param, name, repo string) {
	base := safeBase(name)
	if p.IsOutput() {
		c.args[p.Name] = base
		return
	}
	k, ok := kindByExt(base)
	if !ok {
		k = kindByWords(p.Name + " " + p.Description)
	}
	data := repoFile(repo, name)
	if data == nil {
		data = k.data()
	}
	c.files = append(c.files, smokeFile{name: base, mediaType: k.mediaType, data: data})
	c.args[p.Name] = base
}

// repoFile returns the bytes of the repository's file at rel, when it is a
// regular file of at most 1 MiB inside the repository.
func repoFile(repo, rel string) []byte {
	if repo == "" || filepath.IsAbs(rel) || strings.Contains(rel, "..") {
		return nil
	}
	p := filepath.Join(repo, filepath.FromSlash(rel))
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 1<<20 {
		return nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	return data
}

func safeBase(name string) string {
	b := path.Base(strings.ReplaceAll(name, "\\", "/"))
	if b == "." || b == "/" || b == ".." || b == "" || b == "-" {
		return "input.txt"
	}
	return b
}

// typed converts an example's word to the parameter's type.
func typed(p bundle.Param, v string) any {
	switch p.Type {
	case "integer", "number":
		if n, ok := number(v); ok {
			return n
		}
	case "boolean":
		return v == "true" || v == "1" || v == "yes"
	case "array":
		return []any{v}
	}
	return v
}

func number(s string) (float64, bool) {
	n, err := strconv.ParseFloat(s, 64)
	return n, err == nil
}

// callFromTypes builds a call from the parameters' types: every required
// parameter and the one read on standard input get a value — a default, the
// first allowed value, a sample file of the kind the description names, a
// short word or the number 1.
func callFromTypes(sk *bundle.Skill) smokeCall {
	c := smokeCall{args: map[string]any{}}
	stdin := sk.StdinParam()
	props, _ := sk.Params["properties"].(map[string]any)
	// A skill that reads an optional input file ("[INPUT]", standard
	// input otherwise) gets one: called with nothing, it would wait for
	// or refuse an empty input and show nothing of itself.
	input := ""
	for _, p := range sk.ParamList() {
		if p.IsPath() && (p.Required || p.Name == stdin) {
			input = ""
			break
		}
		if p.IsPath() && input == "" {
			input = p.Name
		}
	}
	for _, p := range sk.ParamList() {
		if !p.Required && p.Name != stdin && p.Name != input {
			continue
		}
		prop, _ := props[p.Name].(map[string]any)
		if p.IsFile() {
			k := kindByWords(p.Name + " " + p.Description)
			if mt, ok := firstInputMode(sk); ok && !p.IsOutput() {
				k = mt
			}
			name := p.Name + k.ext
			if p.IsOutput() {
				c.args[p.Name] = "out-" + name
				continue
			}
			c.files = append(c.files, smokeFile{name: name, mediaType: k.mediaType, data: k.data()})
			if p.Type == "array" {
				c.args[p.Name] = []any{name}
			} else {
				c.args[p.Name] = name
			}
			continue
		}
		c.args[p.Name] = valueOf(p, prop)
	}
	return c
}

// firstInputMode is the kind of the skill's first declared input media
// type the gate can make, when it declares one other than plain text.
func firstInputMode(sk *bundle.Skill) (sampleKind, bool) {
	for _, mt := range sk.InputModes {
		if k, ok := kindByMediaType(mt); ok && k.mediaType != plainKind.mediaType {
			return k, true
		}
	}
	return sampleKind{}, false
}

// valueOf is a value of a parameter that is no file.
func valueOf(p bundle.Param, prop map[string]any) any {
	if p.HasDefault && p.Default != nil && p.Default != "" {
		return p.Default
	}
	if enum, ok := prop["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	if k, ok := prop["const"]; ok {
		return k
	}
	switch p.Type {
	case "integer", "number":
		if m, ok := prop["minimum"].(float64); ok && m > 1 {
			return m
		}
		return 1
	case "boolean":
		return false
	case "array":
		items, _ := prop["items"].(map[string]any)
		return []any{valueOf(bundle.Param{Type: typeOf(items)}, items)}
	case "object":
		return map[string]any{}
	}
	return "example"
}

func typeOf(m map[string]any) string {
	s, _ := m["type"].(string)
	return s
}
