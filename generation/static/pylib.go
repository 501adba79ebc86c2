package static

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/lazyregexp"
)

// pyAPI is the public API pyscan.py reads from a repository's packages.
type pyAPI struct {
	Packages      []string  `json:"packages"`
	Items         []pyItem  `json:"items"`
	ReadmeHasCode bool      `json:"readme_has_code"`
	ReadmeNames   []string  `json:"readme_names"`  // identifiers the README's examples use
	ReadmeChains  []pyChain `json:"readme_chains"` // chains of calls the README's examples make
}

// pyItem is one public name: a function or a class, where it is reached
// (Public) and where it is defined (Module).
type pyItem struct {
	Public string          `json:"public"`
	Module string          `json:"module"`
	Name   string          `json:"name"`
	Kind   string          `json:"kind"` // function, class
	How    string          `json:"how"`  // all (__all__), top (the package's namespace), module (a public submodule)
	Readme bool            `json:"readme"`
	Info   json.RawMessage `json:"info"`
	// Aliases are the other public names its module binds to it
	// (distance = Geodesic): the implementation a library makes its
	// default among alternatives.
	Aliases []string `json:"aliases"`
}

type pyFunc struct {
	Name        string    `json:"name"`
	Doc         string    `json:"doc"`
	Parsed      pyDoc     `json:"parsed"`
	Params      []pyParam `json:"params"`
	Returns     string    `json:"returns"`
	ReturnsNone bool      `json:"returns_none"`
	ReturnsSelf bool      `json:"returns_self"` // every value it returns is self: it fills the object it is called on
	Async       bool      `json:"async"`
	Decorators  []string  `json:"decorators"`
	Generator   bool      `json:"generator"`
	Writes      bool      `json:"writes"`
	Synthesized bool      `json:"synthesized"`
	Callers     int       `json:"callers"` // the module's other public functions and methods that call it
}

type pyDoc struct {
	Summary string `json:"summary"`
	Params  map[string]struct {
		Desc string `json:"desc"`
		Type string `json:"type"`
	} `json:"params"`
	Returns string `json:"returns"`
}

type pyParam struct {
	Name       string `json:"name"`
	Kind       string `json:"kind"` // posonly, pos, kwonly, varargs, varkw
	Annotation string `json:"annotation"`
	Default    any    `json:"default"`
	Literal    bool   `json:"literal"`
	HasDefault bool   `json:"has_default"`
	Use        string `json:"use"` // read, write: the function calls .read() or .write() on it
}

type pyClass struct {
	Name         string   `json:"name"`
	Doc          string   `json:"doc"`
	Parsed       pyDoc    `json:"parsed"`
	Bases        []string `json:"bases"`
	Decorators   []string `json:"decorators"`
	Init         *pyFunc  `json:"init"`
	Methods      []pyFunc `json:"methods"`
	Properties   []pyFunc `json:"properties"`
	Classmethods []pyFunc `json:"classmethods"`
	Iterable     bool     `json:"iterable"` // defines __iter__ or __next__
}

// wrapParam is how the wrapper passes one parameter: from the argv
// element --Name=value, converted by Conv, to the Python parameter Py,
// positionally (Pos) or by keyword.
type wrapParam struct {
	Name string `json:"name"`
	Py   string `json:"py"`
	Conv string `json:"conv"` // str, int, float, bool, json, path, textio, binaryio, bytes, outpath, auto, date, datetime, decimal, stream, outstream, jsondata
	Pos  bool   `json:"pos,omitempty"`
	Star bool   `json:"star,omitempty"` // *args: a list spread into positions
}

// wrapCall is one skill of the Python wrapper: import Module, take Target
// (a function or a class), construct it (Ctor: "" for a function,
// "__init__" or a classmethod's name) with CtorParams, then call or read
// Member with Params.
type wrapCall struct {
	Module     string      `json:"module"`
	Target     string      `json:"target"`
	Ctor       string      `json:"ctor,omitempty"`
	Fill       string      `json:"fill,omitempty"` // the method that fills the object, made empty, from CtorParams
	CtorParams []wrapParam `json:"ctor_params,omitempty"`
	Member     string      `json:"member,omitempty"`
	MemberKind string      `json:"member_kind,omitempty"` // call, attr, describe
	Params     []wrapParam `json:"params,omitempty"`
	Async      bool        `json:"async,omitempty"`
	ResultFile string      `json:"result_file,omitempty"` // the parameter naming the file a bytes result goes to
}

// capability is one candidate skill of a library: a call the wrapper can
// make with the parameters' schema.
type capability struct {
	id, name, desc string
	stem           string // what variants of one capability share
	score          int
	aliases        int // the other public names of its function or class
	call           wrapCall
	props          map[string]any
	required       []any
	order          int
}

// maxLibrarySkills bounds the skills of one library: its core capabilities.
const maxLibrarySkills = 8

var (
	helperNameRE = lazyregexp.New(`^(main|cli|run_cli|setup|configure|register\w*|unregister\w*|reset|version|get_version|debug|enable\w*|disable\w*|activate\w*|deactivate\w*|set_\w+|add_\w+|remove_\w+|clear\w*|close|open|connect|disconnect|validate_\w+|check_\w+|init\w*|cleanup|teardown|install|uninstall|login|logout|to_dict|from_dict|to_json|from_json|as_dict|mro|subscribe|emit|on_\w+|handle\w*|visit\w*|callback\w*|warn\w*|log\w*|print_\w+|show\w*|display\w*|plot\w*|render_\w+_template)$`)
	// containerNameRE names the methods of a collection (d.get, l.sort):
	// no capability of a class, while a module's get or sort function is one
	// (gjson.Get).
	containerNameRE = lazyregexp.New(`^(keys|values|items|get|update|pop|append|extend|insert|index|count|sort|reverse|copy|clone)$`)
	pathParamRE     = lazyregexp.New(`(?i)(^|_)(path|paths|file|files|filename|filenames|fname|filepath|infile|dir|directory|folder|fpath)$`)
	// ambiguousOutRE are output names that are as often something else.
	ambiguousOutRE = lazyregexp.New(`(?i)^(dest|destination)$`)
	outParamRE     = lazyregexp.New(`(?i)^(out|output|outfile|out_file|out_path|output_path|output_file|outpath|dest|destination|dest_path|save_path|save_to|target_path|output_dir|out_dir|outdir)$`)
	variantAffixR  = lazyregexp.New(`^(?:a|i|try_|must_)?(.+?)(?:_(?:file|files|path|paths|str|string|strings|text|texts|many|all|batch|list|iter|async|bytes|raw|fast|safe|from_\w+))?$`)
	exceptionRE    = lazyregexp.New(`(Error|Exception|Warning|Exit|Interrupt)$`)
	abstractRE     = lazyregexp.New(`(^|\.)(ABC|Protocol|Enum|IntEnum|StrEnum|Flag|IntFlag|TypedDict|NamedTuple|Exception|BaseException|Warning|Generic)(\[|$)`)
)

// pyLibrarySkills turns a library's public API into skills run by a
// wrapper: a module-level function, or a class constructed from simple
// arguments and then called or read, each becomes a candidate capability;
// variants of one capability (name_file, name_many) are merged; the best
// documented, most visible (in __all__, in the README's examples) ones are
// kept. It returns the skills (their run templates start with prog) and
// the wrapper's spec by skill id.
func pyLibrarySkills(api *pyAPI, prog []string) ([]bundle.Skill, map[string]wrapCall, []string) {
	if api == nil {
		return nil, nil, nil
	}
	readme := map[string]bool{}
	for _, n := range api.ReadmeNames {
		readme[n] = true
	}
	// The README's examples tell the advertised API from its parts: a
	// function two of its module's public functions or methods call, that
	// the examples never name while they name others, is a building block
	// of the API rather than a capability of its own.
	advertised := slices.ContainsFunc(api.Items, func(it pyItem) bool { return it.Readme })
	classes := readClasses(api)
	fns := map[string]*pyFunc{}
	for _, it := range api.Items {
		var f pyFunc
		if it.Kind == "function" && json.Unmarshal(it.Info, &f) == nil {
			fns[it.Name] = &f
		}
	}
	bytesOut := bytesFunctions(fns)
	caps, family := chainCapabilities(api, classes)
	parts := chainParts(api, classes, family)
	var notes []string
	for i, it := range api.Items {
		switch it.Kind {
		case "function":
			var f pyFunc
			if json.Unmarshal(it.Info, &f) != nil {
				continue
			}
			if advertised && !it.Readme && f.Callers >= 2 {
				continue
			}
			if len(family) > 0 && it.Readme {
				// Beside a builder the README chains, the other names its
				// examples use (classes, functions) are the chain's parts,
				// built by its arguments ({"call": NAME}): no skills.
				continue
			}
			if c := functionCapability(it, &f); c != nil {
				applyBytes(c, &f, bytesOut)
				applyData(c, &f, fns)
				c.order, c.aliases = i*100, len(it.Aliases)
				caps = append(caps, c)
			}
		case "class":
			var cl pyClass
			if json.Unmarshal(it.Info, &cl) != nil || classes.skipClass(it, &cl) != "" || family[cl.Name] {
				continue
			}
			if len(family) > 0 && it.Readme {
				continue // a part of the chain, below
			}
			if why := parts.partOf(classes, &cl); why != "" {
				notes = append(notes, fmt.Sprintf("%s.%s (%s): left out: %s", it.Public, it.Name, it.Module, why))
				continue
			}
			for j, c := range classCapabilities(it, classes.withInherited(&cl), readme) {
				c.order, c.aliases = i*100+j, len(it.Aliases)
				caps = append(caps, c)
			}
		}
	}
	mergeSameContract(caps)
	encodingVariants(caps)
	all := caps
	caps = mergeVariants(caps)
	for _, c := range all {
		if !slices.Contains(caps, c) {
			notes = append(notes, fmt.Sprintf("%s.%s (%s): left out: a variant of the same capability as %s", c.call.Module, strings.TrimSuffix(c.call.Target+"."+c.call.Member, "."), c.id, keptOfStem(caps, c.stem)))
		}
	}
	sort.SliceStable(caps, func(i, j int) bool {
		if caps[i].score != caps[j].score {
			return caps[i].score > caps[j].score
		}
		return caps[i].order < caps[j].order
	})
	if len(caps) > maxLibrarySkills {
		caps = caps[:maxLibrarySkills]
	}
	sort.SliceStable(caps, func(i, j int) bool { return caps[i].order < caps[j].order })
	var skills []bundle.Skill
	spec := map[string]wrapCall{}
	for _, c := range caps {
		sk := bundle.Skill{ID: c.id, Name: c.name, Description: c.desc}
		sk.Params = map[string]any{"type": "object", "properties": c.props}
		if len(c.required) > 0 {
			sk.Params["required"] = c.required
		}
		run := append(append([]string{}, prog...), c.id)
		for _, p := range append(append([]wrapParam{}, c.call.CtorParams...), c.call.Params...) {
			run = append(run, "--"+p.Name+"={{"+p.Name+"}}")
		}
		if rf := c.call.ResultFile; rf != "" {
			run = append(run, "--"+rf+"={{"+rf+"}}")
		}
		sk.Run = bundle.Command(run)
		skills = append(skills, sk)
	}
	dedupeIDs(skills)
	for i, c := range caps {
		spec[skills[i].ID] = c.call
	}
	return skills, spec, notes
}

func functionCapability(it pyItem, f *pyFunc) *capability {
	if strings.HasPrefix(f.Name, "_") || helperNameRE.MatchString(f.Name) || isDecorated(f, "overload", "contextmanager", "asynccontextmanager", "fixture") {
		return nil
	}
	if f.ReturnsNone && !f.Writes {
		return nil
	}
	c := &capability{stem: stemOf(f.Name), call: wrapCall{Module: it.Public, Target: it.Name, Async: f.Async}}
	used := map[string]bool{}
	ps, props, req, ok := pyParams(f.Params, &f.Parsed, used)
	if !ok || len(ps) == 0 {
		return nil
	}
	c.call.Params, c.props, c.required = ps, props, req
	c.id = skillID(strings.ReplaceAll(it.Name, "_", "-"))
	c.name = words(it.Name)
	c.desc = docSentence(f.Parsed.Summary, f.Doc)
	if c.desc == "" {
		c.desc = sentence(fmt.Sprintf("%s of the given %s", words(it.Name), joinWords(paramNames(ps))))
	}
	c.score = visibility(it) + docScore(f.Doc) + len(req)
	return c
}

// classCapabilities makes the capabilities of a class: construct it from
// simple arguments (its __init__, or a classmethod that builds one from a
// string or a file), then call each public method that returns something,
// or report its properties.
func classCapabilities(it pyItem, cl *pyClass, readme map[string]bool) []*capability {
	if strings.HasPrefix(cl.Name, "_") || exceptionRE.MatchString(cl.Name) {
		return nil
	}
	for _, b := range cl.Bases {
		if abstractRE.MatchString(b) || exceptionRE.MatchString(b) {
			return nil
		}
	}
	// How to construct it.
	var ctor string
	var ctorParams []wrapParam
	var ctorProps map[string]any
	var ctorReq []any
	used := map[string]bool{}
	ctorUsed := map[string]bool{}
	if cl.Init != nil {
		doc := cl.Init.Parsed
		if len(doc.Params) == 0 {
			doc = cl.Parsed
		}
		if ps, props, req, ok := pyParams(cl.Init.Params, &doc, ctorUsed); ok {
			ctor, ctorParams, ctorProps, ctorReq = "__init__", ps, props, req
		}
	} else {
		ctor, ctorProps = "__init__", map[string]any{}
	}
	if ctor == "" || len(ctorReq) == 0 || !scalarProps(ctorProps) || untyped(ctorParams, ctorReq) || readmeCtor(cl, readme) {
		// A classmethod that builds one from simple arguments ("from_file",
		// "parse", "load") is the constructor to use when __init__ needs
		// more than simple values (or lists and mappings a caller would
		// rather write as text).
		for _, m := range cl.Classmethods {
			if strings.HasPrefix(m.Name, "_") {
				continue
			}
			u := map[string]bool{}
			ps, props, req, ok := pyParams(m.Params, &m.Parsed, u)
			if !ok || len(req) == 0 || !scalarProps(props) || m.ReturnsNone {
				continue
			}
			if ctor == "" || readme[m.Name] || builderNameRE.MatchString(m.Name) {
				ctor, ctorParams, ctorProps, ctorReq, ctorUsed = m.Name, ps, props, req, u
				break
			}
		}
	}
	fill := ""
	if ctor == "" || ctor == "__init__" && len(ctorReq) == 0 {
		if m, ps, props, req, u := loaderMethod(cl); m != nil {
			ctor, fill, ctorParams, ctorProps, ctorReq, ctorUsed = "__init__", m.Name, ps, props, req, u
		}
	}
	if ctor == "" {
		return nil
	}
	for k := range ctorUsed {
		used[k] = true
	}
	classDoc := docSentence(cl.Parsed.Summary, cl.Doc)
	base := wrapCall{Module: it.Public, Target: it.Name, Ctor: ctor, Fill: fill, CtorParams: ctorParams}
	vis := visibility(it)
	var out []*capability
	var undocumentedProps []string
	// The methods of an iterable reader of a stream read it a piece at a
	// time (the next item, some bytes, a header): what it offers is every
	// item, below.
	reader := cl.Iterable && slices.ContainsFunc(ctorParams, func(p wrapParam) bool { return p.Conv == "stream" })
	for _, m := range cl.Methods {
		if reader {
			break
		}
		if m.Name == fill || strings.HasPrefix(m.Name, "_") && m.Name != "__call__" || helperNameRE.MatchString(m.Name) || containerNameRE.MatchString(m.Name) || m.ReturnsNone && !m.Writes ||
			isDecorated(&m, "staticmethod", "overload", "abstractmethod", "abc.abstractmethod") {
			continue
		}
		u := clone(used)
		ps, props, req, ok := pyParams(m.Params, &m.Parsed, u)
		if !ok {
			continue
		}
		if len(ctorReq) == 0 && len(req) == 0 && !slices.ContainsFunc(ctorParams, func(p wrapParam) bool { return p.Star }) {
			// Nothing the caller must give, to build it or to call it: what
			// it returns is the object's own state (a buffer, a counter).
			continue
		}
		c := &capability{stem: words(cl.Name) + " " + stemOf(m.Name), call: base}
		c.call.Member, c.call.MemberKind, c.call.Params, c.call.Async = m.Name, "call", ps, m.Async
		c.props, c.required = mergeProps(ctorProps, props), append(append([]any{}, ctorReq...), req...)
		name := m.Name
		if name == "__call__" {
			name = "call"
		}
		c.id = skillID(kebab(cl.Name), strings.ReplaceAll(name, "_", "-"))
		c.name = words(cl.Name) + " " + words(name)
		c.desc = docSentence(m.Parsed.Summary, m.Doc)
		if c.desc == "" || len(strings.Fields(c.desc)) < 5 {
			c.desc = strings.TrimSpace(c.desc + " " + withSubject(classDoc, cl.Name, name))
		}
		c.score = vis + docScore(m.Doc) + len(ctorReq) + len(req)
		applyBytes(c, &m, nil)
		if readme[m.Name] {
			c.score += 2
		}
		out = append(out, c)
	}
	methodVariants(out)
	// Documented properties each say what they compute; the undocumented
	// ones are reported together. A property named after a constructor
	// parameter gives back what the caller passed in: no capability.
	given := map[string]bool{}
	for _, p := range ctorParams {
		given[p.Py] = true
	}
	echoes := 0
	for _, p := range cl.Properties {
		if given[p.Name] {
			echoes++
		}
		if strings.HasPrefix(p.Name, "_") || given[p.Name] {
			continue
		}
		if p.Parsed.Summary == "" || len(ctorReq) == 0 {
			undocumentedProps = append(undocumentedProps, p.Name)
			continue
		}
		c := &capability{stem: words(cl.Name) + " " + stemOf(p.Name), call: base}
		c.call.Member, c.call.MemberKind = p.Name, "attr"
		c.props, c.required = mergeProps(ctorProps, nil), append([]any{}, ctorReq...)
		c.id = skillID(kebab(cl.Name), strings.ReplaceAll(p.Name, "_", "-"))
		c.name = words(cl.Name) + " " + words(p.Name)
		c.desc = docSentence(p.Parsed.Summary, p.Doc)
		if len(strings.Fields(c.desc)) < 5 {
			c.desc = strings.TrimSpace(c.desc + " " + withSubject(classDoc, cl.Name, p.Name))
		}
		c.score = vis + docScore(p.Doc) + len(ctorReq)
		out = append(out, c)
	}
	// A class built from simple values whose worth is in what it holds
	// (a record, a parsed document) is one capability: build and report it
	// (its undocumented properties with it) — unless all it reports is what
	// it was given. So is a value object whose results are properties
	// nobody documented one by one (a distance's kilometres and miles), even
	// beside its methods. A constructor that takes only *args is built from
	// them: they are the inputs.
	if c := streamItems(cl, base, ctorParams, ctorProps, classDoc, vis); c != nil {
		return append(out, c)
	}
	describeReq := ctorReq
	if len(describeReq) == 0 {
		for _, p := range ctorParams {
			if p.Star {
				describeReq = []any{p.Name}
			}
		}
	}
	// A class parsed from text by a classmethod (Point.from_string) is
	// worth its parsed value too, beside its methods.
	parsed := ctor != "__init__" && builderNameRE.MatchString(ctor)
	if len(describeReq) > 0 && (len(out) == 0 || len(undocumentedProps) > 0 || parsed) && (echoes == 0 || len(undocumentedProps) > 0) {
		c := &capability{stem: words(cl.Name), call: base}
		c.call.MemberKind = "describe"
		c.props, c.required = mergeProps(ctorProps, nil), append([]any{}, describeReq...)
		c.id = skillID(kebab(cl.Name))
		c.name = words(cl.Name)
		c.desc = classDoc
		if c.desc == "" {
			c.desc = sentence(fmt.Sprintf("Build a %s from %s and report it", cl.Name, joinWords(paramNames(ctorParams))))
		}
		if len(undocumentedProps) > 0 {
			c.desc = strings.TrimSuffix(c.desc, ".") + ": reports " + joinWords(wordsAll(undocumentedProps)) + "."
		}
		c.score = vis + docScore(cl.Doc) + len(describeReq)
		out = append(out, c)
	}
	return out
}

// methodVariants gives a class's method named after another of its
// methods plus a suffix (format_decimal, format_unicode of format) that
// other method's stem: variants of one capability, of which mergeVariants
// keeps one.
func methodVariants(caps []*capability) {
	stems := map[string]string{}
	for _, c := range caps {
		if c.call.MemberKind == "call" {
			stems[c.call.Member] = c.stem
		}
	}
	for _, c := range caps {
		if c.call.MemberKind != "call" {
			continue
		}
		for m := c.call.Member; ; {
			i := strings.LastIndex(m, "_")
			if i <= 0 {
				break
			}
			m = m[:i]
			if st, ok := stems[m]; ok {
				c.stem = st
				break
			}
		}
	}
}

// withSubject says what a member does from its class's description: "Molar
// mass (of a chemical formula)".
func withSubject(classDoc, class, member string) string {
	w := words(member)
	if classDoc == "" {
		return sentence(fmt.Sprintf("%s of a %s", w, class))
	}
	return sentence(fmt.Sprintf("%s of %s", w, lowerFirst(strings.TrimSuffix(classDoc, "."))))
}

func lowerFirst(s string) string {
	if len(s) > 1 && s[0] >= 'A' && s[0] <= 'Z' && (s[1] < 'A' || s[1] > 'Z') {
		return strings.ToLower(s[:1]) + s[1:]
	}
	return s
}

func clone(m map[string]bool) map[string]bool {
	out := map[string]bool{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func mergeProps(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

func isDecorated(f *pyFunc, names ...string) bool {
	for _, d := range f.Decorators {
		last := d[strings.LastIndex(d, ".")+1:]
		for _, n := range names {
			if d == n || last == n {
				return true
			}
		}
	}
	return false
}

// visibility scores how public a name is: named in __all__ or the
// package's namespace, used in the README's examples.
func visibility(it pyItem) int {
	s := 0
	switch it.How {
	case "all":
		s += 3
	case "top":
		s += 2
	}
	if it.Readme {
		s += 4
	}
	return s
}

func docScore(doc string) int {
	switch {
	case strings.TrimSpace(doc) == "":
		return 0
	case len(strings.Fields(doc)) > 12:
		return 3
	}
	return 2
}

// stemOf is what the variants of one capability share: "distance" for
// distance_many, distance_file and idistance.
func stemOf(name string) string {
	m := variantAffixR.FindStringSubmatch(strings.ToLower(name))
	if m == nil {
		return name
	}
	return m[1]
}

// encodingVariants gives a module's function named after another of its
// functions plus "b" or "s" (pack and packb, dump and dumps, load and
// loads) that function's stem when one of the two works on a stream and
// the other on bytes or a string in memory: two forms of one capability.
func encodingVariants(caps []*capability) {
	funcs := map[string]*capability{}
	for _, c := range caps {
		if c.call.MemberKind == "" {
			funcs[c.call.Module+"."+c.call.Target] = c
		}
	}
	for _, c := range caps {
		if c.call.MemberKind != "" {
			continue
		}
		t := c.call.Target
		for _, suffix := range []string{"b", "s"} {
			if base, ok := strings.CutSuffix(t, suffix); ok && len(base) > 2 {
				if o := funcs[c.call.Module+"."+base]; o != nil && streams(o) != streams(c) {
					c.stem = o.stem
				}
			}
		}
	}
}

// streams reports whether a capability reads or writes a stream (a file
// object) rather than a value or a path.
func streams(c *capability) bool {
	return slices.ContainsFunc(c.call.Params, func(p wrapParam) bool {
		return p.Conv == "stream" || p.Conv == "outstream" || p.Conv == "textio" || p.Conv == "binaryio"
	})
}

// keptOfStem names the capability kept for a stem.
func keptOfStem(caps []*capability, stem string) string {
	for _, c := range caps {
		if c.stem == stem {
			return c.id
		}
	}
	return stem
}

// better reports whether capability c beats b of the same stem. Of
// alternative implementations of one contract, the one its library binds
// to more public names (distance = GeodesicDistance = geodesic) is its
// default; otherwise the better scored, then the one needing fewer
// arguments.
func better(c, b *capability) bool {
	if strings.HasPrefix(c.stem, contractStem) && c.aliases != b.aliases {
		return c.aliases > b.aliases
	}
	return c.score > b.score || c.score == b.score && len(c.required) < len(b.required)
}

// mergeVariants keeps one capability per stem: the best scored, then the
// one with fewer required parameters.
func mergeVariants(caps []*capability) []*capability {
	best := map[string]*capability{}
	var order []string
	for _, c := range caps {
		b, ok := best[c.stem]
		if !ok {
			best[c.stem] = c
			order = append(order, c.stem)
			continue
		}
		if better(c, b) {
			c.order = min(c.order, b.order)
			best[c.stem] = c
		}
	}
	out := make([]*capability, 0, len(order))
	for _, s := range order {
		out = append(out, best[s])
	}
	return out
}

// pyParams turns a signature into the wrapper's parameters and their JSON
// Schema; ok is false when a required parameter has a type the wrapper
// cannot build from JSON (a callable, an object of the library's own).
// Unsupported optional parameters are left to their defaults. used holds
// the schema names already taken.
func pyParams(params []pyParam, doc *pyDoc, used map[string]bool) ([]wrapParam, map[string]any, []any, bool) {
	var out []wrapParam
	props := map[string]any{}
	var req []any
	for _, p := range params {
		if p.Kind == "varkw" || strings.HasPrefix(p.Name, "_") && p.HasDefault {
			continue
		}
		var dtype, ddesc string
		if doc != nil {
			if d, ok := doc.Params[p.Name]; ok {
				dtype, ddesc = d.Type, d.Desc
			}
		}
		if p.Use == "" && readsAsStream(p.Name, ddesc, doc) {
			p.Use = "read"
		}
		schema, conv, ok := pyParamSchema(p, dtype)
		if !ok {
			if p.HasDefault || p.Kind == "varargs" {
				continue
			}
			return nil, nil, nil, false
		}
		if conv == "outpath" && ambiguousOutRE.MatchString(p.Name) && !fileDocRE.MatchString(ddesc) {
			// "destination" is a file only when the doc says so; a route's
			// destination is a place.
			schema, conv = map[string]any{"type": "string"}, "str"
		}
		if conv == "outpath" {
			// The host confines a file parameter to the task's work
			// directory.
			schema["format"] = bundle.FormatOutput
		}
		if d := sentence(ddesc); d != "" {
			if conv == "outpath" {
				d = strings.TrimSpace(d + " A file name: the file is written in the task's work directory and returned.")
			}
			schema["description"] = d
		} else if conv == "outpath" {
			schema["description"] = "A file name: the file is written in the task's work directory and returned."
		}
		if p.Kind == "varargs" {
			item := schema
			schema = map[string]any{"type": "array", "items": item}
			if conv == "auto" {
				delete(schema, "items") // *args of any values: a JSON array of them
			}
			if item["format"] == "path" {
				schema["format"] = "path"
			}
			conv = "json"
		}
		name := strings.ToLower(p.Name)
		if bundle.IsBuiltin(name) {
			name += "_value"
		}
		for used[name] {
			name += "_arg"
		}
		used[name] = true
		wp := wrapParam{Name: name, Py: p.Name, Conv: conv, Pos: p.Kind == "posonly", Star: p.Kind == "varargs"}
		out = append(out, wp)
		props[name] = schema
		if !p.HasDefault && p.Kind != "varargs" {
			req = append(req, name)
		}
	}
	return out, props, req, true
}

var (
	optionalRE = lazyregexp.New(`^Optional\[(.*)\]$`)
	genericRE  = lazyregexp.New(`^(\w+)\[(.*)\]$`)
)

// pyParamSchema maps a parameter's type hint (or its docstring type, or its
// default's type, or its name) to a JSON Schema and a wrapper conversion.
func pyParamSchema(p pyParam, docType string) (map[string]any, string, bool) {
	ann := normAnnotation(p.Annotation)
	if ann == "" {
		ann = normAnnotation(docType)
		ann = strings.TrimSuffix(strings.TrimSuffix(ann, ", optional"), ",optional")
	}
	s, conv, ok := annotationSchema(ann, p.Name)
	if !ok {
		return nil, "", false
	}
	if ss, sconv, ok := streamSchema(p); ok && conv == "auto" {
		s, conv = ss, sconv
	}
	if conv == "auto" && p.HasDefault && p.Literal {
		switch p.Default.(type) {
		case bool:
			s, conv = map[string]any{"type": "boolean"}, "bool"
		case float64:
			// JSON does not tell 3 from 3.0: a number takes both.
			s, conv = map[string]any{"type": "number"}, "float"
		case string:
			s, conv = map[string]any{"type": "string"}, "str"
		case []any:
			s, conv = map[string]any{"type": "array"}, "json"
		case map[string]any:
			s, conv = map[string]any{"type": "object"}, "json"
		}
	}
	if conv == "auto" || conv == "str" {
		switch {
		case outParamRE.MatchString(p.Name):
			s, conv = map[string]any{"type": "string"}, "outpath"
		case pathParamRE.MatchString(p.Name):
			s, conv = map[string]any{"type": "string", "format": "path"}, "path"
		case conv == "auto":
			s = map[string]any{"type": "string"}
		}
	}
	if p.HasDefault && p.Literal && p.Default != nil {
		if v := schemaValue(p.Default, s["type"].(string)); v != nil && conv != "outpath" {
			s["default"] = v
		}
	}
	return s, conv, true
}

func normAnnotation(a string) string {
	a = strings.TrimSpace(a)
	a = strings.Trim(a, `"'`)
	for _, p := range []string{"typing.", "t.", "typing_extensions.", "builtins.", "pathlib.", "os.", "io.", "collections.abc.", "datetime.", "decimal.", "fractions."} {
		a = strings.ReplaceAll(a, p, "")
	}
	return strings.TrimSpace(a)
}

// annotationSchema maps a normalised type hint.
func annotationSchema(ann, name string) (map[string]any, string, bool) {
	if m := optionalRE.FindStringSubmatch(ann); m != nil {
		return annotationSchema(m[1], name)
	}
	// A union at the top level only: "list[str | None]" is a list, and
	// reading it as a union of itself would never end.
	if strings.HasPrefix(ann, "Union[") || len(splitTop(ann, "|")) > 1 {
		inner := strings.TrimSuffix(strings.TrimPrefix(ann, "Union["), "]")
		if !strings.HasPrefix(ann, "Union[") {
			inner = ann
		}
		var alts []string
		for _, a := range splitTop(inner, "|,") {
			if a = strings.TrimSpace(a); a != "None" && a != "" {
				alts = append(alts, a)
			}
		}
		if len(alts) == 1 {
			return annotationSchema(alts[0], name)
		}
		has := func(xs ...string) bool {
			for _, a := range alts {
				for _, x := range xs {
					if a == x || strings.HasPrefix(a, x+"[") {
						return true
					}
				}
			}
			return false
		}
		switch {
		case has("Path", "PathLike", "PurePath", "StrPath"):
			return map[string]any{"type": "string", "format": "path"}, "path", true
		case has("IO", "TextIO", "TextIOBase", "TextIOWrapper", "StringIO"):
			return map[string]any{"type": "string", "format": "path"}, "textio", true
		case has("str"):
			return annotationSchema("str", name)
		case has("float", "Decimal", "Fraction") && has("int"):
			return map[string]any{"type": "number"}, "float", true
		}
		for _, a := range alts {
			if s, c, ok := annotationSchema(a, name); ok {
				return s, c, true
			}
		}
		return nil, "", false
	}
	if m := genericRE.FindStringSubmatch(ann); m != nil {
		switch m[1] {
		case "Optional":
			return annotationSchema(m[2], name)
		case "list", "List", "Sequence", "Iterable", "Collection", "set", "Set", "frozenset", "FrozenSet", "MutableSequence", "Iterator", "AbstractSet":
			item, conv, ok := annotationSchema(m[2], name)
			if !ok || item["type"] == "array" || item["type"] == "object" || conv == "textio" || conv == "binaryio" || conv == "bytes" {
				return nil, "", false
			}
			s := map[string]any{"type": "array", "items": item}
			if item["format"] == "path" {
				s["format"] = "path"
			}
			return s, "json", true
		case "tuple", "Tuple":
			parts := splitTop(m[2], ",")
			item, _, ok := annotationSchema(strings.TrimSpace(parts[0]), name)
			if !ok || item["type"] == "array" || item["type"] == "object" {
				return nil, "", false
			}
			return map[string]any{"type": "array", "items": item}, "json", true
		case "dict", "Dict", "Mapping", "MutableMapping":
			return map[string]any{"type": "object"}, "json", true
		case "Literal":
			var enum []any
			typ := "string"
			for _, v := range splitTop(m[2], ",") {
				v = strings.TrimSpace(v)
				if strings.HasPrefix(v, "'") || strings.HasPrefix(v, `"`) {
					enum = append(enum, strings.Trim(v, `'"`))
				} else if n, err := json.Number(v).Int64(); err == nil {
					enum, typ = append(enum, n), "integer"
				}
			}
			return map[string]any{"type": typ, "enum": enum}, map[string]string{"string": "str", "integer": "int"}[typ], true
		case "IO":
			if strings.Contains(m[2], "bytes") {
				return map[string]any{"type": "string", "format": "path"}, "binaryio", true
			}
			return map[string]any{"type": "string", "format": "path"}, "textio", true
		case "Annotated":
			return annotationSchema(strings.TrimSpace(splitTop(m[2], ",")[0]), name)
		case "PathLike":
			return map[string]any{"type": "string", "format": "path"}, "path", true
		}
		return nil, "", false
	}
	switch ann {
	case "", "Any", "object":
		return map[string]any{"type": "string"}, "auto", true
	case "str", "AnyStr", "string", "unicode":
		return map[string]any{"type": "string"}, "str", true
	case "int", "integer", "SupportsInt":
		return map[string]any{"type": "integer"}, "int", true
	case "float", "number", "SupportsFloat", "Real", "Number":
		return map[string]any{"type": "number"}, "float", true
	case "Decimal", "Fraction":
		return map[string]any{"type": "number"}, "decimal", true
	case "bool", "boolean":
		return map[string]any{"type": "boolean"}, "bool", true
	case "list", "List", "tuple", "Tuple", "Sequence", "Iterable", "set", "Set":
		return map[string]any{"type": "array"}, "json", true
	case "dict", "Dict", "Mapping":
		return map[string]any{"type": "object"}, "json", true
	case "Path", "PurePath", "PathLike", "StrPath", "StrOrBytesPath", "FilePath":
		return map[string]any{"type": "string", "format": "path"}, "path", true
	case "TextIO", "TextIOBase", "TextIOWrapper", "StringIO", "IO":
		return map[string]any{"type": "string", "format": "path"}, "textio", true
	case "BinaryIO", "BufferedReader", "BytesIO", "RawIOBase", "BufferedIOBase":
		return map[string]any{"type": "string", "format": "path"}, "binaryio", true
	case "bytes", "bytearray", "ByteString", "memoryview":
		return map[string]any{"type": "string", "format": "path"}, "bytes", true
	case "date":
		return map[string]any{"type": "string", "format": "date"}, "date", true
	case "datetime":
		return map[string]any{"type": "string", "format": "date-time"}, "datetime", true
	}
	return nil, "", false
}

// splitTop splits s at any of seps outside brackets.
func splitTop(s, seps string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch {
		case r == '[' || r == '(' || r == '{':
			depth++
		case r == ']' || r == ')' || r == '}':
			depth--
		case depth == 0 && strings.ContainsRune(seps, r):
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// docSentence is a description from a docstring: its summary line, or its
// first sentences.
func docSentence(summary, doc string) string {
	s := strings.TrimSpace(summary)
	if s == "" {
		s = firstSentences(firstParagraph(doc), 2, 300)
	} else if len(s) > 320 {
		s = firstSentences(s, 2, 300)
	}
	if strings.HasPrefix(s, ">>>") {
		return ""
	}
	return sentence(plainRST(s))
}

// rstRoleRE finds a reStructuredText role or literal: :class:`~a.Table`,
// :meth:`load <Table.load>`, “text“, `name`.
var rstRoleRE = lazyregexp.New("(?::[\\w.:+-]+:)?`(`?)(~?)([^`<]+?)\\s*(?:<[^`>]*>)?`?`")

// plainRST writes a docstring's roles and literals as their plain text:
// the name a role refers to (its last part after "~"), a literal's text.
func plainRST(s string) string {
	if !strings.Contains(s, "`") {
		return s
	}
	re := rstRoleRE.Regexp()
	return re.ReplaceAllStringFunc(s, func(m string) string {
		g := re.FindStringSubmatch(m)
		if g[2] == "~" {
			return g[3][strings.LastIndex(g[3], ".")+1:]
		}
		return g[3]
	})
}

var camelRE = lazyregexp.New(`([a-z0-9])([A-Z])`)

// words turns an identifier into words: "molar_mass" → "molar mass",
// "GeoPoint" → "geo point".
func words(id string) string {
	s := camelRE.ReplaceAllString(id, "$1 $2")
	s = strings.ReplaceAll(strings.Trim(s, "_"), "_", " ")
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

func wordsAll(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = words(id)
	}
	return out
}

func kebab(id string) string { return strings.ReplaceAll(words(id), " ", "-") }

func paramNames(ps []wrapParam) []string {
	var out []string
	for _, p := range ps {
		out = append(out, words(p.Py))
	}
	return out
}

// joinWords writes a, b and c.
func joinWords(ws []string) string {
	switch len(ws) {
	case 0:
		return "arguments"
	case 1:
		return ws[0]
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " and " + ws[len(ws)-1]
}

//go:embed pywrap.py
var pywrapRuntime string

// wrapperDir is where generated wrappers go: a directory beside agent.yaml
// in the bundle, named through {{bundle}}, never in the repository.
const wrapperDir = bundleVar + "/wrapper"

// pythonLibraryTool makes the tool of a Python library: its skills run a
// wrapper generated into the bundle (under wrapperDir) by the environment's
// interpreter. It returns nil when the API offers no capability.
func pythonLibraryTool(sc *pyScan, e *PythonEnv, name string) *Tool {
	if sc.API == nil || len(sc.API.Items) == 0 {
		return nil
	}
	wrapper := wrapperDir + "/" + sanitizeProg(name) + "_skills.py"
	skills, spec, notes := pyLibrarySkills(sc.API, []string{e.VenvPython(), wrapper})
	if len(skills) == 0 {
		return nil
	}
	src, err := pythonWrapper(name, spec)
	if err != nil {
		return nil
	}
	return &Tool{
		Name:     sanitizeProg(name),
		Kind:     "python-library",
		Source:   strings.Join(sc.API.Packages, ", "),
		Prog:     []string{e.VenvPython(), wrapper},
		Setup:    [][]string{e.envSetup(sc.Src)},
		Check:    []string{e.VenvPython(), wrapper, "--check"},
		Root:     &Command{},
		Keywords: sc.Keywords,
		Summary:  sc.Description,
		Missing:  e.Missing,
		Skills:   skills,
		LeftOut:  notes,
		Files:    mergeFiles(envFiles(), map[string][]byte{wrapper: src}),
	}
}

// pythonWrapper writes the wrapper script: the spec of each skill's call
// and the runtime that performs it.
func pythonWrapper(name string, spec map[string]wrapCall) ([]byte, error) {
	data, err := json.MarshalIndent(spec, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("python wrapper: %w", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "#!/usr/bin/env python3\n")
	fmt.Fprintf(&b, "\"\"\"Skills of the Python library %s, generated by agentnet's static generator.\n\n", name)
	fmt.Fprintf(&b, "Run: python %s_skills.py SKILL --param=value ...   (or --check to import\nevery module and name it uses).\"\"\"\n\n", sanitizeProg(name))
	fmt.Fprintf(&b, "import json\n\nSPEC = json.loads(r\"\"\"\n%s\n\"\"\")\n", data)
	b.WriteString(pywrapRuntime)
	return []byte(b.String()), nil
}

// scalarProps reports whether every parameter is a string, number, boolean
// or file: what a caller writes as text.
func scalarProps(props map[string]any) bool {
	for _, v := range props {
		if m, ok := v.(map[string]any); ok && (m["type"] == "array" || m["type"] == "object") {
			return false
		}
	}
	return true
}

func mergeFiles(a, b map[string][]byte) map[string][]byte {
	for k, v := range b {
		a[k] = v
	}
	return a
}

// untyped reports whether a required parameter has no type the analysis
// could find (no hint, no default, no docstring type, no telling name).
func untyped(ps []wrapParam, req []any) bool {
	for _, p := range ps {
		for _, r := range req {
			if r == p.Name && p.Conv == "auto" {
				return true
			}
		}
	}
	return false
}

// readmeCtor reports whether the README's examples build the class with
// one of its public classmethods (Track.from_file(...)).
func readmeCtor(cl *pyClass, readme map[string]bool) bool {
	for _, m := range cl.Classmethods {
		if !strings.HasPrefix(m.Name, "_") && readme[m.Name] {
			return true
		}
	}
	return false
}
