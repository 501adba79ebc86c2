package static

import (
	"fmt"
	"slices"
	"strings"
)

// Builder (fluent) APIs: a result that needs a chain of calls
// (Query.from_(t).select(a).where(b)) is one skill, not each call
// flattened into a skill of its own. The README's examples show the
// chains; the skill takes the calls in order as data, and the wrapper
// starts from the class (or one of its subclasses in the API) and makes
// them, one on the result of the other. An argument is a JSON value, or
// {"call": NAME, "args": [...]} to call a public name of the class's
// module, {"ref": NAME} to take one (either followed by "then": calls on
// it), {"op": OP, "args": [a, b]} to apply an operator. No other code
// runs: names and methods are the library's own and public.

// pyChain is one chain of calls the README makes on a name.
type pyChain struct {
	Root    string   `json:"root"`
	Methods []string `json:"methods"`
}

// chainOps are the operators a chain's argument may apply.
var chainOps = []string{"==", "!=", "<", "<=", ">", ">=", "&", "|", "~", "+", "-", "*", "/", "neg"}

// chainRoots returns the classes of the API the README's chains start
// from, each with the methods those chains call in the order first seen.
func chainRoots(api *pyAPI, classes *libraryClasses) ([]string, map[string][]string) {
	var roots []string
	methods := map[string][]string{}
	for _, ch := range api.ReadmeChains {
		if _, ok := classes.byName[ch.Root]; !ok || strings.HasPrefix(ch.Root, "_") {
			continue
		}
		if _, seen := methods[ch.Root]; !seen {
			roots = append(roots, ch.Root)
			methods[ch.Root] = nil
		}
		for _, m := range ch.Methods {
			if !strings.HasPrefix(m, "_") && !slices.Contains(methods[ch.Root], m) {
				methods[ch.Root] = append(methods[ch.Root], m)
			}
		}
	}
	// A root the others derive from speaks for them: they are its
	// variants (one per dialect, say), picked by the skill's start.
	var out []string
	for _, r := range roots {
		if !slices.ContainsFunc(classes.byName[r].Bases, func(b string) bool { return methods[lastDotted(b)] != nil }) {
			out = append(out, r)
		}
	}
	return out, methods
}

// chainCapabilities makes one capability per chain root: the calls as
// data, the start among the root and its subclasses. family holds every
// class a chain capability stands for, whose own members are no skills.
func chainCapabilities(api *pyAPI, classes *libraryClasses) (caps []*capability, family map[string]bool) {
	roots, methods := chainRoots(api, classes)
	family = map[string]bool{}
	for _, root := range roots {
		var item pyItem
		for _, it := range api.Items {
			if it.Kind == "class" && it.Name == root {
				item = it
				break
			}
		}
		starts := []any{root}
		family[root] = true
		for _, it := range api.Items {
			cl := classes.byName[it.Name]
			if it.Kind == "class" && cl != nil && it.Name != root && slices.ContainsFunc(cl.Bases, func(b string) bool { return lastDotted(b) == root }) {
				starts = append(starts, it.Name)
				family[it.Name] = true
			}
		}
		ms := methods[root]
		example := root + "." + strings.Join(ms[:min(len(ms), 4)], "(...).") + "(...)"
		desc := docSentence(classes.byName[root].Parsed.Summary, classes.byName[root].Doc)
		desc = strings.TrimSpace(desc + " " + fmt.Sprintf("Builds the result with a chain of calls, as in %s, and returns its text.", example))
		callsDesc := fmt.Sprintf(`The calls in order, each {"method": NAME, "args": [...], "kwargs": {...}}; methods: %s. `+
			`An argument is a JSON value, {"call": NAME, "args": [...]} for a name of the library, {"ref": NAME} for one (either with "then": [calls] to make on it), or {"op": OP, "args": [a, b]} with OP one of %s.`,
			strings.Join(ms, ", "), strings.Join(chainOps, " "))
		props := map[string]any{
			"calls": map[string]any{"type": "array", "description": callsDesc, "items": map[string]any{
				"type": "object", "required": []any{"method"}, "properties": map[string]any{
					"method": map[string]any{"type": "string"}, "args": map[string]any{"type": "array"}, "kwargs": map[string]any{"type": "object"}}}},
		}
		params := []wrapParam{{Name: "calls", Py: "calls", Conv: "json"}}
		if len(starts) > 1 {
			props["start"] = map[string]any{"type": "string", "enum": starts, "default": root, "description": "The class the chain starts from."}
			params = append(params, wrapParam{Name: "start", Py: "start", Conv: "str"})
		}
		caps = append(caps, &capability{
			id: skillID(kebab(root), "chain"), name: words(root) + " chain", desc: desc, stem: "chain " + root,
			call:  wrapCall{Module: item.Public, Target: root, MemberKind: "chain", Params: params},
			props: props, required: []any{"calls"},
			score: visibility(item) + docScore(classes.byName[root].Doc) + 4,
		})
	}
	return caps, family
}

// chainLineage tells the classes that are parts of a library's chains:
// those the README's parts of a chain (the names its examples pass to the
// builder, outside the builder's own family) are or derive from, and the
// chain's calls, whose class is the builder a chain goes through.
type chainLineage struct {
	parts map[string]string // class → the README's part it is the lineage of
	calls map[string]bool   // the methods the README's chains call
}

// chainParts reads the lineage of the README's chain parts; empty when
// the library has no chain builder.
func chainParts(api *pyAPI, classes *libraryClasses, family map[string]bool) chainLineage {
	out := chainLineage{parts: map[string]string{}, calls: map[string]bool{}}
	if len(family) == 0 {
		return out
	}
	_, methods := chainRoots(api, classes)
	for _, ms := range methods {
		for _, m := range ms {
			out.calls[m] = true
		}
	}
	for _, it := range api.Items {
		if it.Kind != "class" || !it.Readme || family[it.Name] {
			continue
		}
		for _, a := range classes.lineage(it.Name) {
			if _, ok := out.parts[a]; !ok && !family[a] {
				out.parts[a] = it.Name
			}
		}
	}
	return out
}

// partOf says why a class is a part of a chain, or "": a class derived
// from what the chain's arguments derive from (an expression's node
// beside the README's column) is one of those arguments, reached through
// the chain skill's {"call": NAME}; a class with two or more of the
// chain's calls among its methods is the builder the chain goes through.
func (l chainLineage) partOf(classes *libraryClasses, cl *pyClass) string {
	for _, a := range classes.lineage(cl.Name) {
		if part, ok := l.parts[a]; ok {
			return "a part the chain builder takes as an argument, as the README's " + part + " is"
		}
	}
	n := 0
	for _, m := range cl.Methods {
		if l.calls[m.Name] {
			n++
		}
	}
	if n >= 2 {
		return "the builder the README's chains go through: its methods are the chain skill's calls"
	}
	return ""
}

// lineage lists a class and the library's own classes it derives from,
// nearest first.
func (lc *libraryClasses) lineage(name string) []string {
	var out []string
	seen := map[string]bool{}
	queue := []string{name}
	for len(queue) > 0 && len(out) < 64 {
		n := queue[0]
		queue = queue[1:]
		cl := lc.byName[n]
		if seen[n] || cl == nil {
			continue
		}
		seen[n] = true
		out = append(out, n)
		for _, b := range cl.Bases {
			queue = append(queue, lastDotted(b))
		}
	}
	return out
}
