package static

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"github.com/agentnet/agentnet/internal/lazyregexp"
)

// libraryClasses is what the capabilities of one class need to know of the
// library's other classes: each class by name (its members with those it
// inherits from the library's own bases), the classes other classes
// derive from, and the classes the library hands out as results.
type libraryClasses struct {
	byName   map[string]*pyClass
	based    map[string]bool // a base of another class of the API
	returned map[string]bool // named as the result of a function or method
}

// returnsDocRE finds the part of a docstring that says what it returns:
// ":rtype: ...", ":returns: ...", a "Returns:" or "Returns\n-------"
// section, up to the next field or blank line.
var returnsDocRE = lazyregexp.New(`(?s)(?::rtype:|:returns?:|\bReturns?:?\s*\n\s*-{3,}|\bReturns?:)(.*?)(?:\n\s*\n|\n\s*:\w|$)`)

// readClasses decodes the classes of an API.
func readClasses(api *pyAPI) *libraryClasses {
	lc := &libraryClasses{byName: map[string]*pyClass{}, based: map[string]bool{}, returned: map[string]bool{}}
	var docs []string
	var returns []string
	addFunc := func(f *pyFunc) {
		docs = append(docs, f.Doc)
		returns = append(returns, f.Returns)
	}
	for _, it := range api.Items {
		switch it.Kind {
		case "class":
			var cl pyClass
			if json.Unmarshal(it.Info, &cl) != nil {
				continue
			}
			if _, dup := lc.byName[cl.Name]; !dup {
				lc.byName[cl.Name] = &cl
			}
			for _, b := range cl.Bases {
				lc.based[lastDotted(b)] = true
			}
			for i := range cl.Methods {
				addFunc(&cl.Methods[i])
			}
			for i := range cl.Classmethods {
				addFunc(&cl.Classmethods[i])
			}
		case "function":
			var f pyFunc
			if json.Unmarshal(it.Info, &f) == nil {
				addFunc(&f)
			}
		}
	}
	for name := range lc.byName {
		nameRE := regexp.MustCompile(`(^|[^\w.])(?:\w+\.)*` + regexp.QuoteMeta(name) + `\b`)
		for i, doc := range docs {
			if nameRE.MatchString(returns[i]) {
				lc.returned[name] = true
				break
			}
			if m := returnsDocRE.FindStringSubmatch(doc); m != nil && nameRE.MatchString(m[1]) {
				lc.returned[name] = true
				break
			}
		}
	}
	return lc
}

func lastDotted(s string) string {
	s, _, _ = strings.Cut(s, "[")
	return s[strings.LastIndex(s, ".")+1:]
}

// withInherited returns cl with the members it inherits from the library's
// own classes: the properties, methods and classmethods (and __init__) of
// its bases that it does not define itself, nearest base first. A member
// it overrides without a docstring is described by the member it
// overrides, as Python's inspect.getdoc does: an implementation of the
// base's contract says no more than the base does.
func (lc *libraryClasses) withInherited(cl *pyClass) *pyClass {
	out := *cl
	has := map[string]bool{}
	for _, group := range [][]pyFunc{cl.Properties, cl.Methods, cl.Classmethods} {
		for _, f := range group {
			has[f.Name] = true
		}
	}
	seen := map[string]bool{cl.Name: true}
	queue := append([]string{}, cl.Bases...)
	for len(queue) > 0 && len(seen) < 16 {
		b := lastDotted(queue[0])
		queue = queue[1:]
		base, ok := lc.byName[b]
		if !ok || seen[b] {
			continue
		}
		seen[b] = true
		inherit := func(dst *[]pyFunc, src []pyFunc) {
			for _, f := range src {
				if !has[f.Name] {
					has[f.Name] = true
					*dst = append(*dst, f)
				}
			}
		}
		out.Properties = append([]pyFunc{}, out.Properties...)
		out.Methods = append([]pyFunc{}, out.Methods...)
		out.Classmethods = append([]pyFunc{}, out.Classmethods...)
		inherit(&out.Properties, base.Properties)
		inherit(&out.Methods, base.Methods)
		inherit(&out.Classmethods, base.Classmethods)
		if out.Init == nil {
			out.Init = base.Init
		}
		queue = append(queue, base.Bases...)
	}
	lc.inheritDocs(&out)
	return &out
}

// inheritDocs gives each member of cl without a docstring the summary of
// the nearest base's member of the same name.
func (lc *libraryClasses) inheritDocs(cl *pyClass) {
	docs := map[string]*pyFunc{}
	seen := map[string]bool{cl.Name: true}
	queue := append([]string{}, cl.Bases...)
	for len(queue) > 0 && len(seen) < 16 {
		b := lastDotted(queue[0])
		queue = queue[1:]
		base, ok := lc.byName[b]
		if !ok || seen[b] {
			continue
		}
		seen[b] = true
		for _, group := range [][]pyFunc{base.Properties, base.Methods, base.Classmethods} {
			for i := range group {
				if f := &group[i]; docs[f.Name] == nil && strings.TrimSpace(f.Doc) != "" {
					docs[f.Name] = f
				}
			}
		}
		queue = append(queue, base.Bases...)
	}
	// Only the summary: the parameters' types and the docstring's weight
	// in the ranking stay the override's own.
	for _, group := range []*[]pyFunc{&cl.Properties, &cl.Methods, &cl.Classmethods} {
		fs := append([]pyFunc{}, *group...)
		for i := range fs {
			if d := docs[fs[i].Name]; d != nil && strings.TrimSpace(fs[i].Doc) == "" && fs[i].Parsed.Summary == "" {
				fs[i].Parsed.Summary = docSentence(d.Parsed.Summary, d.Doc)
			}
		}
		*group = fs
	}
}

// skipClass says why a class of the API offers no capability of its own,
// or "": a base the library's other classes derive from (its subclasses
// are the capabilities), or a class the library returns as a result (a
// record the user receives, never builds) — unless the README's examples
// name it, or it has a public classmethod that builds one from values
// (Point.from_string): a library gives such constructors to what its
// users build themselves.
func (lc *libraryClasses) skipClass(it pyItem, cl *pyClass) string {
	switch {
	case it.Readme:
		return ""
	case lc.based[cl.Name]:
		return "a base class of others"
	case lc.returned[cl.Name] && !slices.ContainsFunc(cl.Classmethods, builtFromValues):
		return "a result the library returns"
	}
	return ""
}

// builderNameRE names the classmethods that build an instance from
// values: from_string, parse, load.
var builderNameRE = lazyregexp.New(`^(from_\w*|load|parse|open|read)$`)

// builtFromValues reports whether a classmethod builds an instance of its
// class from required values: named as a builder, returning something.
func builtFromValues(m pyFunc) bool {
	return builderNameRE.MatchString(m.Name) && !m.ReturnsNone && slices.ContainsFunc(m.Params, func(p pyParam) bool {
		return !p.HasDefault && (p.Kind == "pos" || p.Kind == "posonly" || p.Kind == "kwonly")
	})
}

// contractStem starts the stems mergeSameContract gives.
const contractStem = "contract: "

// mergeSameContract gives one stem to the methods of different classes
// that share a name and a description: alternative implementations of one
// contract (one service's geocoder, another's), of which mergeVariants
// then keeps the best.
func mergeSameContract(caps []*capability) {
	key := func(c *capability) string {
		if c.call.MemberKind != "call" || c.desc == "" {
			return ""
		}
		return contractStem + c.call.Member + " " + c.desc
	}
	targets := map[string]map[string]bool{}
	for _, c := range caps {
		if k := key(c); k != "" {
			if targets[k] == nil {
				targets[k] = map[string]bool{}
			}
			targets[k][c.call.Module+"."+c.call.Target] = true
		}
	}
	for _, c := range caps {
		if k := key(c); k != "" && len(targets[k]) > 1 {
			c.stem = k
		}
	}
}
