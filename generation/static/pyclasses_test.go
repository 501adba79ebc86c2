package static

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestValueObjectSkills checks the library classes whose results are
// properties: a class built from *args inherits undocumented properties
// from the library's own base and becomes one skill that builds it from
// the inputs and reports them; the base itself, a record the library
// returns, and the same method of several interchangeable classes do not
// each become skills.
func TestValueObjectSkills(t *testing.T) {
	t.Parallel()
	prop := func(name string) map[string]any { return map[string]any{"name": name} }
	star := []map[string]any{{"name": "args", "kind": "varargs"}, {"name": "kwargs", "kind": "varkw"}}
	str := func(names ...string) []map[string]any {
		var ps []map[string]any
		for _, n := range names {
			ps = append(ps, map[string]any{"name": n, "kind": "pos", "annotation": "str"})
		}
		return ps
	}
	method := func(name, summary string, params []map[string]any) map[string]any {
		return map[string]any{"name": name, "doc": summary + "\n\n:rtype: :class:`lib.place.Place`", "parsed": map[string]any{"summary": summary}, "params": params}
	}
	class := func(public, name string, readme bool, info map[string]any) pyItem {
		info["name"] = name
		raw, err := json.Marshal(info)
		if err != nil {
			t.Fatal(err)
		}
		return pyItem{Public: public, Module: public, Name: name, Kind: "class", How: "module", Readme: readme, Info: raw}
	}
	api := &pyAPI{Items: []pyItem{
		class("lib.length", "Length", false, map[string]any{"doc": "Base of the lengths.",
			"init":       map[string]any{"name": "__init__", "params": star},
			"properties": []any{prop("km"), prop("miles"), prop("nautical")}}),
		class("lib.length", "spherical", true, map[string]any{"doc": "Length of the arc between points on a sphere.",
			"parsed": map[string]any{"summary": "Length of the arc between points on a sphere."},
			"bases":  []string{"Length"}, "init": map[string]any{"name": "__init__", "params": star}}),
		class("lib.place", "Place", false, map[string]any{"doc": "A place a lookup found.",
			"init": map[string]any{"name": "__init__", "params": str("address", "point")},
			"properties": []any{prop("address"), prop("point"),
				map[string]any{"name": "latitude", "doc": "The place's latitude.", "parsed": map[string]any{"summary": "The place's latitude."}}}}),
		class("lib.lookup", "NorthLookup", false, map[string]any{"doc": "Lookups in the north.",
			"init":    map[string]any{"name": "__init__", "params": str("key")},
			"methods": []any{method("find", "Return a place by address.", str("query"))}}),
		class("lib.lookup", "SouthLookup", false, map[string]any{"doc": "Lookups in the south.",
			"init":    map[string]any{"name": "__init__", "params": str("key")},
			"methods": []any{method("find", "Return a place by address.", str("query"))}}),
	}}
	skills, spec, _ := pyLibrarySkills(api, []string{"python3", "wrap.py"})
	var ids []string
	for _, sk := range skills {
		ids = append(ids, sk.ID)
	}
	if want := []string{"spherical", "north-lookup-find"}; !slices.Equal(ids, want) {
		t.Fatalf("pyLibrarySkills() = %v, want %v", ids, want)
	}
	want := wrapCall{Module: "lib.length", Target: "spherical", Ctor: "__init__", MemberKind: "describe",
		CtorParams: []wrapParam{{Name: "args", Py: "args", Conv: "json", Star: true}}}
	if diff := cmp.Diff(want, spec["spherical"]); diff != "" {
		t.Errorf("spec[spherical] (-want +got):\n%s", diff)
	}
	sk := skills[0]
	if diff := cmp.Diff([]any{"args"}, sk.Params["required"]); diff != "" {
		t.Errorf("spherical required (-want +got):\n%s", diff)
	}
	if d := sk.Description; d != "Length of the arc between points on a sphere: reports km, miles and nautical." {
		t.Errorf("spherical description = %q", d)
	}
}
