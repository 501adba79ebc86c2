package static

import (
	"slices"
	"strings"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/lazyregexp"
)

var (
	// stdinWordRE finds a help's words for standard input ("Defaults to
	// standard input", "reads from STDIN"); a flag named after it
	// (--stdin-filename) is no such mention.
	stdinWordRE = lazyregexp.New(`(?i)(?:^|[^\w-])(?:stdin|standard[ -]input)(?:[^\w-]|$)`)
	// redirectRE finds a redirection from a file in a usage line:
	// "decoder < toml-file".
	redirectRE = lazyregexp.New(`\s<(\s*)([^\s<>|]+)(>?)`)
	// inputFlagRE names the flags that give a command its input file.
	inputFlagRE = lazyregexp.New(`(?i)^(i|f|in|input|infile|input[-_]?file|file|from|source|src|data)$`)
)

// stdinNames are the names an input parameter read on standard input
// takes, the first one free.
var stdinNames = []string{"input", "stdin", "input_data"}

// withStdin gives a skill an input read on standard input when its command
// reads one and takes no file to read otherwise: its help shows the program
// at the end of a pipe ("COMMAND | jc PARSER") or reading a redirection
// ("decoder < file"), or speaks of standard input. The input is a path
// parameter the run reads as its standard input (stdin: "{{input}}"),
// optional. A command with a file operand or an input file option keeps
// those: the host binds a file to them. Flat tools (Makefile targets) and
// library skills are left as they are.
func withStdin(sk bundle.Skill, t *Tool, path []string, c *Command, readme string) bundle.Skill {
	if t.Flat || len(t.Skills) > 0 || sk.Stdin != "" || sk.Params == nil || !readsStdin(t, path, c) && !readmePipes(t, path, c, readme) {
		return sk
	}
	if takesInput(c) {
		return sk
	}
	return addStdin(sk)
}

// takesInput reports whether a command has a file to read: a path
// operand or an input file option.
func takesInput(c *Command) bool {
	for _, a := range c.Args {
		if isPathArg(a) {
			return true
		}
	}
	for _, f := range c.Flags {
		if isPathFlag(f) && !isOutput(f) && (inputFlagRE.MatchString(f.Long) || f.Long == "" && inputFlagRE.MatchString(f.Short)) {
			return true
		}
	}
	return false
}

// siblingsStdin gives the skills of one tool's subcommands (skills[i] of
// cmds[i]) that take no input an input on standard input when one of
// them reads it by evidence (withStdin): the subcommands of one toolkit
// share one convention for their data ("cat data.csv | kit pretty" shown,
// "kit csv2json" not), and a data command left without any input could
// never be given its data.
func siblingsStdin(skills []bundle.Skill, cmds []*Command) {
	if !slices.ContainsFunc(skills, func(sk bundle.Skill) bool { return sk.Stdin != "" }) {
		return
	}
	for i := range skills {
		if skills[i].Stdin == "" && skills[i].Params != nil && !takesInput(cmds[i]) && len(cmds[i].Args) == 0 {
			skills[i] = addStdin(skills[i])
		}
	}
}

// addStdin adds the optional input file parameter the run reads as its
// standard input.
func addStdin(sk bundle.Skill) bundle.Skill {
	props, _ := sk.Params["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
		sk.Params["properties"] = props
	}
	name := ""
	for _, n := range stdinNames {
		if _, taken := props[n]; !taken {
			name = n
			break
		}
	}
	if name == "" {
		return sk
	}
	props[name] = map[string]any{
		"type":        "string",
		"format":      "path",
		"description": "The data the program reads on standard input: a file.",
	}
	sk.Stdin = "{{" + name + "}}"
	return sk
}

// readsStdin reports whether what the program says of a command (its help
// when probed, else its usage, description and the help of its arguments)
// shows that it reads standard input.
func readsStdin(t *Tool, path []string, c *Command) bool {
	text := c.Help
	if text == "" {
		var parts []string
		parts = append(parts, c.Usage, c.Summary, c.About)
		for _, a := range c.Args {
			parts = append(parts, a.Help)
		}
		for _, f := range c.Flags {
			if f.Type != "boolean" {
				parts = append(parts, f.Help)
			}
		}
		text = strings.Join(parts, "\n")
	}
	prog := strings.Join(append([]string{t.Name}, path...), " ")
	for _, ln := range strings.Split(text, "\n") {
		if pipedInto(ln, prog) || redirected(ln, prog) {
			return true
		}
	}
	return stdinWordRE.MatchString(text)
}

// readmePipes reports whether the README shows the command at the end of
// a pipe ("echo '{}' | dasel -i json 'name'"), when its help never says it
// reads standard input. A pipe into the bare program counts for the root
// and for the subcommand the program runs by default ("[default] Execute
// a query").
func readmePipes(t *Tool, path []string, c *Command, readme string) bool {
	if readme == "" {
		return false
	}
	prog := strings.Join(append([]string{t.Name}, path...), " ")
	isDefault := len(path) > 0 && strings.Contains(strings.ToLower(c.Summary+" "+c.About), "[default]")
	for _, ln := range strings.Split(readme, "\n") {
		if pipedInto(ln, prog) || isDefault && pipedInto(ln, t.Name) && !pipedIntoSub(ln, t) {
			return true
		}
	}
	return false
}

// pipedIntoSub reports whether a line pipes into one of the tool's named
// subcommands ("| dasel put ..."), which is not its default one.
func pipedIntoSub(ln string, t *Tool) bool {
	if t.Root == nil {
		return false
	}
	for _, s := range t.Root.Subs {
		if pipedInto(ln, t.Name+" "+s.Name) {
			return true
		}
	}
	return false
}

// pipedInto reports whether a line shows prog at the end of a pipe:
// "COMMAND | prog", "% echo '{}' | prog '.foo'".
func pipedInto(ln, prog string) bool {
	for {
		i := strings.IndexByte(ln, '|')
		if i < 0 {
			return false
		}
		ln = ln[i+1:]
		if rest, ok := strings.CutPrefix(strings.TrimLeft(ln, " \t"), prog); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			return true
		}
	}
}

// redirected reports whether a line shows prog reading a file redirected
// to it ("prog [OPTIONS] < file"), not an argument in angle brackets
// ("prog <file>").
func redirected(ln, prog string) bool {
	i := strings.Index(ln, prog)
	if i < 0 || i > 0 && !strings.ContainsRune(" \t$%/", rune(ln[i-1])) {
		return false
	}
	rest := ln[i+len(prog):]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return false
	}
	if j := strings.IndexByte(rest, '|'); j >= 0 {
		rest = rest[:j]
	}
	for _, m := range redirectRE.FindAllStringSubmatch(rest, -1) {
		// "<file>" is a placeholder; "< file" and "<file" alone redirect.
		if m[1] != "" || m[3] == "" {
			return true
		}
	}
	return false
}
