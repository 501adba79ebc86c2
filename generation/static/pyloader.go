package static

import (
	"slices"
	"strings"
)

// Loader classes: an object made empty and then filled from an input by a
// method that returns the object itself (Table().load(text)), whose other
// methods report on what was loaded (export, count). Each of those methods
// is a skill that builds the object, fills it from the skill's inputs and
// makes its call; the loader is no skill of its own (all it returns is the
// object), and its options are left to their defaults. A method that returns self is a loader only when it is the
// class's one such method with required arguments: a builder's steps
// (where, select, order) are several.

// loaderMethod returns the method that fills an object of cl from its
// inputs, with its parameters as pyParams makes them; nil when cl has
// none, or when building cl itself needs arguments.
func loaderMethod(cl *pyClass) (m *pyFunc, ps []wrapParam, props map[string]any, req []any, used map[string]bool) {
	if cl.Init != nil && slices.ContainsFunc(cl.Init.Params, func(p pyParam) bool { return !p.HasDefault && p.Kind != "varargs" && p.Kind != "varkw" }) {
		return nil, nil, nil, nil, nil
	}
	type cand struct {
		f     *pyFunc
		ps    []wrapParam
		props map[string]any
		req   []any
		used  map[string]bool
	}
	var cands []cand
	for i := range cl.Methods {
		f := &cl.Methods[i]
		if strings.HasPrefix(f.Name, "_") || !f.ReturnsSelf {
			continue
		}
		u := map[string]bool{}
		if fps, fprops, freq, ok := pyParams(f.Params, &f.Parsed, u); ok && len(freq) > 0 {
			cands = append(cands, cand{f, fps, fprops, freq, u})
		}
	}
	// Several are the steps of a builder, not one loader.
	if len(cands) != 1 || !scalarProps(cands[0].props) {
		return nil, nil, nil, nil, nil
	}
	// Its options are left to their defaults: the skill's own parameters
	// are the method's, whose names they would take (a format to read
	// beside the format to write).
	c := cands[0]
	props = map[string]any{}
	used = map[string]bool{}
	for _, p := range c.ps {
		if slices.Contains(c.req, any(p.Name)) {
			ps, props[p.Name], used[p.Name] = append(ps, p), c.props[p.Name], true
		}
	}
	return c.f, ps, props, c.req, used
}
