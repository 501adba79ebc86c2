package static

import (
	"slices"
	"strings"
	"unicode"
)

// maxReadmeExamples is how many README runs a skill's examples take.
const maxReadmeExamples = 3

// readmeExamples returns what the README shows of running prog with the
// subcommand path, as card examples: for each command line in a fenced
// code block that runs it ("$ prog sub data.csv"), the sentence that
// leads into the block ("To load a CSV file into a table, run:") when
// there is one, and the command itself as "Run `…`". A router and the
// host's skill choice read these words; a description from --help rarely
// says which formats a command reads and writes, its README usually does.
// A run of one of subs, the tool's subcommands, is not the tool's own
// when path is empty.
func readmeExamples(readme, prog string, path, subs []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && !seen[s] && len(out) < 2*maxReadmeExamples {
			seen[s] = true
			out = append(out, s)
		}
	}
	runs := 0
	for _, b := range codeBlocks(readme) {
		for _, line := range b.lines {
			cmd, ok := runsProgram(line, prog, path)
			if ok && len(path) == 0 && slices.Contains(subs, firstOperand(cmd)) {
				ok = false
			}
			if !ok || runs == maxReadmeExamples {
				continue
			}
			runs++
			add(b.lead)
			add("Run `" + cmd + "`")
		}
	}
	return out
}

// codeBlock is a fenced block of a Markdown text and the sentence that
// leads into it.
type codeBlock struct {
	lead  string
	lines []string
	open  bool // an indented block that may go on
}

// codeBlocks returns the fenced code blocks of a Markdown text, each with
// the last sentence of the paragraph just before it when that sentence
// ends in a colon (a lead-in), else "".
func codeBlocks(md string) []codeBlock {
	var out []codeBlock
	var para []string
	prev := "" // the paragraph before the blank lines above
	var cur *codeBlock
	for _, line := range strings.Split(md, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			if cur != nil {
				out = append(out, *cur)
				cur = nil
				continue
			}
			if len(para) > 0 {
				prev = strings.Join(para, " ")
			}
			cur = &codeBlock{lead: leadIn(prev)}
			para, prev = nil, ""
		case cur != nil:
			cur.lines = append(cur.lines, t)
		case indented(line) && len(para) == 0:
			// An indented block after a blank line is code too.
			if n := len(out); n > 0 && out[n-1].open {
				out[n-1].lines = append(out[n-1].lines, t)
				continue
			}
			out = append(out, codeBlock{lead: leadIn(prev), lines: []string{t}, open: true})
			prev = ""
		case t == "":
			if len(para) > 0 {
				prev = strings.Join(para, " ")
			}
			para = nil
		default:
			para = append(para, t)
		}
		if !indented(line) && t != "" && len(out) > 0 {
			out[len(out)-1].open = false
		}
	}
	return out
}

// indented reports whether a Markdown line is indented as code: four
// spaces or a tab.
func indented(line string) bool {
	return strings.TrimSpace(line) != "" && (strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t"))
}

// leadIn returns the last sentence of a paragraph that ends in a colon,
// cleaned of Markdown and turned into a sentence, or "".
func leadIn(para string) string {
	para = strings.TrimSpace(cleanMarkdown(para))
	if !strings.HasSuffix(para, ":") || strings.HasPrefix(para, "#") {
		return ""
	}
	s := strings.TrimSuffix(para, ":")
	if i := strings.LastIndexAny(s, ".!?"); i >= 0 && i+1 < len(s) && s[i+1] == ' ' {
		s = s[i+2:]
	}
	s = strings.TrimSpace(s)
	if len(strings.Fields(s)) < 3 || len(s) > 200 || !unicode.IsLetter([]rune(s)[0]) {
		return ""
	}
	return sentence(s)
}

// runsProgram returns a code line's command when it runs prog with the
// subcommand path (options may come between the words), its shell
// prompt dropped.
func runsProgram(line, prog string, path []string) (string, bool) {
	for _, prompt := range []string{"$ ", "% ", "> ", "# "} {
		line = strings.TrimPrefix(line, prompt)
	}
	line = strings.TrimSpace(line)
	// The program may read a pipe: "cat data.csv | prog sub -".
	if i := strings.LastIndex(line, " | "); i >= 0 {
		if cmd, ok := runsProgram(line[i+3:], prog, path); ok {
			return line[:i+3] + cmd, true
		}
	}
	f := strings.Fields(line)
	if len(f) < 2 || len(line) > 200 || f[0] != prog {
		return "", false
	}
	i := 1
	for _, p := range path {
		for i < len(f) && strings.HasPrefix(f[i], "-") {
			i++
		}
		if i >= len(f) || f[i] != p {
			return "", false
		}
		i++
	}
	return line, true
}

// firstOperand is the first word of a command line after its program
// (the last of a pipe) that is not an option.
func firstOperand(cmd string) string {
	if i := strings.LastIndex(cmd, " | "); i >= 0 {
		cmd = cmd[i+3:]
	}
	for _, w := range strings.Fields(cmd)[1:] {
		if !strings.HasPrefix(w, "-") {
			return w
		}
	}
	return ""
}

// subNames are the names of t's subcommands.
func subNames(t *Tool) []string {
	var out []string
	if t.Root != nil {
		for _, s := range t.Root.Subs {
			out = append(out, s.Name)
		}
	}
	return out
}
