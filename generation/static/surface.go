package static

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/agentnet/agentnet/internal/lazyregexp"
)

// A skill comes from what a user is told to run. publicSurface leaves out
// the entry points that the repository's other programs run instead: a
// plugin of another of its programs, which speaks that program's protocol
// on its standard streams rather than doing anything a user would ask of
// it. Each is recorded in the notes, with its reason.

// pluginRE is a description that says its program is a plugin of
// something: "X is an acme plugin that ...", "a plugin for acme".
var pluginRE = lazyregexp.New(`(?i)\b(?:is|as) an? (?:[\w.-]+ ){0,3}plug-?in\b|\ba plug-?in (?:for|of|to) `)

// publicSurface returns the tools a user runs and notes for the rest.
func publicSurface(tools []*Tool) ([]*Tool, []string) {
	var notes []string
	plugins := map[*Tool]string{}
	for _, t := range tools {
		if host := pluginOf(t, tools); host != "" {
			plugins[t] = host
		}
	}
	if len(plugins) == len(tools) {
		return tools, nil // nothing else to run them: they are what it offers
	}
	var kept []*Tool
	for _, t := range tools {
		if host, ok := plugins[t]; ok {
			notes = append(notes, fmt.Sprintf("%s (%s): left out: a plugin that %s runs, not a command a user runs", t.Name, t.Source, host))
			continue
		}
		kept = append(kept, t)
	}
	// A program that took --help for an operand printed its work, not
	// its usage: there is nothing to describe it by or call it with.
	var told []*Tool
	for _, t := range kept {
		if !helpAsOperand(t) {
			told = append(told, t)
		}
	}
	if len(told) == 0 {
		return kept, notes
	}
	for _, t := range kept {
		if helpAsOperand(t) {
			notes = append(notes, fmt.Sprintf("%s (%s): left out: it took --help for an operand and printed its output, no usage", t.Name, t.Source))
		}
	}
	return told, notes
}

// helpAsOperand reports whether a tool's answer to --help names --help as
// data ("Report for --help") and shows no usage, option or subcommand.
func helpAsOperand(t *Tool) bool {
	c := t.Root
	if c == nil || len(t.Skills) > 0 || !strings.Contains(c.Help, "--help") {
		return false
	}
	return c.Usage == "" && len(c.Forms) == 0 && len(c.Flags) == 0 && len(c.Subs) == 0
}

// pluginOf returns the name of another of the tools whose plugin t says
// it is, or "".
func pluginOf(t *Tool, tools []*Tool) string {
	text := headText(toolText(t))
	if !pluginRE.MatchString(text) {
		return ""
	}
	for _, o := range tools {
		if o == t || o.Name == "" {
			continue
		}
		// The other program's name as a word of its own, not as part of
		// a longer name ("acme" in "acme-plugin-x").
		re := regexp.MustCompile(`(?i)(?:^|[^\w-])` + regexp.QuoteMeta(o.Name) + `(?:[^\w-]|$)`)
		if re.MatchString(text) && !pluginRE.MatchString(headText(toolText(o))) {
			return o.Name
		}
	}
	return ""
}

// toolText is what a tool says of itself: its doc comment, its root
// command's description and the head of its help.
func toolText(t *Tool) string {
	parts := []string{t.Doc}
	if t.Root != nil {
		parts = append(parts, t.Root.About, t.Root.Summary, t.Root.Help)
	}
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return strings.TrimSpace(s) == "" }), "\n")
}

// headText is the head of a text, where a program says what it is.
func headText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 400 {
		s = s[:400]
	}
	return s
}
