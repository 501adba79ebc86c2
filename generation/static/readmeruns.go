package static

import (
	"regexp"
)

// readmeLeaves returns the leaves of t, those its README runs first: they
// are the capabilities the project leads with, and a card lists them
// first. Every subcommand stays a skill: a command line's reference lists
// what a user may run, and a task may need any of it (a table tool's
// conversion that its README never shows). The second result is kept for
// notes on leaves left out, none today.
func readmeLeaves(t *Tool, all []leaf, readmeText string) ([]leaf, []string) {
	if readmeText == "" {
		return all, nil
	}
	var run, rest []leaf
	for _, l := range all {
		if len(l.path) > 0 && readmeRuns(readmeText, t.Name, l.path) {
			run = append(run, l)
		} else {
			rest = append(rest, l)
		}
	}
	return append(run, rest...), nil
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
