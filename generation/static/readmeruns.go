package static

import (
	"fmt"
	"regexp"
	"strings"
)

// A command line with many subcommands documents them all in a reference;
// its README shows the few a user is told to run. Those are its public
// capabilities: when a tool has more than manySubcommands leaves and its
// README runs at least two of them, the others are left out, each noted.
const manySubcommands = 12

// readmeLeaves returns the leaves of t that its README runs, when the rule
// above applies, else all of them; notes name the rest.
func readmeLeaves(t *Tool, all []leaf, readmeText string) ([]leaf, []string) {
	if len(all) <= manySubcommands || readmeText == "" {
		return all, nil
	}
	var kept []leaf
	for _, l := range all {
		if len(l.path) > 0 && readmeRuns(readmeText, t.Name, l.path) {
			kept = append(kept, l)
		}
	}
	if len(kept) < 2 {
		return all, nil
	}
	var notes []string
	for _, l := range all {
		if len(l.path) > 0 && !readmeRuns(readmeText, t.Name, l.path) {
			notes = append(notes, fmt.Sprintf("%s %s (%s): left out: one of %d subcommands, and the README runs %d others, not this one", t.Name, strings.Join(l.path, " "), t.Source, len(all), len(kept)))
		}
	}
	return kept, notes
}

// readmeRuns reports whether the README runs the program with the
// subcommand path: "prog sub" with nothing but options between.
func readmeRuns(text, prog string, path []string) bool {
	pat := `(?m)(?:^|[\s$>` + "`" + `(])` + regexp.QuoteMeta(prog) + `(?:\s+-[\w-]+(?:[= ][^\s-]\S*)?)*`
	for _, p := range path {
		pat += `\s+` + regexp.QuoteMeta(p)
	}
	pat += `(?:\s|$|` + "`" + `)`
	return regexp.MustCompile(pat).MatchString(text)
}
