package host

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/bm25"
	"github.com/agentnet/agentnet/internal/lazyregexp"
	"github.com/agentnet/agentnet/internal/lexicon"
	"github.com/agentnet/agentnet/internal/vocab"
)

// A Binder fills the arguments of a chosen skill from a message. Two
// implementations: rulesBinder, an ordered list of small named steps, and
// llmBinder, a tool call against the skill's JSON Schema. Each records
// which argument it set and from what evidence.
type Binder interface {
	Name() string
	Bind(ctx context.Context, c *BindCall) (*Binding, error)
}

// BindCall is what a binder reads: the skill, the task's work directory
// and the message.
type BindCall struct {
	Skill       *bundle.Skill
	Workdir     string
	Instruction string         // the words about the work
	Content     string         // text given to work on, or ""
	Data        map[string]any // the data parts' fields, merged
	Files       []string       // the attached files' names in Workdir
	// Args are arguments given as such (a structured call, an MCP tool
	// call, a model's tool call); with Direct they are all there is and
	// no language binding runs.
	Args   map[string]any
	Direct bool
	trial  bool // a trial binding (see bindFirst): no file is written
}

// Binding is a binder's answer: the arguments and the evidence for each.
type Binding struct {
	Args  map[string]any
	Trace []Evidence
	// pasted: a parameter took the whole instruction, no value it states.
	pasted bool
}

// Evidence says which step set an argument, to what, and from what: a
// span of the instruction, a file, a data part, the schema's default.
type Evidence struct {
	Step  string `json:"step"`
	Param string `json:"param"`
	Value any    `json:"value"`
	From  string `json:"from"`
}

func (e Evidence) String() string {
	return fmt.Sprintf("%s: %s = %v (from %s)", e.Step, e.Param, e.Value, e.From)
}

// bindState is the work of one rules binding, passed from step to step.
type bindState struct {
	*BindCall
	params   []bundle.Param
	declared map[string]bundle.Param
	args     map[string]any
	// The text phase (see stepText): the instruction, what is passed as
	// the text to work on, whether the message gave it as such, and the
	// parameter it goes to.
	text, payload             string
	textual, explicit, inline bool
	strs                      []bundle.Param
	target                    string
	from                      string // evidence a step states for what it set, or ""
	pasted                    bool   // see Binding
	textFrom                  string // the attached file the payload is the text of, or ""
}

func (s *bindState) unbound(p bundle.Param) bool { _, ok := s.args[p.Name]; return !ok }

// A ruleStep is one named rule of the rules binder.
type ruleStep struct {
	name string
	run  func(*bindState) error
}

// ruleSteps are the rules binder's steps, in order. Each may set
// arguments no earlier step set; none overwrites another's.
var ruleSteps = []ruleStep{
	{"given", stepGiven},
	{"data-part", stepData},
	{"data-left", stepDataLeft},
	{"tuples", stepTuples},
	{"file-names", stepFileNames},
	{"attached-files", stepFiles},
	{"output-name", stepOutputName},
	{"numbers", stepNumbers},
	{"called", stepCalled},
	{"sql-from-words", stepSQL},
	{"text-target", stepTarget},
	{"switches", stepSwitches},
	{"formats", stepFormats},
	{"choices", stepChoices},
	{"kind-lists", stepKindLists},
	{"named-values", stepNamedValues},
	{"columns", stepColumns},
	{"text", stepText},
	{"text-as-file", stepTextFile},
	{"contain-files", stepContainFiles},
	{"defaults", stepDefaults},
}

// rulesBinder binds by the parameters' roles and rules that hold for
// command-line tools in general (extract.go).
type rulesBinder struct {
	noMissing bool // tests: leave required parameters unbound rather than fail
}

func (rulesBinder) Name() string { return "rules" }

func (r rulesBinder) Bind(_ context.Context, c *BindCall) (*Binding, error) {
	params := c.Skill.ParamList()
	s := &bindState{BindCall: c, params: params, declared: map[string]bundle.Param{}, args: map[string]any{}}
	for _, p := range params {
		s.declared[p.Name] = p
	}
	s.text = strings.TrimSpace(c.Instruction)
	s.textual = (s.text != "" || strings.TrimSpace(c.Content) != "") && !c.Direct
	var trace []Evidence
	for _, st := range ruleSteps {
		before := make(map[string]any, len(s.args))
		for k, v := range s.args {
			before[k] = v
		}
		s.from = ""
		if err := st.run(s); err != nil {
			return nil, err
		}
		for _, k := range sortedKeys(s.args) {
			if old, ok := before[k]; ok && reflect.DeepEqual(old, s.args[k]) {
				continue
			}
			trace = append(trace, Evidence{Step: st.name, Param: k, Value: shown(c.Workdir, s.args[k]), From: s.evidence(st.name, k)})
		}
	}
	coerce(params, s.args)
	if !c.Direct && !r.noMissing {
		// Arguments given as such are checked against the schema, which
		// names what is missing.
		if err := s.missing(); err != nil {
			return nil, err
		}
	}
	return &Binding{Args: s.args, Trace: trace, pasted: s.pasted}, nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// shown is a value as the trace gives it: paths relative to the work
// directory.
func shown(work string, v any) any {
	switch t := v.(type) {
	case string:
		if rel, ok := strings.CutPrefix(t, work+string(filepath.Separator)); ok {
			return rel
		}
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = shown(work, x)
		}
		return out
	}
	return v
}

// evidence says where the value of argument k came from.
func (s *bindState) evidence(step, k string) string {
	if s.from != "" {
		return s.from
	}
	switch step {
	case "given":
		return "arguments given with the message"
	case "data-part":
		return "data part field " + k
	case "defaults":
		return "the schema's default"
	}
	v := s.args[k]
	if list, ok := v.([]any); ok && len(list) > 0 {
		v = list[0]
	}
	str := fmt.Sprint(v)
	if rel, ok := strings.CutPrefix(str, s.Workdir+string(filepath.Separator)); ok {
		if slices.Contains(s.Files, rel) {
			return "attached file " + rel
		}
		return "file " + rel
	}
	if c := strings.TrimSpace(s.Content); c != "" && strings.TrimSpace(str) == c {
		return "the text given to work on"
	}
	if s.textFrom != "" && str == s.payload {
		return "the text of attached file " + s.textFrom
	}
	if i := strings.Index(s.Instruction, str); i >= 0 && str != "" {
		return fmt.Sprintf("instruction[%d:%d] %q", i, i+len(str), str)
	}
	if b, ok := v.(bool); ok && b {
		return "the instruction's words for " + k
	}
	return "the instruction"
}

// missing fails the binding when a required parameter has no value,
// saying which and why: never a guess in its place.
func (s *bindState) missing() error {
	var lines []string
	for _, p := range s.params {
		if !p.Required || !s.unbound(p) {
			continue
		}
		var why string
		switch {
		case p.Role == bundle.RoleInputFile && len(s.Files) > 0 && len(p.Accepts) > 0:
			why = fmt.Sprintf("none of the attached files is of a type it accepts (%s)", strings.Join(p.Accepts, ", "))
		case p.Role == bundle.RoleInputFile:
			why = "no file was attached and no text given to make one of"
		case p.Role == bundle.RoleSelector:
			why = "the message quotes no value for it and names no column of an attached table"
		case p.Role == bundle.RoleOutput:
			why = "the instruction names no file to write"
		default:
			why = "the message states no value for it"
		}
		lines = append(lines, fmt.Sprintf("required parameter %s (%s) has no value: %s", p.Name, p.Role, why))
	}
	if len(lines) > 0 {
		return failf("skill %q: %s", s.Skill.ID, strings.Join(lines, "; "))
	}
	return nil
}

// stepGiven takes arguments given as such.
func stepGiven(s *bindState) error {
	for k, v := range s.Args {
		if _, ok := s.declared[k]; ok || len(s.declared) == 0 {
			s.args[k] = v
		}
	}
	return nil
}

// stepData takes data-part fields by the parameters' names, the same
// words in another inflection ("values" for value) included; a list left
// over goes to the one list parameter that takes text or numbers when it
// is the only one of each.
func stepData(s *bindState) error {
	var lists, left []string
	for _, k := range sortedKeys(s.Data) {
		if name := dataParam(s, k); name != "" {
			if s.unbound(s.declared[name]) {
				s.args[name] = asDeclared(propertyOf(s.Skill, name), s.Data[k])
			}
			continue
		}
		left = append(left, k)
		if _, ok := s.Data[k].([]any); ok {
			lists = append(lists, k)
		}
	}
	target := dataList(s)
	switch {
	case target == "":
	case len(lists) == 1 && (s.declared[target].Required || onlyRequired(s, target)):
		// An optional list takes it only when no required parameter
		// is still to be given a value (see stepDataLeft).
		s.args[target] = asDeclared(propertyOf(s.Skill, target), s.Data[lists[0]])
	case len(left) > 1 && s.declared[target].Required && onlyRequired(s, target):
		// Values no parameter is named for, for the one required list
		// of a function's arguments (geodesic(*points)): every one, in
		// the order the instruction mentions their fields.
		slices.SortStableFunc(left, func(a, b string) int { return mentionAt(s.text, a) - mentionAt(s.text, b) })
		vals := make([]any, len(left))
		for i, k := range left {
			vals[i] = s.Data[k]
		}
		s.args[target] = vals
		s.from = "the data part's fields " + strings.Join(left, ", ")
	}
	return nil
}

// stepTuples gives a function's one required list of arguments the
// tuples of numbers the instruction writes in parentheses, in order:
// "from (59.91, 10.75) to (60.39, 5.32)" is two points.
func stepTuples(s *bindState) error {
	target := dataList(s)
	if !s.textual || target == "" || !s.declared[target].Required || !onlyRequired(s, target) || !takesTuples(s.Skill, target) {
		return nil
	}
	var vals []any
	for _, m := range tupleRE.FindAllStringSubmatch(s.text, -1) {
		var tuple []any
		for _, f := range strings.Split(m[1], ",") {
			n, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil {
				return nil
			}
			tuple = append(tuple, n)
		}
		vals = append(vals, tuple)
	}
	if len(vals) > 0 {
		s.args[target] = vals
	}
	return nil
}

// takesTuples reports whether list parameter name may hold lists of
// numbers: its items' type is unsaid, or a list.
func takesTuples(sk *bundle.Skill, name string) bool {
	items, _ := propertyOf(sk, name)["items"].(map[string]any)
	t, _ := items["type"].(string)
	return t == "" || t == "array"
}

var tupleRE = lazyregexp.New(`\((\s*[-+]?[0-9]+(?:\.[0-9]+)?(?:\s*,\s*[-+]?[0-9]+(?:\.[0-9]+)?)+\s*)\)`)

// dataList is the skill's one unbound list parameter that takes values
// (not files), or "".
func dataList(s *bindState) string {
	var target []string
	for _, p := range s.params {
		if p.Type == "array" && !p.IsFile() && p.Role != bundle.RoleOutput && p.Role != bundle.RoleSelector {
			target = append(target, p.Name)
		}
	}
	if len(target) != 1 || !s.unbound(s.declared[target[0]]) {
		return ""
	}
	return target[0]
}

// onlyRequired reports whether name is the only required parameter still
// unbound.
func onlyRequired(s *bindState, name string) bool {
	for _, p := range s.params {
		if p.Required && p.Name != name && s.unbound(p) {
			return false
		}
	}
	return true
}

// mentionAt is where the text first says word w as a word, or past its
// end when it does not.
func mentionAt(text, w string) int {
	for i, t := range tokens(text, "") {
		if t.low == strings.ToLower(w) {
			return i
		}
	}
	return len(text) + 1
}

// asDeclared gives a data value the type its parameter declares where
// JSON's differs only in spelling: a number or a truth value for a string
// parameter (or list items) is its text, as it would be on a command line.
func asDeclared(prop map[string]any, v any) any {
	switch t := v.(type) {
	case float64, bool:
		if prop["type"] == "string" {
			return fmt.Sprint(t)
		}
	case []any:
		if prop["type"] == "string" {
			return joinScalars(t, v)
		}
		items, _ := prop["items"].(map[string]any)
		if items == nil {
			return v
		}
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = asDeclared(items, x)
		}
		return out
	}
	return v
}

// joinScalars is a list of numbers or words written as one value, comma
// separated as a command line writes a point or a pair ("59.9,10.7");
// v itself when an item is not a scalar.
func joinScalars(list []any, v any) any {
	parts := make([]string, len(list))
	for i, x := range list {
		switch x.(type) {
		case float64, string, bool:
			parts[i] = fmt.Sprint(x)
		default:
			return v
		}
	}
	return strings.Join(parts, ",")
}

// dataParam returns the declared parameter a data field names: the same
// name, or the same words with a plural's final s dropped; else the one
// parameter whose words begin the field's or whose name the field's
// words begin, a qualifier such as a unit after them ("distance_km" for
// distance, "max" for max_depth); else the one whose name is a synonym of
// the field's one word. "" for none.
func dataParam(s *bindState, field string) string {
	if _, ok := s.declared[field]; ok {
		return field
	}
	key := singularWords(field)
	if key == "" {
		return ""
	}
	for _, p := range s.params {
		if singularWords(p.Name) == key {
			return p.Name
		}
	}
	fw := strings.Fields(key)
	var prefix, related []string
	for _, p := range s.params {
		if p.IsFile() || p.Role == bundle.RoleOutput {
			continue
		}
		pw := strings.Fields(singularWords(p.Name))
		if len(pw) == 0 {
			continue
		}
		if slices.Equal(pw, fw[:min(len(pw), len(fw))]) || slices.Equal(fw, pw[:min(len(pw), len(fw))]) {
			prefix = append(prefix, p.Name)
		}
		if len(fw) == 1 && len(pw) == 1 && lexicon.Related(fw[0], pw[0]) {
			related = append(related, p.Name)
		}
	}
	switch {
	case len(prefix) == 1:
		return prefix[0]
	case len(prefix) == 0 && len(related) == 1:
		return related[0]
	}
	return ""
}

// stepDataLeft gives the one required parameter the data part's fields
// left unbound the one field no parameter is named for: the message's
// structured arguments are for the skill, whatever the field is called
// ("start" for a point).
func stepDataLeft(s *bindState) error {
	var left []string
	for _, k := range sortedKeys(s.Data) {
		if dataParam(s, k) == "" {
			left = append(left, k)
		}
	}
	var open []bundle.Param
	for _, p := range s.params {
		if p.Required && s.unbound(p) && !p.IsFile() && p.Role != bundle.RoleOutput {
			open = append(open, p)
		}
	}
	if len(left) != 1 || len(open) != 1 {
		return nil
	}
	s.args[open[0].Name] = asDeclared(propertyOf(s.Skill, open[0].Name), s.Data[left[0]])
	s.from = "data part field " + left[0]
	return nil
}

func singularWords(name string) string {
	words := vocab.Words(name)
	for i, w := range words {
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			words[i] = strings.TrimSuffix(w, "s")
		}
	}
	return strings.Join(words, " ")
}

// stepFileNames resolves file arguments given by name: they refer to the
// attached files (or name the file the run writes), never an absolute
// path, never one that climbs out of the work directory.
func stepFileNames(s *bindState) error {
	for _, p := range s.params {
		v, ok := s.args[p.Name]
		if !ok || !p.IsFile() {
			continue
		}
		switch t := v.(type) {
		case string:
			if t == "" {
				delete(s.args, p.Name) // a tool call's empty optional: absent
				continue
			}
			abs, err := callerPath(s.Workdir, p.IsOutput(), t)
			if err != nil {
				return failf("skill %q: parameter %s: %v", s.Skill.ID, p.Name, err)
			}
			s.args[p.Name] = abs
		case []any:
			list := make([]any, len(t))
			for i, item := range t {
				str, _ := item.(string)
				abs, err := callerPath(s.Workdir, p.IsOutput(), str)
				if err != nil {
					return failf("skill %q: parameter %s[%d]: %v", s.Skill.ID, p.Name, i, err)
				}
				list[i] = abs
			}
			s.args[p.Name] = list
		}
	}
	return nil
}

// stepFiles gives the attached files no argument names to the parameters
// that take them (see bindFiles).
func stepFiles(s *bindState) error {
	used := map[string]bool{}
	for _, v := range s.args {
		if str, ok := v.(string); ok {
			used[filepath.Base(str)] = true
		}
	}
	var free []string
	for _, f := range s.Files {
		if !used[f] {
			free = append(free, f)
		}
	}
	bindFiles(s.Skill, s.params, s.args, free, s.Instruction, s.Workdir)
	return nil
}

// stepOutputName gives a file name the instruction asks the result to be
// saved under to the one parameter for a file the skill writes.
func stepOutputName(s *bindState) error {
	name := namedOutput(s.Instruction, s.Files)
	if name == "" {
		return nil
	}
	var outs []bundle.Param
	for _, p := range s.params {
		if s.unbound(p) && writes(p) && (p.IsPath() || p.Type == "string" || p.Type == "") {
			outs = append(outs, p)
		}
	}
	if len(outs) == 1 {
		s.args[outs[0].Name] = filepath.Join(s.Workdir, name)
		s.from = "the file name the instruction gives: " + name
	}
	return nil
}

// stepNumbers fills numeric parameters from the numbers the instruction
// states (see bindNumbers).
func stepNumbers(s *bindState) error {
	if s.textual {
		bindOrdinals(s.Skill, s.params, s.args, s.text)
		bindNumbers(s.params, s.args, s.text)
	}
	return nil
}

// numberAs is n as p's schema takes it (an integer, a string, a list of
// either), or nil.
func numberAs(sk *bundle.Skill, p bundle.Param, n int) any {
	switch p.Type {
	case "integer", "number":
		return int64(n)
	case "string", "":
		return strconv.Itoa(n)
	case "array":
		items, _ := propertyOf(sk, p.Name)["items"].(map[string]any)
		switch items["type"] {
		case "integer", "number":
			return []any{int64(n)}
		case "string", nil:
			return []any{strconv.Itoa(n)}
		}
	}
	return nil
}

// stepCalled gives a required parameter the value the instruction names
// it by ("a table named sales", "a sheet called Totals"): a word of the
// parameter's name, then a word of vocab set naming, then the value. Only
// a parameter that takes a name (not a file, a number or a switch), only
// one such value for it, and only a mention no other parameter's name
// also fits.
func stepCalled(s *bindState) error {
	if !s.textual {
		return nil
	}
	toks := tokens(s.text, "")
	claims := map[int][]string{} // mention -> parameters it fits
	mentions := map[string][]int{}
	for _, p := range s.params {
		if !s.unbound(p) || !p.Required || p.IsFile() || p.Type != "string" {
			continue
		}
		for i := 0; i+2 < len(toks); i++ {
			if !vocab.Has("naming", toks[i+1].low) || !valueLike(toks[i+2]) {
				continue
			}
			if slices.ContainsFunc(vocab.Words(p.Name), func(w string) bool { return len(w) >= 3 && says(toks[i], w) }) {
				claims[i] = append(claims[i], p.Name)
				mentions[p.Name] = append(mentions[p.Name], i)
			}
		}
	}
	for name, at := range mentions {
		if len(at) == 1 && len(claims[at[0]]) == 1 {
			s.args[name] = toks[at[0]+2].s
		}
	}
	return nil
}

// stepTarget decides the text phase: content (the text parts after the
// first) is passed as it came, else the instruction's tail after a colon,
// else the instruction; it goes to the one parameter for it (target).
// Several required strings take the values the instruction names.
func stepTarget(s *bindState) error {
	if !s.textual {
		return nil
	}
	sk := s.Skill
	for _, p := range s.params {
		if s.unbound(p) && !p.IsPath() && (p.Type == "string" || p.Type == "") {
			s.strs = append(s.strs, p)
		}
	}
	s.payload, s.explicit = s.Content, true
	if strings.TrimSpace(s.payload) == "" {
		// An attached text file no parameter took is the text to work on
		// of a skill that takes its input as text (a JSON document for a
		// function's object argument).
		if text, name := unusedTextFile(s); text != "" && slices.ContainsFunc(requiredOf(s.strs), func(p bundle.Param) bool { return p.Role == bundle.RoleInputText }) {
			s.payload, s.textFrom = text, name
		}
	}
	if strings.TrimSpace(s.payload) == "" {
		s.payload, s.explicit = s.text, false
		if c := inlineContent(s.text); c != "" && len(s.Files) == 0 {
			s.payload, s.explicit, s.inline = c, true, true
		}
	}
	strs, stdinP := s.strs, sk.StdinParam()
	switch reqd := requiredOf(strs); {
	case s.explicit && stdinP != "" && slices.ContainsFunc(strs, func(p bundle.Param) bool { return p.Name == stdinP }):
		s.target = stdinP // text to work on is what the skill reads on standard input
	case s.explicit && len(s.Files) == 0 && len(reqd) == 0 && stdinP != "" && s.declared[stdinP].IsPath() && s.unbound(s.declared[stdinP]):
		// Text to work on with no file goes to standard input (as a file
		// of its own, stepTextFile), not to an optional operand.
	case s.explicit && len(strs) == 1 && (!s.inline || strs[0].Required || positional(sk, strs[0].Name) || textParam(strs[0])):
		s.target = strs[0].Name
	case s.explicit && len(strs) > 1 && len(reqd) <= 1 && len(textParams(strs)) == 1 && (len(reqd) == 0 || textParam(reqd[0])):
		s.target = textParams(strs)[0].Name // the one parameter for text
	case len(reqd) == 1:
		s.target = reqd[0].Name
	case len(reqd) == 0 && len(strs) == 1 && positional(sk, strs[0].Name):
		// An optional positional argument is still the skill's input; an
		// optional flag (--base, --delimiter) is not.
		s.target = strs[0].Name
	case !s.explicit && len(reqd) > 1:
		for k, v := range pickAll(sk, reqd, s.text, s.Workdir, s.Files) {
			s.args[k] = v
		}
		bindAssigned(reqd, s.args, s.text)
	case len(reqd) == 0:
		// Beside optional flags, the one positional string or list of
		// strings is the input.
		var pos []string
		for _, p := range s.params {
			inStrs := slices.ContainsFunc(strs, func(q bundle.Param) bool { return q.Name == p.Name })
			if s.unbound(p) && (inStrs || stringList(sk, p)) && positional(sk, p.Name) {
				pos = append(pos, p.Name)
			}
		}
		if len(pos) == 1 {
			s.target = pos[0]
		}
	}
	return nil
}

// stepSwitches sets the optional switches the instruction names.
func stepSwitches(s *bindState) error {
	if s.textual {
		bindSwitches(s.Skill, s.params, s.args, s.text)
	}
	return nil
}

// stepFormats fills format parameters from the format names the
// instruction says, and sets a switch named for a format (--json, --csv):
// one whose help says it reads that format when the attached file is in it
// or the instruction names it as what goes in; any other when the
// instruction asks for its result in that format ("as JSON", "into CSV",
// "JSON output"), not where it names what goes in ("this JSON file").
func stepFormats(s *bindState) error {
	if !s.textual {
		return nil
	}
	bindFormats(s.Skill, s.params, s.args, s.text, s.Files)
	for _, p := range s.params {
		f := strings.ToLower(p.Name)
		if !s.unbound(p) || p.Type != "boolean" || !formatWords[f] {
			continue
		}
		if readsFormat(p) && (filesFormat(s.Files) == f || givesFormat(s.text, f)) || !readsFormat(p) && asksFormat(s.text, f) {
			s.args[p.Name] = true
		}
	}
	return nil
}

// readsFormat reports whether a format switch's help says it is about the
// input ("Expect CSV input", "Read TSV from the file").
func readsFormat(p bundle.Param) bool {
	words := vocab.Words(p.Description)
	return hasAny(words, inputFormatWords) && !vocab.Has("out", words...)
}

var inputFormatWords = map[string]bool{"in": true, "input": true, "from": true, "source": true, "src": true, "read": true, "reads": true, "expect": true, "parse": true}

// filesFormat is the format the attached files' names say, or "".
func filesFormat(files []string) string {
	for _, f := range files {
		if ext := strings.TrimPrefix(strings.ToLower(path.Ext(f)), "."); formatNames()[ext] {
			return ext
		}
	}
	return ""
}

// givesFormat reports whether the text names format f as what goes in
// ("from CSV", "this TSV").
func givesFormat(text, f string) bool {
	toks := tokens(text, "")
	for i, t := range toks {
		if t.low == f && i > 0 && (toks[i-1].low == "from" || toks[i-1].low == "this" || toks[i-1].low == "these") {
			return true
		}
	}
	return false
}

// asksFormat reports whether the text asks for its result in format f.
func asksFormat(text, f string) bool {
	toks := tokens(text, "")
	for i, t := range toks {
		if t.low != f {
			continue
		}
		if i > 0 && (vocab.Has("yields", toks[i-1].low) || toks[i-1].low == "in") ||
			i+1 < len(toks) && vocab.Has("answer", toks[i+1].low) {
			return true
		}
	}
	return false
}

// stepChoices gives an optional setting with a fixed set of values the one
// value the instruction names; none or several leave its default.
func stepChoices(s *bindState) error {
	if !s.textual {
		return nil
	}
	for _, p := range s.params {
		if !s.unbound(p) || p.Required || p.Type != "string" && p.Type != "" {
			continue
		}
		if _, ok := propertyOf(s.Skill, p.Name)["enum"]; !ok {
			continue
		}
		if vs := kindTokens(s.Skill, p, s.text); len(vs) == 1 && len(vs[0]) > 1 && !modifies(s.text, vs[0], p) {
			s.args[p.Name] = vs[0]
		}
	}
	return nil
}

// modifies reports whether a choice word stands in the text before a
// noun of something else, as a modifier, not as the option's value:
// "release" in "in release order" for --increment, where "the next minor
// version" (the option's help says version), "bump it to minor." or
// "increment it by a minor level" (the text names the option) name the
// value. The word after it in its clause is a content word that neither
// the option's name nor its help says.
func modifies(text, v string, p bundle.Param) bool {
	fields := strings.Fields(text)
	for i, f := range fields {
		w := strings.Trim(f, "\"'“”‘’`()[]{}<>,;:!?.")
		if !strings.EqualFold(w, v) || i+1 == len(fields) {
			continue
		}
		if clauseEnd(f) != 0 || strings.ContainsAny(f, "\"'“”‘’`") {
			return false // the clause ends, or the value is quoted
		}
		next := bm25.Tokenize(fields[i+1])
		if len(next) == 0 || unicode.IsDigit(rune(fields[i+1][0])) {
			return false // a function word or a number follows
		}
		own := bm25.Tokenize(p.Name + " " + p.Description)
		if slices.ContainsFunc(bm25.Tokenize(p.Name), func(n string) bool { return slices.Contains(bm25.Tokenize(text), n) }) {
			return false // the text speaks of the option by its name
		}
		return !slices.Contains(own, next[0])
	}
	return false
}

// stepKindLists gives a required list of things of a kind (versions,
// URLs) every one the instruction names, in order.
func stepKindLists(s *bindState) error {
	if !s.textual {
		return nil
	}
	for _, p := range s.params {
		if !s.unbound(p) || !p.Required || !stringList(s.Skill, p) || kindOf(s.Skill, p) == nil && choicesOf(s.Skill, p) == nil {
			continue
		}
		if vs := kindTokens(s.Skill, p, s.text); len(vs) > 0 {
			list := make([]any, len(vs))
			for i, v := range vs {
				list[i] = v
			}
			s.args[p.Name] = list
			if p.Name == s.target {
				s.target = ""
			}
		}
	}
	return nil
}

// stepNamedValues fills optional settings the instruction names beside
// their values (see bindNamedValues).
func stepNamedValues(s *bindState) error {
	if s.textual {
		bindNamedValues(s.Skill, s.params, s.args, s.text, s.target)
	}
	return nil
}

// stepText gives the target its value: the content as it came, or a value
// the instruction states for it (a quoted phrase, a column of an attached
// table, a token of its kind, the tail after a colon), or the instruction
// itself — but only to a parameter whose role is the text or a query:
// a selector, a setting or an output never takes the whole instruction.
func stepText(s *bindState) error {
	if !s.textual || s.target == "" || !s.unbound(s.declared[s.target]) {
		return nil
	}
	p := s.declared[s.target]
	v := s.payload
	stated := s.explicit
	if !s.explicit {
		if picked := pick(s.Skill, p, s.text, s.Workdir, s.Files); picked != "" {
			v, stated = picked, true
		}
		// Beside an attached file, the instruction's tail after its colon
		// is the argument, unless the parameter holds a kind of token the
		// tail is not.
		if c := inlineContent(s.text); c != "" && len(s.Files) > 0 && kindOf(s.Skill, p) == nil && choicesOf(s.Skill, p) == nil {
			v, stated = c, true
		}
		// The text to work on, when the instruction writes it in a
		// notation of its own (41°24'12.2"N 2°10'26.5"E), is that span.
		if n := notation(s.text); !stated && n != "" && p.Role == bundle.RoleInputText && len(s.Files) == 0 {
			v, stated = n, true
		}
	}
	// Only the text to work on may be the whole instruction; a query, a
	// selector, a setting or an output takes a value the message states.
	switch {
	case p.IsFile():
		return nil // files come from the file steps, never from words
	case p.Role == bundle.RoleSelector || p.Role == bundle.RoleOutput:
		if !stated || s.explicit && !s.inline {
			return nil // not the text to work on: see missing
		}
	case p.Role != bundle.RoleInputText && !stated:
		return nil
	}
	if p.Type == "array" {
		s.args[s.target] = []any{v}
	} else {
		s.args[s.target] = v
	}
	s.pasted = !stated && !s.explicit
	return nil
}

// notation returns the one run of words of text that each hold a digit
// (or are one capital letter after one that does: 46" N), when a word of it also holds a symbol or a prime mark (°, ', ", ′, ″, $,
// %) — a value written in a notation (a coordinate, an amount) — without
// the sentence's closing punctuation; "" when there is none or several.
func notation(text string) string {
	var runs [][]string
	var cur []string
	marked := false
	flush := func() {
		if len(cur) > 0 && marked {
			runs = append(runs, cur)
		}
		cur, marked = nil, false
	}
	for _, w := range strings.Fields(text) {
		if len(cur) > 0 && len(strings.TrimRight(w, ".,;:!?")) == 1 && unicode.IsUpper(rune(w[0])) {
			cur = append(cur, w) // a hemisphere or unit letter: 46" N
			continue
		}
		if !strings.ContainsAny(w, "0123456789") {
			flush()
			continue
		}
		cur = append(cur, w)
		if strings.IndexFunc(w, func(r rune) bool { return unicode.IsSymbol(r) || strings.ContainsRune(`'"′″%`, r) }) >= 0 {
			marked = true
		}
	}
	flush()
	if len(runs) != 1 {
		return ""
	}
	return strings.TrimRight(strings.Join(runs[0], " "), ".,;:!?")
}

// maxTextFile bounds an attached file read as the text to work on.
const maxTextFile = 256 << 10

// unusedTextFile returns the text of the one attached file no argument
// holds, when there is one and it is text (UTF-8, no NUL, at most
// maxTextFile bytes), and its name.
func unusedTextFile(s *bindState) (string, string) {
	var name string
	for _, f := range s.Files {
		if !usesFile(s.args, filepath.Join(s.Workdir, f)) {
			if name != "" {
				return "", ""
			}
			name = f
		}
	}
	if name == "" {
		return "", ""
	}
	fi, err := os.Stat(filepath.Join(s.Workdir, name))
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxTextFile || fi.Size() == 0 {
		return "", ""
	}
	data, err := os.ReadFile(filepath.Join(s.Workdir, name))
	if err != nil || !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		return "", ""
	}
	return string(data), name
}

// stepTextFile makes the text a file of its own for a required path
// parameter; text given to work on, with no file attached, also for the
// input an optional one stands for (the skill's standard input, its
// operand, its file).
func stepTextFile(s *bindState) error {
	if !s.textual || s.target != "" || len(requiredOf(s.strs)) != 0 {
		return nil
	}
	takes := func(p bundle.Param) bool { return p.Required }
	if s.explicit && len(s.Files) == 0 {
		if in := inputPath(s.Skill, s.params, s.args); in != "" {
			takes = func(p bundle.Param) bool { return p.Required || p.Name == in }
		}
	}
	for _, p := range s.params {
		if !s.unbound(p) || !p.IsPath() || !takes(p) || writes(p) || !acceptsText(p) {
			continue
		}
		if !s.explicit && len(s.Files) > 0 {
			return nil // files came, none for it: the instruction is no file
		}
		name := safeName(p.Name+textExt(s.payload), "input.txt")
		if s.trial {
			s.args[p.Name] = filepath.Join(s.Workdir, name)
			return nil
		}
		if err := os.WriteFile(filepath.Join(s.Workdir, name), []byte(s.payload), 0o644); err != nil {
			return fmt.Errorf("save text input: %w", err)
		}
		if p.Type == "array" {
			s.args[p.Name] = []any{filepath.Join(s.Workdir, name)}
		} else {
			s.args[p.Name] = filepath.Join(s.Workdir, name)
		}
		if s.explicit {
			s.from = "the text given to work on, saved as " + name
		} else {
			s.from = "the instruction, saved as " + name
		}
		return nil
	}
	return nil
}

// stepColumns fills the one optional column parameter left (its name or
// help says column, field, key or header: "-f, --fields: select these
// fields as the key") with the column of an attached table that the
// instruction names ("the frequency of each city" of a table with a city
// column), before its default ("1", the first column) would take it. With
// two such parameters the text cannot tell which one it means.
func stepColumns(s *bindState) error {
	if !s.textual {
		return nil
	}
	var cols []bundle.Param
	for _, p := range s.params {
		if s.unbound(p) && !p.Required && !p.IsFile() && (p.Type == "string" || stringList(s.Skill, p)) && columnLike(p) {
			cols = append(cols, p)
		}
	}
	if len(cols) != 1 {
		return nil
	}
	h := headerMention(s.text, s.Workdir, s.Files)
	if h == "" {
		return nil
	}
	if cols[0].Type == "array" {
		s.args[cols[0].Name] = []any{h}
	} else {
		s.args[cols[0].Name] = h
	}
	s.from = "the column " + h + " of an attached table, named in the instruction"
	return nil
}

// stepDefaults fills the schema's defaults, but for an optional
// parameter whose default begins with "-" ("--------" as a separator):
// passed, it would be refused as an option (buildArgv) or read as one by
// the tool; left out, the tool applies that very default itself.
func stepDefaults(s *bindState) error {
	given := s.args
	s.args = s.Skill.WithDefaults(s.args)
	for _, p := range s.Skill.ParamList() {
		if _, ok := given[p.Name]; ok || p.Required {
			continue
		}
		if str, ok := s.args[p.Name].(string); ok && len(str) > 1 && strings.HasPrefix(str, "-") {
			delete(s.args, p.Name)
		}
	}
	return nil
}

// callOf is the BindCall of a request.
func callOf(sk *bundle.Skill, work string, req *request, saved []string, given map[string]any) *BindCall {
	c := &BindCall{Skill: sk, Workdir: work, Instruction: req.words(), Content: req.content, Data: req.data, Files: saved, Args: given}
	if req.args != nil {
		c.Args, c.Direct = req.args, true
	}
	return c
}

// BindingMetadataKey is the key of the output artifact's metadata that
// says how the skill's arguments were bound: {"binder": "rules",
// "trace": [{"step", "param", "value", "from"}, ...]}.
const BindingMetadataKey = "binding"

func bindingMetadata(out *outcome) map[string]any {
	trace := make([]any, len(out.trace))
	for i, e := range out.trace {
		trace[i] = map[string]any{"step": e.Step, "param": e.Param, "value": e.Value, "from": e.From}
	}
	return map[string]any{"binder": out.binder, "skill": out.skill.ID, "trace": trace}
}

// acceptsText reports whether a file parameter may take a file made of
// text: it names no media types, or a text type among them.
func acceptsText(p bundle.Param) bool {
	return len(p.Accepts) == 0 || bundle.Accepts(p.Accepts, "text/plain") ||
		slices.ContainsFunc(p.Accepts, func(t string) bool { return strings.HasPrefix(t, "text/") })
}

// stepContainFiles holds every file argument a step took from words (a
// named value, a quoted phrase) to the rule of stepFileNames: a name
// inside the work directory, or the task fails.
func stepContainFiles(s *bindState) error {
	inside := func(v any) bool {
		str, ok := v.(string)
		return ok && strings.HasPrefix(str, s.Workdir+string(filepath.Separator))
	}
	for _, p := range s.params {
		v, ok := s.args[p.Name]
		if !ok || !p.IsFile() {
			continue
		}
		if list, isList := v.([]any); isList && !slices.ContainsFunc(list, func(x any) bool { return !inside(x) }) || inside(v) {
			continue
		}
		one := &bindState{BindCall: s.BindCall, params: []bundle.Param{p}, args: map[string]any{p.Name: v}}
		if err := stepFileNames(one); err != nil {
			return err
		}
		if nv, ok := one.args[p.Name]; ok {
			s.args[p.Name] = nv
		} else {
			delete(s.args, p.Name)
		}
	}
	return nil
}
