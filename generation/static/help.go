package static

import (
	"iter"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/agentnet/agentnet/internal/lazyregexp"
)

// parseHelp reads the --help text of a command: its usage line, description,
// subcommands, options, positional arguments and examples. It knows the
// shapes argparse, click, cobra, Go's flag package and hand-written usage
// texts take; what it does not recognise it leaves out.
func parseHelp(text string) *Command {
	c := &Command{Help: text}
	lines := helpLines(text)
	type section struct {
		kind, header string
		lines        []string
	}
	var pre, post []string // description paragraphs before and after usage
	var sections []*section
	var cur *section
	seenUsage := false
	var usages []string // every usage form, the first one c.Usage
	for i := 0; i < len(lines); i++ {
		ln := lines[i]
		trim := strings.TrimSpace(ln)
		low := strings.ToLower(trim)
		bare := bareHeader(lines, i)
		if bare && !usageHeaderRE.MatchString(low) {
			cur = &section{kind: sectionKind(trim), header: trim}
			sections = append(sections, cur)
			continue
		}
		if indentOf(ln) == 0 && (bare || strings.HasPrefix(low, "usage:")) {
			first := ""
			if !bare {
				first = strings.TrimSpace(trim[len("usage:"):])
			}
			var forms []string
			var desc string
			forms, i, desc = usageForms(lines, i, first)
			if c.Usage == "" && len(forms) > 0 {
				c.Usage = forms[0]
			}
			if desc != "" {
				pre = append(pre, "", desc, "")
			}
			usages = append(usages, forms...)
			seenUsage, cur = true, nil
			continue
		}
		if isHeader(ln) || optionsHeader(lines, i) {
			cur = &section{kind: sectionKind(trim), header: trim}
			sections = append(sections, cur)
			continue
		}
		if title, first, ok := inlineHeader(lines, i); ok {
			// "Command: seq       common transformation of FASTA/Q"
			// with the other commands aligned below the first.
			cur = &section{kind: sectionKind(title), header: title, lines: []string{first}}
			sections = append(sections, cur)
			continue
		}
		if cur != nil && proseLine(ln) && cur.kind != "other" && slices.ContainsFunc(cur.lines, func(l string) bool { return indentOf(l) > 0 }) {
			// A paragraph at the margin after an indented list ends the
			// list: it describes the program (age-keygen's text after its
			// options).
			cur = nil
		}
		switch {
		case cur != nil:
			cur.lines = append(cur.lines, ln)
		case !seenUsage && optionErrorRE.MatchString(trim):
			// "figlet: invalid option -- '-'": the program did not take
			// --help, and said so before its usage.
		case !seenUsage:
			pre = append(pre, ln)
		default:
			post = append(post, ln)
		}
	}
	// Options listed after the description with no header of their own
	// (shfmt): the first indented line starting with a dash begins them.
	for i, ln := range post {
		if indentOf(ln) > 0 && strings.HasPrefix(strings.TrimSpace(ln), "-") {
			for _, it := range helpItems(post[i:]) {
				if flagTerm(it.term) {
					addFlag(c, it)
				}
			}
			post = post[:i]
			break
		}
	}
	c.Forms = usages
	c.About = joinParagraphs(post)
	if c.About == "" {
		c.About = joinParagraphs(pre)
	} else if p := joinParagraphs(pre); p != "" && len(sections) > 0 && !strings.Contains(p, c.About) {
		// cobra prints the long description before the usage
		c.About = p + "\n\n" + c.About
	}
	// A program's own help may call all its options global (urfave/cli's
	// GLOBAL OPTIONS): they are its flags. A subcommand's help that lists
	// its parent's options as global (cobra's Global Flags) accepts them
	// too, after its name; that it lists them tells which of its parent's
	// options it inherits.
	// cobra's command groups ("Format Conversion:" beside "Commands for
	// Information:"): a section of a help that lists commands, whose
	// entries are all one word and a description, lists commands too.
	if slices.ContainsFunc(sections, func(s *section) bool { return s.kind == "commands" }) {
		for _, s := range sections {
			if s.kind == "other" && commandItems(helpItems(s.lines)) {
				s.kind = "commands"
			}
		}
	}
	for _, s := range sections {
		items := helpItems(s.lines)
		kind := s.kind
		if kind == "global" {
			kind = "flags"
		}
		switch kind {
		case "commands":
			for _, it := range items {
				if !addSubGroup(c, it) {
					addSubs(c, it)
				}
			}
		case "args":
			for _, it := range items {
				if addSubGroup(c, it) {
					continue
				}
				if flagTerm(it.term) {
					addSectionFlag(c, it, s.header)
					continue
				}
				c.Args = append(c.Args, termArg(it))
			}
		case "flags", "other":
			// A titled group of options ("INPUT:", "Output control:")
			// is known by its items: a term starting with a dash is a flag.
			for _, it := range items {
				if flagTerm(it.term) {
					addSectionFlag(c, it, s.header)
				}
			}
		case "examples":
			c.Examples = append(c.Examples, helpExamples(s.lines, c.Usage)...)
		}
	}
	for _, form := range usages {
		synopsisFlags(c, form)
	}
	if !formSubs(c, usages) {
		usageArgs(c, usages)
	}
	placeholderSections(c, func(yield func(header string, lines []string) bool) {
		for _, s := range sections {
			if s.kind == "other" && !yield(s.header, s.lines) {
				return
			}
		}
	})
	// urfave/cli prints "NAME:\n   jp - jp [<options>] <expression>": an
	// app whose one-line usage is its synopsis, under a generic USAGE.
	for _, sec := range sections {
		if len(c.Args) > 0 || slices.ContainsFunc(c.Subs, func(s *Command) bool { return !s.Hidden }) || !strings.EqualFold(strings.TrimSuffix(strings.TrimSpace(sec.header), ":"), "name") {
			continue
		}
		for _, ln := range sec.lines {
			name, rest, ok := strings.Cut(strings.TrimSpace(ln), " - ")
			if !ok || name == "" {
				continue
			}
			if strings.HasPrefix(rest, name+" ") && strings.ContainsAny(rest, "<[") {
				usageArgs(c, []string{rest})
			} else if c.About == "" {
				c.About = rest
			}
			break
		}
	}
	return c
}

// flagTerm reports whether a help item's term defines an option: a dash
// and a letter or digit ("-k", "--keys"), never a bullet ("- Column name
// : -k name" lists values of an option in a section of prose).
func flagTerm(term string) bool {
	t := strings.TrimPrefix(term, "-")
	t = strings.TrimPrefix(t, "-")
	return len(t) < len(term) && t != "" && (unicode.IsLetter(rune(t[0])) || unicode.IsDigit(rune(t[0])))
}

// placeholderSections reads a section named for a usage placeholder —
// "Modes:" under "unfurl [OPTIONS] [MODE] [FORMATSTRING]" — as the values
// that operand takes: each row's word a choice, its text the doc.
func placeholderSections(c *Command, sections iter.Seq2[string, []string]) {
	for header, lines := range sections {
		name := strings.ToLower(strings.TrimSuffix(strings.TrimSpace(header), ":"))
		for _, a := range c.Args {
			arg := strings.ToLower(strings.Trim(a.Name, "<>[]."))
			if len(a.Choices) > 0 || arg == "" || name != arg && name != arg+"s" && name != arg+"es" {
				continue
			}
			var choices, docs []string
			for _, it := range helpItems(lines) {
				// "keypairs Key=value pairs …": one space can part a
				// long value from its text.
				w := strings.Fields(it.term)
				if len(w) == 0 || strings.HasPrefix(w[0], "-") || !choiceWordRE.MatchString(w[0]) {
					choices = nil
					break
				}
				desc := strings.TrimSpace(strings.Join(w[1:], " ") + " " + it.desc)
				choices = append(choices, w[0])
				docs = append(docs, w[0]+": "+strings.TrimSuffix(desc, "."))
			}
			if len(choices) < 2 {
				continue
			}
			a.Choices = choices
			if a.Help == "" {
				a.Help = "One of " + strings.Join(docs, "; ") + "."
			}
		}
	}
}

// inlineHeaderRE is a titled list whose first item shares the title's
// line: "Command: seq       common transformation of FASTA/Q".
var inlineHeaderRE = lazyregexp.New(`^([A-Z][A-Za-z ]{1,30}):(\s+)(\S+\s{2,}\S.*)$`)

// inlineHeader reports whether line i opens such a list: the next line
// that is not blank is indented to the first item's column. It returns
// the title and the first item, indented as its followers.
func inlineHeader(lines []string, i int) (title, first string, ok bool) {
	m := inlineHeaderRE.FindStringSubmatch(lines[i])
	if m == nil {
		return "", "", false
	}
	col := len(m[1]) + 1 + len(m[2])
	for _, ln := range lines[i+1:] {
		if strings.TrimSpace(ln) == "" {
			continue
		}
		if indentOf(ln) != col {
			return "", "", false
		}
		return m[1] + ":", strings.Repeat(" ", col) + m[3], true
	}
	return "", "", false
}

// choiceWordRE is a value a tool takes by name: "domains", "key-pairs".
var choiceWordRE = lazyregexp.New(`^[A-Za-z][\w.-]*$`)

// synopsisFlagRE matches an option as a usage writes it in brackets:
// "--escape", "-v | --version", "-n N", "--out=FILE".
var synopsisFlagRE = lazyregexp.New(`^(?:-[A-Za-z0-9]|--[A-Za-z0-9][\w-]*)(?:\s*\|\s*(?:-[A-Za-z0-9]|--[A-Za-z0-9][\w-]*))*(?:[ =][<A-Za-z][\w<>.-]*)?$`)

var altBarRE = lazyregexp.New(`\s*\|\s*`)

// synopsisFlags adds the options a usage form shows in brackets ("he
// [--escape] string") that the help lists nowhere else. Groups of several
// options ("[-S STYLE -f formatter | -C]") and clusters of letters
// ("[-cklnop]") are left out: their shape does not tell one option.
func synopsisFlags(c *Command, form string) {
	depth, start := 0, 0
	for i, r := range form {
		switch r {
		case '[':
			if depth == 0 {
				start = i + 1
			}
			depth++
		case ']':
			depth--
			if depth == 0 {
				if g := strings.TrimSpace(form[start:i]); synopsisFlagRE.MatchString(g) {
					synopsisValue(c, g)
					addFlag(c, &helpItem{term: altBarRE.Regexp().ReplaceAllString(g, ", ")})
				}
			}
			depth = max(depth, 0)
		}
	}
}

// helpExamples reads an examples section: its command lines, and the
// captions that say what a command does ("Count a specific folder:",
// "# encrypt to a file"), which stand for it. When some lines are marked
// as commands ("$ age-keygen -o key.txt") or start with the program's
// name (the first word of usage), the other lines are the commands'
// output and are left out.
func helpExamples(lines []string, usage string) []string {
	prog := ""
	if f := strings.Fields(usage); len(f) > 0 {
		prog = f[0]
	}
	prompt := slices.ContainsFunc(lines, func(ln string) bool { return strings.HasPrefix(strings.TrimSpace(ln), "$ ") })
	named := prog != "" && slices.ContainsFunc(lines, func(ln string) bool { return commandLine(strings.TrimSpace(ln), prog) })
	var out []string
	caption := ""
	afterBlank := true
	for _, ln := range lines {
		ex := strings.TrimSpace(ln)
		if ex == "" {
			afterBlank = true
			continue
		}
		isCmd := true
		switch {
		case prompt:
			isCmd = strings.HasPrefix(ex, "$ ")
		case named:
			isCmd = commandLine(ex, prog)
		case strings.HasPrefix(ex, "#") || strings.HasSuffix(ex, ":"):
			isCmd = false
		}
		if !isCmd {
			// A caption opens a paragraph; any other line is output.
			if afterBlank || caption != "" {
				caption = ""
				if t := strings.TrimSpace(strings.TrimSuffix(strings.TrimLeft(ex, "# "), ":")); len(strings.Fields(t)) >= 2 && (strings.HasSuffix(ex, ":") || strings.HasPrefix(ex, "#")) {
					caption = t
				}
			}
			afterBlank = false
			continue
		}
		afterBlank = false
		if i := strings.Index(ex, " #"); i > 0 {
			ex = strings.TrimSpace(ex[:i])
		}
		ex = strings.TrimPrefix(ex, "$ ")
		if caption != "" {
			out = append(out, caption)
			caption = ""
			continue
		}
		if ex != "" {
			out = append(out, ex)
		}
	}
	return out
}

// commandLine reports whether an example line runs prog: it starts with
// prog or feeds it ("echo 1 2 | spark").
func commandLine(ex, prog string) bool {
	ex = strings.TrimPrefix(ex, "$ ")
	return ex == prog || strings.HasPrefix(ex, prog+" ") || strings.Contains(ex, "| "+prog)
}

// termArg reads an entry of an arguments section: "FILE", "<file>",
// "[<query>]" (kong: optional), "<paths> ..." (several).
func termArg(it *helpItem) *Arg {
	fs := strings.Fields(it.term)
	raw := fs[0]
	a := &Arg{Help: it.desc}
	a.Optional = strings.HasPrefix(raw, "[")
	a.Variadic = strings.Contains(raw, "...") || len(fs) > 1 && strings.Trim(fs[1], "[]") == "..."
	a.Name = strings.Trim(strings.TrimSuffix(strings.Trim(raw, "[]"), "..."), "[]<>")
	if a.Name == "" {
		a.Name = raw
	}
	return a
}

// usageForms reads the usage forms that follow a usage header at lines[i]
// (first is the text on the header's own line) and returns them with the
// index of the last line read, and the prose a form carried after " - "
// ("qr - Convert stdin to a QR Code."): a description, not operands. A
// form may wrap onto indented lines; a new form starts with the program's
// name again ("age --decrypt ..." after "age [--encrypt] ..."). A header
// alone on its line may be followed by a blank line and captions
// ("Standard syntax:") among indented forms. Indented option lines right
// below the form (Go's flag package: "  -json") are no part of it.
func usageForms(lines []string, i int, first string) ([]string, int, string) {
	var forms []string
	prog, desc := "", ""
	add := func(form string) {
		form = strings.TrimPrefix(form, "$ ")
		if pre, rest, ok := strings.Cut(form, " - "); ok && usageProseRE.MatchString(rest) {
			form, desc = strings.TrimSpace(pre), strings.TrimSpace(rest)
		}
		if pre, rest, ok := strings.Cut(form, " | "); ok && !strings.ContainsAny(pre, "[(<{") {
			form = strings.TrimSpace(rest) // "COMMAND | jc [OPTIONS] PARSER": what feeds it is no argument
		}
		if form == "" {
			return
		}
		if prog == "" {
			prog = strings.Fields(form)[0]
		}
		forms = append(forms, form)
	}
	if first != "" {
		add(first)
	}
	blockOnly := first == ""
	for i+1 < len(lines) {
		next := lines[i+1]
		t := strings.TrimSpace(next)
		if t == "" {
			// Only a header alone on its line lets blank lines part its
			// forms; after a usage line, a blank line ends it (click's
			// description follows, indented).
			if !blockOnly {
				break
			}
			j := i + 1
			for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
				j++
			}
			if j == len(lines) || indentOf(lines[j]) == 0 || !usageLike(strings.TrimSpace(lines[j]), prog) {
				break
			}
			i = j - 1
			continue
		}
		if indentOf(next) == 0 || isHeader(next) && len(forms) > 0 || len(forms) > 0 && strings.HasPrefix(t, "-") {
			break
		}
		i++
		switch {
		case strings.HasSuffix(t, ":") && len(strings.Fields(t)) <= 4:
			// a caption: "Standard syntax:"
		case len(forms) == 0:
			add(t)
		case strings.Fields(strings.TrimPrefix(t, "$ "))[0] == prog || !strings.HasPrefix(t, "[") && indentOf(next) <= 4 || strings.Contains(t, " | "+prog+" "):
			add(t)
		default:
			forms[len(forms)-1] += " " + t
		}
	}
	for j, form := range forms {
		// "[ -d directory ]", "[ toml-file ... ]": brackets with spaces.
		forms[j] = bracketSpaceRE.Regexp().ReplaceAllStringFunc(form, func(m string) string { return strings.Join(strings.Fields(m), "") })
	}
	return forms, i, desc
}

// optionErrorRE finds a program's complaint about the option it was given.
var optionErrorRE = lazyregexp.New(`(?i)\b(?:invalid|unknown|unrecognized|unrecognised|illegal|bad)\s+(?:option|flag|argument|switch)\b`)

var (
	// usageProseRE finds a sentence: a capitalised word and two more.
	usageProseRE = lazyregexp.New(`^[A-Z][a-z]+\b[^\[\]<>{}|]*\s\S+\s\S+`)
	// bracketSpaceRE finds the space just inside a bracket.
	bracketSpaceRE = lazyregexp.New(`\[\s+|\s+\]`)
)

// proseLine reports whether ln is a line of prose at the margin: words,
// not an option, not a term and its description apart.
func proseLine(ln string) bool {
	t := strings.TrimSpace(ln)
	if indentOf(ln) > 0 || t == "" || !unicode.IsLetter([]rune(t)[0]) || splitRE.MatchString(t) || strings.HasSuffix(t, ":") {
		return false
	}
	return len(strings.Fields(t)) >= 4
}

// usageLike reports whether an indented line after a blank one still
// belongs to a usage: a caption or a form naming the program.
func usageLike(t, prog string) bool {
	if strings.HasSuffix(t, ":") && len(strings.Fields(t)) <= 4 {
		return true
	}
	if prog == "" {
		return true
	}
	t = strings.TrimPrefix(t, "$ ")
	return strings.Fields(t)[0] == prog || strings.Contains(t, " | "+prog+" ") || strings.HasSuffix(t, " | "+prog)
}

// helpLines expands tabs, drops terminal escapes and trailing spaces.
func helpLines(text string) []string {
	text = ansiRE.ReplaceAllString(text, "")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	var out []string
	for _, ln := range strings.Split(text, "\n") {
		if strings.Contains(ln, "\t") {
			var b strings.Builder
			col := 0
			for _, r := range ln {
				if r == '\t' {
					n := 8 - col%8
					b.WriteString(strings.Repeat(" ", n))
					col += n
					continue
				}
				b.WriteRune(r)
				col++
			}
			ln = b.String()
		}
		out = append(out, strings.TrimRightFunc(ln, unicode.IsSpace))
	}
	out = unbox(out)
	// A help indented as a whole ("    USAGE:\n      spark ...") reads
	// as one at the margin.
	common := -1
	for _, ln := range out {
		if ln != "" && (common < 0 || indentOf(ln) < common) {
			common = indentOf(ln)
		}
	}
	if common > 0 {
		for i, ln := range out {
			if ln != "" {
				out[i] = ln[common:]
			}
		}
	}
	return out
}

var ansiRE = lazyregexp.New(`\x1b\[[0-9;]*[A-Za-z]`)

func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

// isHeader reports whether a line opens a section: "Commands:", "options:",
// "Available Commands:", "Options (all commands):".
func isHeader(ln string) bool {
	if indentOf(ln) > 1 {
		return false
	}
	t := strings.TrimSpace(ln)
	if strings.HasPrefix(strings.ToLower(t), "usage of ") && strings.HasSuffix(t, ":") {
		return true // Go's flag package, whatever the program's path
	}
	if !strings.HasSuffix(t, ":") || len(t) > 48 || strings.HasPrefix(t, "-") {
		return false
	}
	return len(strings.Fields(t)) <= 5
}

// optionsHeader reports whether lines[i] titles a group of options however
// long its title ("Special modes - do not do any highlighting:"): a line
// at the margin ending in a colon, the next one an indented option.
func optionsHeader(lines []string, i int) bool {
	t := strings.TrimSpace(lines[i])
	if indentOf(lines[i]) > 1 || !strings.HasSuffix(t, ":") || len(t) > 80 || strings.HasPrefix(t, "-") {
		return false
	}
	for _, next := range lines[i+1:] {
		if n := strings.TrimSpace(next); n != "" {
			return indentOf(next) > 0 && strings.HasPrefix(n, "-")
		}
	}
	return false
}

var (
	bareHeaderRE  = lazyregexp.New(`^(?:usage|synopsis|description|version|examples?|(?:[a-z]+ )?(?:commands|flags|options|arguments|args))$`)
	usageHeaderRE = lazyregexp.New(`^(?:usage|synopsis)$`)
)

// bareHeader reports whether lines[i] is a section header written without
// a colon ("Usage", "FLAGS", "CORE COMMANDS"): a known section name alone
// at the margin, its body indented below it.
func bareHeader(lines []string, i int) bool {
	ln := lines[i]
	if indentOf(ln) != 0 || !bareHeaderRE.MatchString(strings.ToLower(strings.TrimSpace(ln))) {
		return false
	}
	for _, next := range lines[i+1:] {
		if strings.TrimSpace(next) != "" {
			return indentOf(next) > 0
		}
	}
	return false
}

// commandItems reports whether a section's entries look like commands:
// some, each a single word that is no option, with a description.
func commandItems(items []*helpItem) bool {
	for _, it := range items {
		if it.desc == "" || strings.ContainsAny(it.term, " \t=") || strings.HasPrefix(it.term, "-") {
			return false
		}
	}
	return len(items) > 0
}

func sectionKind(header string) string {
	h := strings.ToLower(strings.TrimSuffix(header, ":"))
	switch {
	case strings.HasPrefix(h, "usage of "): // Go's flag.PrintDefaults
		return "flags"
	case strings.Contains(h, "example"):
		return "examples"
	case strings.Contains(h, "command") && !strings.Contains(h, "option") && !strings.Contains(h, "flag"):
		return "commands"
	case strings.Contains(h, "subcommand"):
		return "commands"
	case strings.Contains(h, "global"):
		return "global"
	case strings.Contains(h, "option") || strings.Contains(h, "flag") || strings.Contains(h, "switch"):
		return "flags"
	case strings.Contains(h, "argument") || strings.Contains(h, "positional") || h == "args":
		return "args"
	}
	return "other"
}

func joinParagraphs(lines []string) string {
	var paras []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			paras = append(paras, strings.Join(cur, " "))
			cur = nil
		}
	}
	for _, ln := range lines {
		t := strings.TrimSpace(ln)
		if t == "" {
			flush()
			continue
		}
		cur = append(cur, t)
	}
	flush()
	return strings.Join(paras, "\n\n")
}

// helpItem is one entry of a section: a term ("-n, --number N", "top FILE",
// "COMMAND") and its description, with nested entries.
type helpItem struct {
	term     string
	desc     string
	indent   int
	descCol  int
	children []*helpItem
}

var splitRE = lazyregexp.New(`\S(\s{2,})\S`)

func helpItems(lines []string) []*helpItem {
	var top []*helpItem
	var cur, parent *helpItem
	for _, ln := range lines {
		t := strings.TrimSpace(ln)
		if t == "" {
			continue
		}
		ind := indentOf(ln)
		if cur != nil && ind > cur.indent && ((cur.descCol > 0 && ind >= cur.descCol-1) || ind >= cur.indent+6) {
			if cur.desc == "" && cur.descCol == 0 {
				cur.descCol = ind
			}
			cur.desc = strings.TrimSpace(cur.desc + " " + t)
			continue
		}
		it := &helpItem{indent: ind}
		if loc := splitRE.FindStringSubmatchIndex(ln[ind:]); loc != nil {
			it.term = strings.TrimSpace(ln[ind : ind+loc[2]])
			it.desc = strings.TrimSpace(ln[ind+loc[3]:])
			it.descCol = ind + loc[3]
			// "-w,     --write     write result": the names are aligned
			// in columns, the long one after a gap.
			if strings.HasSuffix(it.term, ",") && strings.HasPrefix(it.desc, "-") {
				rest := ln[it.descCol:]
				if loc := splitRE.FindStringSubmatchIndex(rest); loc != nil {
					it.term += " " + strings.TrimSpace(rest[:loc[2]])
					it.desc = strings.TrimSpace(rest[loc[3]:])
					it.descCol += loc[3]
				}
			}
		} else {
			it.term = t
		}
		switch {
		case parent != nil && ind > parent.indent:
			parent.children = append(parent.children, it)
		case cur != nil && ind > cur.indent && cur.desc == "":
			parent = cur
			cur.children = append(cur.children, it)
		default:
			parent = nil
			top = append(top, it)
		}
		if parent == nil || it != parent {
			cur = it
		}
	}
	return top
}

// addSubGroup adds the subcommands argparse lists under their metavar
// ("{major,minor}" with the commands indented below it, or alone) and
// reports whether it was such a group.
func addSubGroup(c *Command, it *helpItem) bool {
	if len(it.children) == 0 && !strings.HasPrefix(it.term, "{") {
		return false
	}
	if len(it.children) == 0 {
		for _, n := range strings.Split(strings.Trim(it.term, "{}"), ",") {
			addSubs(c, &helpItem{term: n})
		}
	}
	for _, ch := range it.children {
		addSubs(c, ch)
	}
	return true
}

var cmdNameRE = lazyregexp.New(`^[a-z][a-z0-9_.:-]*$`)

func addSubs(c *Command, it *helpItem) {
	term := strings.TrimSpace(it.term)
	if term == "" {
		return
	}
	// "top FILE [-n 10]", "stats, st", "run (r)"
	name := strings.Fields(term)[0]
	name = strings.TrimRight(name, ",:") // "auth:  Authenticate gh" (gh)
	if !cmdNameRE.MatchString(name) || c.find(name) != nil {
		return
	}
	sub := &Command{Name: name, Summary: it.desc}
	if rest := strings.TrimSpace(strings.TrimPrefix(term, strings.Fields(term)[0])); rest != "" {
		sub.Usage = name + " " + rest
	}
	sub.Hidden = isHiddenCommand(name)
	c.Subs = append(c.Subs, sub)
}

func isHiddenCommand(name string) bool {
	switch name {
	case "help", "version", "completion", "completions", "__complete", "license", "man", "docs",
		"install", "uninstall", "self-update", "selfupdate": // the tool's own packages and plugins
		return true
	}
	// Shell completion under any name: "genautocomplete", "gen-completion".
	return strings.Contains(name, "completion") || strings.Contains(name, "autocomplet")
}

var (
	// "(default: 10)", "[default 10]", "(defaults to utf-8)"
	defaultRE = lazyregexp.New(`(?i)[(\[]defaults?(?:\s+to\b|\s+is\b|\s*[:=])?\s*([^)\]]*)[)\]]`)
	choiceRE  = lazyregexp.New(`^\{([^}]*)\}$`)
)

// leadingChoicesRE matches a help that opens with the values its option
// takes, in brackets or parentheses: "[auto|yaml|json] …".
var leadingChoicesRE = lazyregexp.New(`^\s*[\[(]([\w.+-]+(?:\|[\w.+-]+)+)[\])]`)

// addFlag parses a flag term: "-f FILE, --file FILE", "--index N, -n N",
// "-n, --number N", "-name string" (Go), "--out=FILE", "--[no-]color".
func addFlag(c *Command, it *helpItem) {
	f := &Flag{Help: it.desc}
	// "--override / --no-override" (click) names one switch twice.
	term := strings.ReplaceAll(strings.ReplaceAll(it.term, " | ", ", "), " / -", ", -")
	multi, listed := false, ""
	var parts []string
	for _, part := range splitTop(term, ",") {
		// "-c --color" names one flag twice, without a comma.
		part = strings.TrimSpace(part)
		for {
			name, rest, ok := strings.Cut(part, " ")
			if !ok || !strings.HasPrefix(name, "-") || !strings.HasPrefix(strings.TrimSpace(rest), "-") {
				break
			}
			parts = append(parts, name)
			part = strings.TrimSpace(rest)
		}
		parts = append(parts, part)
	}
	// All names of the option: its long names ("--ac, --atomic"), its
	// short ones ("-l, -w") and Go's one-dash long names.
	var longs, shorts, goLongs []string
	for _, part := range parts {
		if !strings.HasPrefix(part, "-") {
			continue
		}
		name, meta, _ := strings.Cut(part, " ")
		if n, m, ok := strings.Cut(name, "["); ok && strings.HasPrefix(m, "=") {
			// "--list[=0]", "--color[=WHEN]": an optional value, given
			// joined to the flag
			name, meta = n, strings.TrimSuffix(strings.TrimPrefix(m, "="), "]")
			f.OptionalValue, f.Attached = true, true
		} else if m := strings.TrimSpace(meta); optionalMetaRE.MatchString(m) && !listedMetaRE.MatchString(m) {
			// "--compress [options]", "--increment [<level>]": an
			// optional value, the next word
			f.OptionalValue = true
		} else if n, m, ok := strings.Cut(name, "="); ok {
			name, meta = n, m
		}
		if j := strings.Index(meta, " -"); j >= 0 {
			// "-S STYLE -f formatter": -S wants -f too, a flag of its own
			meta = meta[:j]
		}
		meta = strings.TrimSpace(meta)
		if m := listedMetaRE.FindStringSubmatch(meta); m != nil {
			listed = m[1] // click's "[always|never|auto]"
		}
		if fs := strings.Fields(meta); len(fs) == 2 && fs[1] == "RANGE" {
			meta = fs[0] // click's "INTEGER RANGE": one value in bounds
		} else if fs := strings.Fields(meta); len(fs) > 1 && !slices.ContainsFunc(fs, func(w string) bool { return !placeholderWord(w) }) {
			// "-H NAME TYPE", "-L [WHAT ...]": several values
			multi, meta = true, fs[0]
		}
		meta = strings.Trim(meta, "<>[]=")
		switch {
		case strings.HasPrefix(name, "--"):
			n := strings.TrimPrefix(name, "--")
			if strings.Contains(n, "[no-]") {
				n = strings.Replace(n, "[no-]", "", 1)
				f.Negation = "no-" + n
			}
			longs = append(longs, n)
		case len(name) == 2:
			shorts = append(shorts, name[1:])
		default: // Go's flag package: one dash, long name
			goLongs = append(goLongs, name[1:])
		}
		if meta != "" && f.Metavar == "" {
			f.Metavar = meta
		}
	}
	// "--override / --no-override": the second name turns the first off.
	all := slices.Clone(longs)
	longs = slices.DeleteFunc(longs, func(n string) bool {
		neg := slices.ContainsFunc(all, func(m string) bool { return n == "no-"+m || n == "no"+m })
		if neg {
			f.Negation = n
		}
		return neg
	})
	f.setNames(longs, goLongs, shorts)
	if f.Long == "" && f.Short == "" {
		return
	}
	if f.Long == "help" || f.Short == "h" && f.Long == "" || versionNameRE.MatchString(f.Long) || strings.HasSuffix(f.Long, "-completion") || f.Metavar == "" && versionHelpRE.MatchString(f.Help) {
		c.dropped = append(c.dropped, flagNames(f)...)
		return
	}
	if slices.ContainsFunc(flagNames(f), func(n string) bool { return slices.Contains(c.dropped, n) }) {
		// "[-V]" in a usage, for the "-V, --version" left out above.
		return
	}
	if m := defaultRE.FindStringSubmatch(f.Help); m != nil {
		if v, ok := defaultValue(m[1]); ok {
			f.Default = v
		}
		if f.Metavar == "" && f.Long != "" {
			// click shows a switch pair's default by its name
			// ("[default: override]", "[default: no-override]").
			switch f.Default {
			case f.Long:
				f.Default = "true"
			case f.Negation:
				f.Default = "false"
			}
		}
	}
	tagType := helpTags(f)
	if m := choiceRE.FindStringSubmatch(f.Metavar); m != nil {
		f.Choices = strings.Split(m[1], ",")
	} else if listed != "" {
		f.Choices = strings.Split(listed, "|")
	} else if m := leadingChoicesRE.FindStringSubmatch(f.Help); m != nil && f.Metavar != "" && f.Choices == nil {
		// "[auto|yaml|json] parse format for input": the help opens
		// with the values it takes.
		f.Choices = strings.Split(m[1], "|")
	} else if f.Metavar != "" && f.Choices == nil {
		f.Choices = proseChoices(f.Help)
	}
	if f.Metavar == "" {
		// Help that names a value ("file to read from", "number of spaces
		// to use") tells a flag that takes one from a switch, when the
		// usage shows no placeholder.
		switch {
		case fileHelpRE.MatchString(f.Help):
			f.Metavar = "FILE"
		case countHelpRE.MatchString(f.Help):
			f.Metavar = "N"
		}
	}
	f.Type = guessFlagType(f)
	switch tagType {
	case "array":
		multi = true
	case "":
	default:
		f.Type = tagType
	}
	if f.Default != nil {
		f.Default = convert(f.Default.(string), f.Type)
	}
	if multi {
		f.Type, f.Item, f.Default = "array", f.Type, nil
	}
	if c.flag(f.Long, f.Short) == nil {
		c.Flags = append(c.Flags, f)
	}
}

// versionHelpRE finds the help of a switch that prints the program's
// version ("-V  Print the package version.", "Displays the currently
// installed version of isort."), whatever its name; versionNameRE the
// names of such switches.
var (
	versionHelpRE = lazyregexp.New(`(?i)^(?:print|show|display|output)s?\s+(?:the\s+)?(?:\w+\s+){0,2}version(?:\s+(?:number|info(?:rmation)?|string))?(?:\s+of\s+[\w.-]+)?(?:\s+and\s+exit)?\.?$`)
	versionNameRE = lazyregexp.New(`^version(?:[-_](?:number|info|string))?$`)
)

// setNames names f by the option's names: the longest "--" name (else
// the longest one-dash long name, Go's), the first letter; every other
// name is an alias, written with its dashes.
func (f *Flag) setNames(longs, goLongs, shorts []string) {
	f.Long, f.Dashes = longestName(longs), "--"
	if f.Long == "" {
		f.Long, f.Dashes = longestName(goLongs), "-"
		if f.Long == "" {
			f.Dashes = ""
		}
	}
	if len(shorts) > 0 {
		f.Short = shorts[0]
	}
	for _, n := range longs {
		if n != f.Long {
			f.Aliases = append(f.Aliases, "--"+n)
		}
	}
	for _, n := range goLongs {
		if n != f.Long {
			f.Aliases = append(f.Aliases, "-"+n)
		}
	}
	for _, n := range shorts {
		if n != f.Short {
			f.Aliases = append(f.Aliases, "-"+n)
		}
	}
}

// longestName returns the longest of an option's names, the first of
// those as long: the one that says most of what it does ("--ac,
// --atomic" is atomic).
func longestName(names []string) string {
	best := ""
	for _, n := range names {
		if len(n) > len(best) {
			best = n
		}
	}
	return best
}

// flagNames returns every name of a flag, with its dashes.
func flagNames(f *Flag) []string {
	var out []string
	if f.Long != "" {
		out = append(out, f.Dashes+f.Long)
	}
	if f.Short != "" {
		out = append(out, "-"+f.Short)
	}
	return append(out, f.Aliases...)
}

// optionalMetaRE finds a value in brackets alone: "[options]", "[<level>]",
// "[arg[,...]]" (not "[WHAT ...]", several values).
var optionalMetaRE = lazyregexp.New(`^\[<?[A-Za-z][^\s]*\]$`)

// listedMetaRE finds a metavar that lists the values: "[always|never|auto]".
var listedMetaRE = lazyregexp.New(`^[\[({]([A-Za-z0-9_.+-]+(?:\|[A-Za-z0-9_.+-]+)+)[\])}]$`)

// placeholderWord reports whether w stands for a value in a flag's term:
// "NAME", "<name>", "[WHAT", "...]", "...".
func placeholderWord(w string) bool {
	angle := strings.Contains(w, "<")
	w = strings.Trim(strings.TrimSuffix(strings.Trim(w, "[]"), "..."), "[]<>")
	if w == "" {
		return true // "..."
	}
	return metaWordRE.MatchString(w) && (angle || w == strings.ToUpper(w) && w != strings.ToLower(w))
}

// goTypeWords are the type names Go's flag package and cobra print as
// metavars.
var goTypeWords = map[string]string{
	"string": "string", "int": "integer", "int64": "integer", "uint": "integer", "uint64": "integer",
	"float": "number", "float64": "number", "float32": "number", "duration": "string", "value": "string",
	"bool": "boolean", "strings": "array", "stringSlice": "array", "stringArray": "array", "ints": "array",
	"count": "integer",
}

var (
	intMetaRE = lazyregexp.New(`(?i)^(n|num|number|count|int|integer|k|depth|level|limit|size|pixels|port|bins|lines|width|height|max|min|days|seconds|secs|len|length|index|idx|times|repeat|workers|jobs|threads|year|top)$`)
	numMetaRE = lazyregexp.New(`(?i)^(float|factor|score|ratio|pct|percent|rate|fraction|threshold|tolerance|t|m|x|y|amount|value|weight|scale|prob|probability|alpha|quantile)$`)
)

var (
	fileHelpRE  = lazyregexp.New(`(?i)^(?:the\s+)?(?:input\s+)?(?:file|path)(?:\s*name)?\s+(?:to|of|for|from|with)\b`)
	countHelpRE = lazyregexp.New(`(?i)^(?:the\s+)?(?:number|count|amount)\s+of\b`)
)

func guessFlagType(f *Flag) string {
	if f.Metavar == "" {
		return "boolean"
	}
	if t, ok := goTypeWords[f.Metavar]; ok {
		return t
	}
	if strings.EqualFold(f.Metavar, "boolean") || strings.EqualFold(f.Metavar, "bool") {
		return "boolean" // click's "--export BOOLEAN": true or false, as a value
	}
	if slices.ContainsFunc(f.Choices, func(c string) bool { _, err := strconv.ParseFloat(c, 64); return err != nil }) {
		return "string" // a "level" that is one of major, minor, patch
	}
	if d, ok := f.Default.(string); ok && d != "" {
		if _, err := strconv.ParseInt(d, 10, 64); err == nil {
			return "integer"
		}
		if _, err := strconv.ParseFloat(d, 64); err == nil {
			return "number"
		}
		return "string"
	}
	if intMetaRE.MatchString(f.Metavar) {
		return "integer"
	}
	if numMetaRE.MatchString(f.Metavar) && len(f.Metavar) > 1 {
		return "number"
	}
	return "string"
}

func convert(v, typ string) any {
	switch typ {
	case "integer":
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return n
		}
		return nil
	case "number":
		if x, err := strconv.ParseFloat(v, 64); err == nil {
			return x
		}
		return nil
	case "boolean":
		if b, err := strconv.ParseBool(v); err == nil {
			return b
		}
		return nil
	case "array":
		return nil
	}
	if v == "" || strings.HasPrefix(v, "none") || strings.EqualFold(v, "None") || strings.HasPrefix(v, "$") || streamWord(v) {
		return nil
	}
	return v
}

// streamWord reports whether a default names a standard stream ("stdout",
// "standard input", "-"): the absence of a file, not a value to pass.
func streamWord(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "-", "stdin", "stdout", "stderr", "standard input", "standard output", "the standard output", "the terminal", "the screen":
		return true
	}
	return false
}

// usageArgs completes the positional arguments from the usage line: their
// order, which are optional and which take several values. Arguments the
// help did not list are added from the usage.
//
// A help may show several forms ("age -r KEY [INPUT]", "age --decrypt
// [INPUT]"): the arguments of all count, in the order first seen, and one
// that some form with arguments of its own leaves out is optional. A form
// without arguments ("tool --version") says nothing of them.
func usageArgs(c *Command, forms []string) {
	if forms == nil {
		forms = []string{c.Usage}
	}
	hasSubs := len(c.Subs) > 0
	var toks []usageTok
	var seen []map[string]bool
	for _, form := range forms {
		ft := usageTokens(form, hasSubs)
		if len(ft) == 0 {
			continue
		}
		names := map[string]bool{}
		for _, t := range ft {
			key := strings.ToUpper(t.name)
			names[key] = true
			if j := slices.IndexFunc(toks, func(o usageTok) bool { return strings.ToUpper(o.name) == key }); j >= 0 {
				toks[j].optional = toks[j].optional || t.optional
				toks[j].variadic = toks[j].variadic || t.variadic
				continue
			}
			toks = append(toks, t)
		}
		seen = append(seen, names)
	}
	for j := range toks {
		for _, names := range seen {
			if !names[strings.ToUpper(toks[j].name)] {
				toks[j].optional = true
			}
		}
	}
	if len(toks) == 0 {
		return
	}
	known := map[string]*Arg{}
	for _, a := range c.Args {
		known[strings.ToUpper(a.Name)] = a
	}
	var fromUsage []*Arg
	for _, t := range toks {
		if a, ok := known[strings.ToUpper(t.name)]; ok {
			a.Optional = a.Optional || t.optional
			a.Variadic = a.Variadic || t.variadic
			continue
		}
		if len(c.Args) == 0 {
			fromUsage = append(fromUsage, &Arg{Name: t.name, Optional: t.optional, Variadic: t.variadic})
		}
	}
	if len(c.Args) == 0 {
		c.Args = fromUsage
	}
}

// alternativeName returns the placeholder naming a group of alternatives
// when every alternative is a placeholder or "-" (standard input), else "".
func alternativeName(group string) string {
	name := ""
	for _, alt := range strings.Split(strings.Trim(group, "()"), "|") {
		bare := strings.Trim(alt, "<>")
		switch {
		case alt == "-":
		case bare != "" && metaWordRE.MatchString(alt) && (strings.HasPrefix(alt, "<") || bare == strings.ToUpper(bare) && bare != strings.ToLower(bare)):
			if name == "" {
				name = alt
			}
		default:
			return ""
		}
	}
	return name
}

// phraseArgRE finds a placeholder written as words: "[files or
// directories]", "<file or url>".
var phraseArgRE = lazyregexp.New(`[\[<]([a-z]+(?:\s+(?:or|and)\s+[a-z]+)+)(\.\.\.)?[\]>]`)

// phraseArg turns a placeholder written as words into the usual form
// ("[FILES...]") when its words name files; other phrases stay as they are.
func phraseArg(m string) string {
	sub := phraseArgRE.FindStringSubmatch(m)
	words := strings.Fields(sub[1])
	for _, w := range words {
		if w != "or" && w != "and" && !pathNameRE.MatchString(w) && w != "directories" && w != "url" && w != "urls" {
			return m
		}
	}
	name := strings.ToUpper(words[0])
	if strings.HasSuffix(words[0], "s") || sub[2] != "" {
		name += "..."
	}
	if strings.HasPrefix(m, "<") {
		return name
	}
	return "[" + name + "]"
}

// lastWord reports whether fields[i] is the usage's last word but for
// optional groups and "...".
func lastWord(fields []string, i int) bool {
	for _, f := range fields[i+1:] {
		if !strings.HasPrefix(f, "[") && !strings.HasPrefix(f, "...") && !strings.HasSuffix(f, "]") {
			return false
		}
	}
	return true
}

type usageTok struct {
	name               string
	optional, variadic bool
}

var metaWordRE = lazyregexp.New(`^<?[A-Za-z][A-Za-z0-9_.=-]*>?$`)

// usageTokens returns the positional placeholders of a usage line, after
// the program and subcommand words: "FILE", "[FILE]", "FILE...",
// "VALUE,...", "[EL=PCT ...]", "<file>". Flag groups ("[-n N]") and words
// such as COMMAND, OPTIONS and [flags] are skipped. A lower-case word is a
// placeholder when it repeats as the optional rest of a list ("toml-file
// [toml-file ...]"), or, for a program without subcommands (hasSubs
// false), when it is the last word after the options ("he [--escape]
// string").
func usageTokens(usage string, hasSubs bool) []usageTok {
	fields := strings.Fields(phraseArgRE.Regexp().ReplaceAllStringFunc(usage, phraseArg))
	// repeated reports whether fields[i] is followed by "[itself ...]".
	repeated := func(i int) bool {
		if i+1 >= len(fields) || !strings.HasPrefix(fields[i+1], "[") {
			return false
		}
		next := strings.TrimSuffix(strings.Trim(fields[i+1], "[]"), "...")
		more := strings.HasSuffix(strings.TrimRight(fields[i+1], "]"), "...") || i+2 < len(fields) && strings.HasPrefix(fields[i+2], "...")
		return next == fields[i] && more
	}

	var out []usageTok
	depth, pdepth := 0, 0 // within [...] and (...)
	flagGroup, parenFlags := false, false
	started := false
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if depth == 0 && pdepth == 0 && shellRedirect(f) {
			break // "jp PATH < doc.json": what follows is the shell's, not an operand
		}
		opens := strings.Count(f, "[")
		closes := strings.Count(f, "]")
		core := strings.Trim(f, "[]()")
		variadic := strings.HasSuffix(core, "...") || (i+1 < len(fields) && strings.Trim(fields[i+1], "[]") == "...") || repeated(i)
		core = strings.Trim(strings.TrimSuffix(core, "..."), "[]()") // click's "[PATHS]..."
		core = strings.TrimSuffix(core, ",")                         // "VALUE,...": a list
		optional := depth > 0 || opens > 0
		if depth == 0 && opens > 0 {
			flagGroup = strings.HasPrefix(core, "-")
		}
		depth += opens - closes
		if depth < 0 {
			depth = 0
		}
		// "(-r RECIPIENT | -R PATH)...": a required choice of options,
		// none of its words a positional argument.
		popens, pcloses := strings.Count(f, "("), strings.Count(f, ")")
		if pdepth == 0 && popens > 0 {
			parenFlags = strings.HasPrefix(core, "-")
		}
		inParens := pdepth > 0 || popens > 0
		pdepth = max(pdepth+popens-pcloses, 0)
		if strings.HasPrefix(core, "-") || (optional && flagGroup) || (inParens && parenFlags) {
			started = true
			continue
		}
		if strings.Contains(core, "|") {
			// "FILE|URL|-": one argument, named by its first placeholder;
			// "start|stop" is a choice of literal words.
			core = alternativeName(core)
		}
		if core == "" || core == "..." || strings.HasPrefix(core, "{") {
			continue
		}
		up := strings.ToUpper(strings.Trim(core, "<>"))
		// A placeholder is upper-case (FILE) or in angle brackets (<file>);
		// a lower-case word alone in square brackets ("pup [flags]
		// [selectors]") is one too.
		whole := strings.HasPrefix(f, "[") && (strings.HasSuffix(strings.TrimSuffix(f, "..."), "]") && opens == 1 && closes == 1 ||
			opens == 1 && closes == 0 && i+1 < len(fields) && fields[i+1] == "...]")
		isMeta := metaWordRE.MatchString(core) && (core == strings.ToUpper(core) && strings.ToLower(core) != core || strings.HasPrefix(core, "<") || whole)
		if !isMeta && metaWordRE.MatchString(core) && i > 0 && !optional && closes == 0 && (repeated(i) || started && !hasSubs && lastWord(fields, i)) {
			isMeta = true
		}
		if !isMeta {
			// the program and subcommand words; a lower-case word after
			// the placeholders began is a literal
			continue
		}
		started = true
		switch up {
		case "COMMAND", "OPTIONS", "FLAGS", "ARGS", "ARGUMENTS", "SUBCOMMAND", "CMD", "OPTION":
			continue
		}
		name := strings.Trim(core, "<>")
		if n := len(out); n > 0 && strings.EqualFold(out[n-1].name, name) {
			// "<version> [<version> [...]]": one argument, repeated.
			out[n-1].variadic = true
			continue
		}
		out = append(out, usageTok{name: name, optional: optional, variadic: variadic})
	}
	return out
}

var (
	// proseChoiceRE finds a list of values written in a flag's help: "Level
	// can be one of: major, minor, patch, or release", "choices are json,
	// yaml and toml", "must be either asc or desc", "Valid values:
	// standard, doublestar, gitignore".
	proseChoiceRE = lazyregexp.New(`(?i)\b(?:one of|choices? (?:are|is)|(?:possible|valid|allowed|accepted|supported) values(?: (?:are|is))?|must be either|either)\s*:?\s*([^.;()]+)`)
	// quotedChoiceRE finds quoted values listed after a colon: `Format of
	// output: "go" or "jsonl"`.
	quotedChoiceRE = lazyregexp.New(`:\s*((?:["'\x60][\w.+-]+["'\x60]\s*(?:,\s*(?:or\s+)?|\bor\s+|\|\s*))+["'\x60][\w.+-]+["'\x60])`)
	choiceItemRE   = lazyregexp.New(`^["'\x60]?([A-Za-z0-9][\w.+-]*)["'\x60]?$`)
)

// proseChoices returns the values a help text lists as the only ones a
// flag takes, or nil: at least two, each one word.
func proseChoices(help string) []string {
	m := proseChoiceRE.FindStringSubmatch(help)
	if m == nil {
		m = quotedChoiceRE.FindStringSubmatch(help)
	}
	if m == nil {
		return nil
	}
	var out []string
	for _, part := range strings.FieldsFunc(strings.NewReplacer(" or ", ",", " and ", ",").Replace(" "+m[1]+" "), func(r rune) bool { return r == ',' || r == '|' || r == '/' }) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		c := choiceItemRE.FindStringSubmatch(part)
		if c == nil {
			return nil // a phrase, not a list of values
		}
		if !slices.Contains(out, c[1]) {
			out = append(out, c[1])
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}
