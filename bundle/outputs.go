package bundle

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// outputFlagRE matches an option whose value names a file the tool writes:
// -o, --output, --out-file, --outdir, --dest-file, --save-to, --write. The
// words are those of command-line conventions (getopt's -o, GNU's
// --output), not of any one tool.
// "--dest" and "--destination" are left out: as often a place or an
// address as a file.
var outputFlagRE = regexp.MustCompile(`^(?:-o|--?(?:out|output|outfile|outpath|outdir|output[-_]?(?:file|path|dir|directory|name)|out[-_]?(?:file|path|dir|name)|dest[-_]?(?:file|dir|path)|save|save[-_]?(?:to|as)|write|write[-_]?to))$`)

// NamePattern is the pattern of a plain name: no directory, no leading dot
// or dash. A parameter held to it names no file outside the work
// directory, so it may follow an output-file option.
const NamePattern = `^[A-Za-z0-9][A-Za-z0-9._+-]*$`

// OutputFlag reports whether flag (an argv element such as "--output" or
// "-o") is an option whose value names a file the tool writes.
func OutputFlag(flag string) bool { return outputFlagRE.MatchString(flag) }

// outputUses returns, for each parameter the run template passes to an
// output-file option — [--output, "{{out}}"], "--output={{out}}" or
// "-o{{out}}" — the index of the first such element.
func outputUses(run Command) map[string]int {
	uses := map[string]int{}
	note := func(name string, i int) {
		if _, ok := uses[name]; !ok {
			uses[name] = i
		}
	}
	for i, el := range run {
		names := Placeholders(el)
		if len(names) != 1 || IsBuiltin(names[0]) {
			continue
		}
		lit, _, _ := strings.Cut(el, "{{")
		switch {
		case lit == "" && i > 0 && len(Placeholders(run[i-1])) == 0 && OutputFlag(run[i-1]):
			note(names[0], i)
		case strings.HasSuffix(lit, "=") && OutputFlag(strings.TrimSuffix(lit, "=")):
			note(names[0], i)
		case lit == "-o":
			note(names[0], i)
		}
	}
	return uses
}

// outputFiles reports every parameter that the template passes to an
// output-file option without saying that it names a file (format:
// output-path, or path), unless its schema fixes its values (enum, const)
// or its type is not a string: such a value would be handed to the tool as
// a path it writes, wherever it points.
func (v *validator) outputFiles(p string, sk *Skill) {
	params := map[string]Param{}
	for _, prm := range sk.ParamList() {
		params[prm.Name] = prm
	}
	uses := outputUses(sk.Run)
	for _, name := range slices.SortedFunc(maps.Keys(uses), func(a, b string) int { return uses[a] - uses[b] }) {
		i := uses[name]
		prm, ok := params[name]
		if !ok || prm.IsFile() || prm.Restricted || !takesString(sk, name) {
			continue
		}
		v.errf(fmt.Sprintf("%s.run[%d]", p, i), "parameter %s is passed to %s, an option for a file the tool writes, but its schema does not say it names a file (format: %s)",
			name, strings.TrimSpace(outputOption(sk.Run, i)), FormatOutput)
	}
}

// takesString reports whether the parameter's schema lets it hold a string
// (or a list of them) other than a plain name (NamePattern).
func takesString(sk *Skill, name string) bool {
	props, _ := sk.Params["properties"].(map[string]any)
	m, ok := props[name].(map[string]any)
	if !ok {
		return true // no schema (or true): anything
	}
	if m["pattern"] == NamePattern {
		return false
	}
	var types []any
	switch t := m["type"].(type) {
	case nil:
		return true
	case string:
		types = []any{t}
	case []any:
		types = t
	}
	return slices.Contains(types, any("string")) || slices.Contains(types, any("array"))
}

// outputOption is the option at element i of run: the element before it or
// the element's own literal head.
func outputOption(run Command, i int) string {
	if lit, _, _ := strings.Cut(run[i], "{{"); lit != "" {
		return strings.TrimSuffix(lit, "=")
	}
	return run[i-1]
}
