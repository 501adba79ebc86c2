package static

import (
	"strings"

	"github.com/agentnet/agentnet/internal/lazyregexp"
)

// Tags that argument parsers append to an option's help: yargs'
// "[string]", "[required]", "[choices: "a", "b"]", "[default: ","]";
// commander's "(choices: "-", "*", default: "-")"; click's "[required]".
var (
	typeTagRE     = lazyregexp.New(`\[(string|number|boolean|array|count)\]`)
	requiredTagRE = lazyregexp.New(`(?i)[(\[]required[)\]]`)
	choicesTagRE  = lazyregexp.New(`(?i)[(\[]choices:\s*((?:"[^"]*"|'[^']*')(?:,\s*(?:"[^"]*"|'[^']*'))*)`)
	quotedItemRE  = lazyregexp.New(`"([^"]*)"|'([^']*)'`)
	tagDefaultRE  = lazyregexp.New(`(?i)[(\[][^)\]]*?[,;]\s*default:\s*("[^"]*"|'[^']*'|[^,;)\]]+)[)\]]`)
)

// helpTags reads the tags of f's help into f: whether it is required, its
// choices and its default when the help gives them only as tags. It
// returns the type a type tag names ("" when none): "array" makes the
// option repeatable, "boolean" and "count" a switch, and a value type
// one that takes a value.
func helpTags(f *Flag) (typ string) {
	if requiredTagRE.MatchString(f.Help) {
		f.Required = true
	}
	if m := choicesTagRE.FindStringSubmatch(f.Help); m != nil && f.Choices == nil {
		for _, q := range quotedItemRE.FindAllStringSubmatch(m[1], -1) {
			f.Choices = append(f.Choices, q[1]+q[2])
		}
	}
	if f.Choices == nil && f.Metavar != "" {
		f.Choices = helpBraceChoices(f.Help)
	}
	if m := tagDefaultRE.FindStringSubmatch(f.Help); m != nil && f.Default == nil {
		if v, ok := defaultValue(m[1]); ok {
			f.Default = v
		}
	}
	m := typeTagRE.FindStringSubmatch(f.Help)
	if m == nil {
		return ""
	}
	switch m[1] {
	case "boolean", "count":
		f.Metavar = ""
		return "boolean"
	case "array":
		if f.Metavar == "" {
			f.Metavar = "VALUE"
		}
		return "array"
	}
	if f.Metavar == "" {
		f.Metavar = "VALUE"
	}
	return m[1]
}

// defaultValue reads the value a help's "default" names: the first quoted
// string when it starts with a quote, else the text up to a ";" or ","
// (click's "[default: 85; 1<=x<=100]"). Unquoted words ("same as input",
// "the input's rate halved") are prose describing a default, not a value
// to pass: ok is false.
func defaultValue(raw string) (v string, ok bool) {
	raw = strings.TrimSpace(raw)
	if q := quotedItemRE.FindStringSubmatchIndex(raw); q != nil && q[0] == 0 {
		m := quotedItemRE.FindStringSubmatch(raw)
		return m[1] + m[2], true
	}
	if i := strings.IndexAny(raw, ";,"); i > 0 {
		raw = strings.TrimSpace(raw[:i])
	}
	if raw == "" || strings.ContainsAny(raw, " \t") {
		return "", false
	}
	return raw, true
}

// requiredHeaderRE finds a section of options a call must give:
// argparse's "required arguments:", "required named arguments:".
var requiredHeaderRE = lazyregexp.New(`(?i)^(?:\w+\s+)?required\b`)

// addSectionFlag adds the option of item it, listed under header: one
// listed in a section of required options is required.
func addSectionFlag(c *Command, it *helpItem, header string) {
	n := len(c.Flags)
	addFlag(c, it)
	if len(c.Flags) > n && requiredHeaderRE.MatchString(strings.TrimSpace(header)) {
		c.Flags[n].Required = true
	}
}

// unbox reads a help drawn in boxes (rich-click and typer print each
// section in a frame: "╭─ Options ──╮", "│ --help  Show this… │",
// "╰──╯") as plain sections: the frame's title a header at the margin,
// its rows indented below it.
func unbox(lines []string) []string {
	boxed := false
	for _, ln := range lines {
		boxed = boxed || strings.HasPrefix(strings.TrimSpace(ln), "╭")
	}
	if !boxed {
		return lines
	}
	out := lines[:0:0]
	for _, ln := range lines {
		t := strings.TrimSpace(ln)
		switch {
		case strings.HasPrefix(t, "╭"):
			title := strings.TrimSpace(strings.Trim(t, "╭╮─ "))
			if title != "" {
				out = append(out, title+":")
			}
		case strings.HasPrefix(t, "╰"):
			out = append(out, "")
		case strings.HasPrefix(t, "│"):
			inner := strings.TrimSuffix(strings.TrimPrefix(t, "│"), "│")
			out = append(out, "  "+strings.TrimRight(inner, " "))
		default:
			// the text between the boxes is printed one space in
			out = append(out, strings.TrimPrefix(ln, " "))
		}
	}
	return out
}

// synopsisValue gives an option the value its usage shows ("[-p
// palette_file]") when the options list named it alone ("-p  write the
// palette to palette_file"), which reads as a switch.
func synopsisValue(c *Command, group string) {
	fs := strings.Fields(strings.Replace(group, "=", " ", 1))
	if len(fs) != 2 || strings.Contains(fs[0], "|") || !strings.HasPrefix(fs[0], "-") {
		return
	}
	name := strings.TrimLeft(fs[0], "-")
	long, short := name, ""
	if !strings.HasPrefix(fs[0], "--") && len(name) == 1 {
		long, short = "", name
	}
	f := c.flag(long, short)
	if f == nil || f.Metavar != "" || f.Typed || f.Negation != "" {
		return
	}
	f.Metavar = strings.Trim(fs[1], "<>")
	f.Type = guessFlagType(f)
}

// shellRedirect reports whether a usage word is the shell's redirection,
// after which no word is the program's operand. ("|" is not one: inside
// brackets it parts alternatives.)
func shellRedirect(w string) bool {
	switch w {
	case "<", ">", ">>", "2>", "2>&1", "&>":
		return true
	}
	return false
}
