package static

import (
	"fmt"
	"slices"
	"strings"
)

// undoVerbs open the name of a subcommand that takes back what a sibling
// named with another verb and the same object did ("drop-table" beside
// "create-table", "disable-cache" beside "enable-cache"): the inverse of
// that sibling's capability, not one of its own. Verbs that remove part
// of the caller's data ("delete-rows", "remove-header") are no undo: they
// transform what the caller hands over.
var undoVerbs = []string{"disable", "drop", "deactivate", "unregister", "uninstall", "unset", "unpin", "unsubscribe", "detach"}

// redoVerbs open the name of a subcommand that refreshes what a sibling
// with the same object set up ("rebuild-index" beside "create-index",
// "reset-counts" beside "enable-counts"): upkeep of that sibling's
// product, not a capability of its own.
var redoVerbs = []string{"rebuild", "repopulate", "refresh", "reset", "reindex", "regenerate"}

// maintenanceNames are subcommands that keep the tool's own store in
// order (its schema version, its free space, its caches): no work a
// caller hands over.
var maintenanceNames = []string{"vacuum", "migrate", "reindex", "gc", "doctor"}

// siblingLeaves leaves out the subcommands that are another sibling's
// capability under a second name: the inverse of a sibling (undoVerbs),
// its upkeep (redoVerbs), the plural of a sibling ("add-key" and
// "add-keys", the one done for many); and the tool's maintenance of its
// own store (maintenanceNames). The second result says which were left out and why.
func siblingLeaves(t *Tool, ls []leaf) ([]leaf, []string) {
	names := map[string]bool{}
	for _, l := range ls {
		names[leafKey(l)] = true
	}
	var kept []leaf
	var notes []string
	for _, l := range ls {
		if why := siblingOf(l, ls, names); why != "" {
			notes = append(notes, fmt.Sprintf("%s %s (%s): left out: %s", t.Name, strings.Join(l.path, " "), t.Source, why))
			continue
		}
		kept = append(kept, l)
	}
	return kept, notes
}

// leafKey is a leaf's path joined by spaces.
func leafKey(l leaf) string { return strings.Join(l.path, " ") }

// siblingOf says which sibling leaf l restates, or "".
func siblingOf(l leaf, ls []leaf, names map[string]bool) string {
	if len(l.path) == 0 {
		return ""
	}
	parent, name := l.path[:len(l.path)-1], l.path[len(l.path)-1]
	key := func(n string) string { return strings.Join(append(append([]string{}, parent...), n), " ") }
	if base, ok := strings.CutSuffix(name, "s"); ok && len(base) > 2 && names[key(base)] {
		return fmt.Sprintf("the plural of its sibling %q, the same capability done for many", base)
	}
	if slices.Contains(maintenanceNames, strings.ToLower(name)) {
		return "a command that maintains the tool's own store"
	}
	verb, object, ok := cutVerb(name)
	if !ok || !isUndoVerb(verb) && !slices.Contains(redoVerbs, verb) {
		return ""
	}
	for _, o := range ls {
		if len(o.path) != len(l.path) || key(o.path[len(o.path)-1]) != leafKey(o) {
			continue // not a sibling
		}
		ov, oo, ok := cutVerb(o.path[len(o.path)-1])
		if !ok || oo != object || isUndoVerb(ov) || slices.Contains(redoVerbs, ov) {
			continue
		}
		if isUndoVerb(verb) {
			return fmt.Sprintf("it undoes what its sibling %q does", o.path[len(o.path)-1])
		}
		return fmt.Sprintf("it refreshes what its sibling %q set up", o.path[len(o.path)-1])
	}
	return ""
}

// cutVerb splits a subcommand's name at its first dash or underscore:
// "create-table" is verb "create", object "table".
func cutVerb(name string) (verb, object string, ok bool) {
	i := strings.IndexAny(name, "-_")
	if i <= 0 || i == len(name)-1 {
		return "", "", false
	}
	return strings.ToLower(name[:i]), strings.ToLower(name[i+1:]), true
}

func isUndoVerb(v string) bool { return slices.Contains(undoVerbs, v) }
