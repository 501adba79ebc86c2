package bundle

import (
	"slices"
	"strings"
	"unicode"

	"github.com/agentnet/agentnet/internal/lazyregexp"
	"github.com/agentnet/agentnet/internal/vocab"
)

// Roles a parameter plays in a run: a closed set, written as the
// parameter's x-role keyword (docs/bundle.md).
const (
	RoleInputFile = "input-file" // a file the run works on (format: path)
	RoleInputText = "input-text" // the text the run works on
	RoleOutput    = "output"     // a file the run writes (format: output-path), or where to
	RoleQuery     = "query"      // an expression, query or pattern the run evaluates
	RoleSelector  = "selector"   // which part of the input: a column, field, key, element
	RoleSetting   = "setting"    // how the run behaves: a switch, a number, a choice, a side file
)

// Roles lists the roles in the order of the constants above.
var Roles = []string{RoleInputFile, RoleInputText, RoleOutput, RoleQuery, RoleSelector, RoleSetting}

// Schema keywords of a parameter's role and of the media types a file
// parameter accepts (or, for an output, writes).
const (
	KeyRole    = "x-role"
	KeyAccepts = "x-accepts"
)

var (
	writesRE      = lazyregexp.New(`(?i)\b(write|writes|save|saves|store|stores)( the)? (output|outputs|result|results|report|it|them|to)\b|\b(is|are|will be|gets|get) (written|saved|created)\b|\b(output|destination|target) (file|filename|path|dir|directory|folder)\b|\bwhere to (write|save|put)\b`)
	textInsteadRE = lazyregexp.New(`(?i)\b(text|string)s? (instead of|rather than) (a |the )?(file|stdin|standard input)|\bthe (input )?text to\b`)
)

// Writes reports whether p names what the run writes, by its format, its
// name's words (vocab set out) or its description ("where to write").
func (p Param) Writes() bool {
	return p.IsOutput() || vocab.Has("out", vocab.Words(p.Name)...) || writesRE.MatchString(p.Description)
}

// DeriveRole returns the role of parameter p of sk as its schema, name and
// description say it, for a bundle that declares none: what the static
// generator writes, and what Load assumes for bundles written before
// roles. The words are vocab's sets.
func DeriveRole(sk *Skill, p Param) string {
	words := vocab.Words(p.Name)
	isString := p.Type == "string" || p.Type == "" || p.Type == "array"
	switch {
	case isString && p.Writes():
		// A switch or a number ("--nul-output", "--output-width") names
		// no file: only a string can.
		return RoleOutput
	case p.IsPath() && vocab.Has("side", words...):
		return RoleSetting
	case p.IsPath():
		return RoleInputFile
	case !isString || p.Restricted:
		return RoleSetting
	case sk != nil && p.Name == sk.StdinParam():
		return RoleInputText
	case vocab.Has("text", words...) || textInsteadRE.MatchString(p.Description):
		return RoleInputText
	case vocab.Has("query", words...):
		return RoleQuery
	case vocab.Has("selector", words...):
		return RoleSelector
	case p.Required:
		return RoleInputText
	}
	return RoleSetting
}

// DeriveAccepts returns the media types a file parameter accepts (or an
// output writes) as its name, description and default say ("a CSV file":
// text/csv); nil when they name none — any file.
func DeriveAccepts(p Param) []string {
	if !p.IsFile() && p.Role != RoleInputFile && p.Role != RoleOutput {
		return nil
	}
	text := p.Name + " " + p.Description
	if s, ok := p.Default.(string); ok {
		text += " " + s
	}
	return vocab.MediaTypes(text)
}

// describedInput gives the one input file of a skill, when neither its
// schema nor its own name and description name a media type, the types
// the skill's description names for what it takes: "Transform JSON into
// assignments" takes JSON. Only the words before the first one that
// introduces what the skill gives (vocab set yields: "to", "into", "as")
// count, so "Convert CSV to JSON" takes CSV and "Convert a file to JSON"
// names nothing (any file, as before).
func describedInput(sk *Skill, params []Param) {
	var file *Param
	for i := range params {
		if params[i].Role != RoleInputFile {
			continue
		}
		if file != nil {
			return // several inputs: the description cannot say which is which
		}
		file = &params[i]
	}
	if file == nil || !file.RoleDerived || len(file.Accepts) > 0 {
		return
	}
	file.Accepts = SkillInputTypes(sk.Description, sk.Examples)
}

// SkillInputTypes are the media types a skill's description names for its
// input (InputMediaTypes) and, when it names some, those its examples name
// too: a query tool "against a database, optionally populated by imported
// data" whose examples load CSV files also takes CSV. Nil when the
// description names none.
func SkillInputTypes(description string, examples []string) []string {
	named := InputMediaTypes(description)
	if len(named) == 0 {
		return nil
	}
	for _, ex := range examples {
		for _, mt := range vocab.MediaTypes(ex) {
			if !slices.Contains(named, mt) {
				named = append(named, mt)
			}
		}
	}
	return named
}

// InputMediaTypes returns the media types a description's first sentence
// names before the first word of vocab set yields, leaving out what it
// says in parentheses and the names of options ("--json"); nil when it
// names none there.
func InputMediaTypes(description string) []string {
	first, _, _ := strings.Cut(description, ". ")
	first = parenthesized.ReplaceAllString(first, " ")
	var words []string
	for _, f := range strings.Fields(strings.ToLower(first)) {
		if strings.HasPrefix(f, "-") {
			continue
		}
		words = append(words, strings.FieldsFunc(f, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r)
		})...)
	}
	for i, w := range words {
		if vocab.Has("yields", w) {
			words = words[:i]
			break
		}
	}
	return vocab.MediaTypes(strings.Join(words, " "))
}

var parenthesized = lazyregexp.New(`\([^()]*\)`)

// roleOf fills p's role and media types from its schema keywords, or
// derives them.
func roleOf(sk *Skill, p *Param, m map[string]any) {
	p.Role, _ = m[KeyRole].(string)
	if list, ok := m[KeyAccepts].([]any); ok {
		for _, x := range list {
			if s, ok := x.(string); ok {
				p.Accepts = append(p.Accepts, s)
			}
		}
	}
	if p.Role == "" || !slices.Contains(Roles, p.Role) {
		p.Role, p.RoleDerived = DeriveRole(sk, *p), true
	}
	if p.Accepts == nil && p.RoleDerived {
		p.Accepts = DeriveAccepts(*p)
	}
}

// Modes returns the media types the skill takes and gives, as its
// parameters' roles say: text/plain for text (and for a skill that takes
// no input at all), each input file's accepted types, or */* for an input
// file of any kind; text/plain for standard output plus what its outputs
// write. A skill's input_modes and output_modes, when the bundle gives
// them, win.
func (sk *Skill) Modes() (in, out []string) {
	add := func(list []string, types ...string) []string {
		for _, t := range types {
			if !slices.Contains(list, t) {
				list = append(list, t)
			}
		}
		return list
	}
	for _, p := range sk.ParamList() {
		switch p.Role {
		case RoleInputText, RoleQuery:
			in = add(in, "text/plain")
		case RoleInputFile:
			if len(p.Accepts) == 0 {
				in = add(in, "*/*")
			} else {
				in = add(in, p.Accepts...)
			}
		case RoleOutput:
			out = add(out, p.Accepts...)
		}
	}
	if len(in) == 0 {
		in = []string{"text/plain"}
	}
	out = add([]string{"text/plain"}, out...)
	if len(sk.InputModes) > 0 {
		in = slices.Clone(sk.InputModes)
	}
	if len(sk.OutputModes) > 0 {
		out = slices.Clone(sk.OutputModes)
	}
	return in, out
}

// Accepts reports whether a file of media type mt fits one of types
// ("image/*" and "*/*" match by prefix, "application/x-yaml" is
// "application/yaml"); an empty list accepts anything. A file known only
// as text (text/plain, what a sniffed or unnamed text file is) fits any
// textual type: a CSV may come named input.txt.
func Accepts(types []string, mt string) bool {
	if len(types) == 0 {
		return true
	}
	mt = unX(mt)
	for _, t := range types {
		t = unX(t)
		switch {
		case t == "*/*", t == mt:
			return true
		case strings.HasSuffix(t, "/*") && strings.HasPrefix(mt, strings.TrimSuffix(t, "*")):
			return true
		case mt == "text/plain" && Textual(t):
			return true
		}
	}
	return false
}

// unX drops the x- of an unregistered subtype: application/x-yaml is
// application/yaml.
func unX(mt string) string {
	if major, sub, ok := strings.Cut(mt, "/"); ok {
		return major + "/" + strings.TrimPrefix(sub, "x-")
	}
	return mt
}

// Textual reports whether files of media type t are text a text tool can
// read: text/*, JSON, XML, YAML, TOML and their +json and +xml kin.
func Textual(t string) bool {
	t = unX(t)
	if strings.HasPrefix(t, "text/") {
		return true
	}
	sub, ok := strings.CutPrefix(t, "application/")
	return ok && (slices.Contains([]string{"json", "xml", "yaml", "toml", "ndjson", "javascript", "sh", "sql"}, sub) ||
		strings.HasSuffix(sub, "+json") || strings.HasSuffix(sub, "+xml"))
}
