package static

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/lazyregexp"
)

// compose turns the tools of a repository into a bundle: one skill per
// visible leaf command of each tool (the tool itself when it has none).
func compose(r *repo, tools []*Tool, readmeText string, opts Options) *bundle.Bundle {
	b := &bundle.Bundle{Version: 1}
	name := opts.Name
	if len(tools) == 1 {
		name = tools[0].Name
	}
	b.Name = name
	b.Repo = &bundle.RepoSource{Source: opts.Source, Ref: opts.Ref}
	if opts.Source == "" {
		b.Repo = nil
	}
	vocab := domainWords(readmeText, tools)
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
		for _, s := range t.Root.Subs {
			names = append(names, s.Name)
		}
	}
	sections := readmeSections(readmeText, names)
	project := firstSentences(readmeSummary(readmeText), 1, 200)
	// The README's opening sentence describes at most one skill, of the
	// tool named like the repository (else the first): given to several,
	// it would leave a router unable to tell them apart.
	owner := 0
	for i, t := range tools {
		if strings.EqualFold(t.Name, opts.Name) {
			owner = i
			break
		}
	}
	seenSetup := map[string]bool{}
	for ti, t := range tools {
		for _, c := range t.Setup {
			k := strings.Join(c, "\x00")
			if !seenSetup[k] {
				seenSetup[k] = true
				b.Setup = append(b.Setup, bundle.Command(c))
			}
		}
		b.Check = append(b.Check, bundle.Command(t.Check))
		prefix := ""
		if len(tools) > 1 {
			prefix = t.Name
		}
		if len(t.Skills) > 0 {
			for _, sk := range t.Skills {
				sk.Tags = tagsFor(sk, vocab)
				b.Skills = append(b.Skills, sk)
			}
			continue
		}
		// So does the package's summary, which every console script of a
		// Python or Node package shares: the owner's skills say it.
		st := t
		if ti != owner && t.Summary != "" && t.Summary == tools[owner].Summary {
			c := *t
			c.Summary = ""
			st = &c
		}
		kept, notes := readmeLeaves(t, leaves(t), readmeText)
		kept, same := siblingLeaves(t, kept)
		if r != nil {
			r.leftOut = append(append(r.leftOut, notes...), same...)
		}
		var own []bundle.Skill // this tool's skills, of the commands cmds
		var cmds []*Command
		for _, leaf := range kept {
			p := ""
			if ti == owner {
				p = project
			}
			sk := skillFor(st, leaf.path, leaf.cmd, prefix, sections, p, vocab)
			sk.Examples = append(sk.Examples, readmeExamples(readmeText, t.Name, leaf.path, subNames(t))...)
			if p != "" && strings.Contains(sk.Description, strings.TrimSuffix(sentence(p), ".")) {
				project = ""
			}
			for _, m := range splitModes(sk, leaf.cmd) {
				own = append(own, withStdin(m, t, leaf.path, leaf.cmd, readmeText))
				cmds = append(cmds, leaf.cmd)
			}
		}
		if len(kept) > 1 {
			siblingsStdin(own, cmds)
		}
		b.Skills = append(b.Skills, own...)
	}
	dedupeIDs(b.Skills)
	b.Description = bundleDescription(tools, readmeText, b.Skills)
	return b
}

type leaf struct {
	path []string
	cmd  *Command
}

// leaves lists the commands that become skills: the visible subcommands
// without visible subcommands of their own, or the tool itself.
//
// A listing under a group that takes an input file ("dotenv -f .env
// list") lists the caller's data, not the tool's configuration, and is a
// skill. A command that runs another program the caller names ("dotenv
// run COMMAND...", "poetry run CMD") is none: it would hand any caller
// the machine.
func leaves(t *Tool) []leaf {
	var out []leaf
	var walk func(c *Command, path []string, inputFile bool)
	walk = func(c *Command, path []string, inputFile bool) {
		inputFile = inputFile || takesInputFile(c)
		var vis []*Command
		for _, s := range c.Subs {
			if !s.Hidden && (!informational(s) || inputFile) && !runsCommand(s) {
				vis = append(vis, s)
			}
		}
		if len(vis) == 0 {
			if len(path) == 0 || !runsCommand(c) {
				out = append(out, leaf{path: path, cmd: c})
			}
			return
		}
		for _, s := range vis {
			walk(s, append(append([]string{}, path...), s.Name), inputFile)
		}
	}
	walk(t.Root, nil, false)
	return out
}

// takesInputFile reports whether a command has an option naming the file
// it reads (-f/--file, --input), not a configuration.
func takesInputFile(c *Command) bool {
	for _, f := range c.Flags {
		if isPathFlag(f) && !isOutput(f) && (inputFlagRE.MatchString(f.Long) || f.Long == "" && inputFlagRE.MatchString(f.Short)) {
			return true
		}
	}
	return false
}

// commandArgRE names an operand that is a command line to run.
var commandArgRE = lazyregexp.New(`(?i)^(command|commandline|command[-_]line|cmd|cmdline|cmd[-_]line|argv|program)$`)

// runsCommand reports whether a command's operand is a command line it
// runs: COMMAND... or "the command to execute".
func runsCommand(c *Command) bool {
	for _, a := range c.Args {
		if commandArgRE.MatchString(strings.Trim(a.Name, "<>[].")) && (a.Variadic || runHelpRE.MatchString(a.Help+" "+c.Summary)) {
			return true
		}
	}
	return false
}

var runHelpRE = lazyregexp.New(`(?i)\b(run|runs|execute|executes|exec|invoke|spawn)\b`)

var listingRE = lazyregexp.New(`(?i)^(list|show|print|display)\b`)

// informational reports whether a subcommand only reports the tool's own
// configuration (its rules, formats, languages): it takes no positional
// input and its summary says it lists something. Such commands are not a
// capability a caller would hand work to.
func informational(c *Command) bool {
	if len(c.Args) > 0 || len(c.Subs) > 0 {
		return false
	}
	for _, f := range c.Flags {
		if isPathFlag(f) && !isOutput(f) {
			return false
		}
	}
	return listingRE.MatchString(c.Summary) && c.Usage != "" || listingRE.MatchString(c.Summary) && len(c.Flags) == 0
}

var idCleanRE = lazyregexp.New(`[^a-z0-9._-]+`)

func skillID(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	id := idCleanRE.ReplaceAllString(strings.ToLower(strings.Join(keep, "-")), "-")
	id = strings.Trim(id, "-._")
	if id == "" {
		return "run"
	}
	return id
}

func dedupeIDs(skills []bundle.Skill) {
	seen := map[string]int{}
	for i := range skills {
		id := skills[i].ID
		if n := seen[id]; n > 0 {
			skills[i].ID = fmt.Sprintf("%s-%d", id, n+1)
		}
		seen[id]++
	}
}

func skillFor(t *Tool, path []string, c *Command, prefix string, sections map[string]readmeNote, project string, vocab []string) bundle.Skill {
	id := skillID(append([]string{prefix}, path...)...)
	if len(path) == 0 {
		id = skillID(t.Name)
	}
	sk := bundle.Skill{ID: id}
	sk.Name = strings.TrimSpace(t.Name + " " + strings.Join(path, " "))
	sk.Description = describe(t, path, c, sections, project)
	props := map[string]any{}
	var required []any
	run := append([]string{}, t.Prog...)
	if t.Flat {
		sk.Run = bundle.Command(append(run, path...))
		sk.Tags = tagsFor(sk, vocab)
		return sk
	}
	used := map[string]bool{}
	pname := func(raw string) string {
		n := paramName(raw)
		if bundle.IsBuiltin(n) {
			n += "_value"
		}
		for used[n] {
			n += "_arg"
		}
		used[n] = true
		return n
	}
	flagArgs := func(flags []*Flag) []string {
		var out []string
		for _, f := range flags {
			flag := "-" + f.Short
			if f.Long != "" {
				flag = f.Dashes + f.Long
				if flag == f.Long {
					flag = "--" + f.Long
				}
			}
			if on, _ := f.Default.(bool); on && f.Type == "boolean" && f.Negation != "" && f.Metavar == "" {
				// A switch on by default is turned off by its negative
				// form, a switch of its own.
				n := pname(f.Negation)
				props[n] = negationSchema(f)
				out = append(out, "--"+f.Negation, "{{"+n+"}}")
				continue
			}
			n := pname(flagParamName(f, flags, c.Args))
			props[n] = flagSchema(f)
			switch {
			case f.Type == "boolean" && f.Metavar != "":
				// "--export BOOLEAN" takes true or false as a value;
				// joined to the flag, the value is not read as a switch.
				out = append(out, joined(f, flag)+"{{"+n+"}}")
			case f.OptionalValue && f.Attached:
				// "--color[=WHEN]": the flag alone, or with a value
				// joined to it, a parameter of its own.
				v := pname(n + "_value")
				props[v] = optionalValueSchema(f)
				out = append(out, joined(f, flag)+"{{"+v+"}}", flag, "{{"+n+"}}")
			default:
				out = append(out, flag, "{{"+n+"}}")
			}
			if f.Required {
				required = append(required, n)
			}
		}
		return out
	}
	// The command's own options are named first: an inherited one with
	// the same name takes a suffix, not they.
	own := flagArgs(c.Flags)
	for i, parent := range parentsOf(t.Root, path) {
		run = append(run, flagArgs(inheritedFlags(parent, c))...)
		run = append(run, path[i])
	}
	var operands []string
	for _, a := range c.Args {
		n := pname(a.Name)
		props[n] = argSchema(a)
		operands = append(operands, "{{"+n+"}}")
		if !a.Optional {
			required = append(required, n)
		}
	}
	if slices.ContainsFunc(c.Flags, func(f *Flag) bool { return f.OptionalValue && !f.Attached }) {
		// An option whose value may be left out ("-m [options]") takes
		// the next word for its value: the operands go first, where no
		// option can take them ("uglifyjs app.js -c -m").
		run = append(append(run, operands...), own...)
	} else {
		run = append(append(run, own...), operands...)
	}
	sk.Params = map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		sk.Params["required"] = required
	}
	sk.Run = bundle.Command(run)
	sk.Examples = examplesFor(t, path, c)
	sk.Tags = tagsFor(sk, vocab)
	return sk
}

// parentsOf returns the commands above the one at path, the root first:
// one for each word of path.
func parentsOf(root *Command, path []string) []*Command {
	var out []*Command
	c := root
	for _, name := range path {
		out = append(out, c)
		if c != nil {
			c = c.find(name)
		}
	}
	return out
}

// inheritedFlags returns the options of parent that a subcommand leaf
// carries, to be given before the subcommand's name: click's and
// argparse's group options ("dotenv -f .env get KEY") belong to the group,
// and the subcommand's help does not list them. A subcommand whose help
// lists some of them itself (cobra's Global Flags, argparse's parents=)
// says which apply, and inherits nothing more.
//
// Only options the group's own help lists are its own: a Go program's
// flags read from source may belong to its subcommands' flag sets, which
// the root's help does not show ("imgtool info" is no "imgtool --quality
// 90 info").
func inheritedFlags(parent, leaf *Command) []*Flag {
	if parent == nil {
		return nil
	}
	var out []*Flag
	for _, f := range parent.Flags {
		if leaf.flag(f.Long, f.Short) != nil {
			return nil
		}
		if helpLists(parent.Help, f) {
			out = append(out, f)
		}
	}
	return out
}

// helpLists reports whether a help text names flag f (--long or -s).
func helpLists(help string, f *Flag) bool {
	for _, name := range []string{f.Long, f.Short} {
		if name == "" {
			continue
		}
		dash := "--"
		if len(name) == 1 {
			dash = "-"
		}
		for rest := help; ; {
			i := strings.Index(rest, dash+name)
			if i < 0 {
				break
			}
			end := i + len(dash) + len(name)
			before := i == 0 || !isWordByte(rest[i-1]) && rest[i-1] != '-'
			after := end == len(rest) || !isWordByte(rest[end]) && rest[end] != '-'
			if before && after {
				return true
			}
			rest = rest[end:]
		}
	}
	return false
}

func isWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// metaNameRE takes the name from a metavar: "LEXER", "FILTER[:options]",
// "OPTION=value", "<name>".
var metaNameRE = lazyregexp.New(`^<?([A-Za-z][A-Za-z0-9_-]*)`)

// flagParamName returns the raw name of a flag's parameter: the name its
// source gives it (argparse's dest); its long name;
// for a flag with a short name only, its metavar ("-l LEXER" → lexer,
// "-c TEXT" → text) when that is a word no other flag of the command
// or argument uses, so that -f FORMATTER and -F FILTER are not f and
// f_arg; else its letter.
func flagParamName(f *Flag, flags []*Flag, args []*Arg) string {
	if f.Name != "" {
		return f.Name
	}
	if f.Long != "" {
		return f.Long
	}
	m := metaNameRE.FindStringSubmatch(f.Metavar)
	if m == nil || len(m[1]) < 2 || genericMeta(m[1]) {
		return f.Short
	}
	for _, o := range flags {
		if o == f {
			continue
		}
		if om := metaNameRE.FindStringSubmatch(o.Metavar); om != nil && strings.EqualFold(om[1], m[1]) || strings.EqualFold(o.Long, m[1]) {
			return f.Short
		}
	}
	for _, a := range args {
		if strings.EqualFold(paramName(a.Name), paramName(m[1])) {
			return f.Short
		}
	}
	return m[1]
}

// genericMeta reports whether a metavar names only a type or a value in
// general ("string", "ARG", "VALUE"), not what the value is.
func genericMeta(m string) bool {
	if _, ok := goTypeWords[m]; ok {
		return true
	}
	switch strings.ToLower(m) {
	case "arg", "args", "argument", "value", "val", "values", "str", "string", "option", "options", "opt", "param", "x":
		return true
	}
	return false
}

var paramRE = lazyregexp.New(`[^a-z0-9]+`)

// paramName turns a flag name ("molar-mass|m"), a metavar ("FILE.csv",
// "EL=PCT") or a dest into a parameter name.
func paramName(raw string) string {
	long, short, _ := strings.Cut(raw, "|")
	if long == "" {
		long = short
	}
	s := strings.ToLower(long)
	if base, ext, ok := strings.Cut(s, "."); ok && len(ext) <= 5 && base != "" {
		s = base
	}
	s = strings.Trim(paramRE.ReplaceAllString(s, "_"), "_")
	if s == "" {
		s = "arg"
	}
	if s[0] >= '0' && s[0] <= '9' {
		s = "p_" + s
	}
	return s
}

var (
	pathNameRE = lazyregexp.New(`(?i)^(file|files|filename|path|paths|dir|directory|folder|input|inputs|infile|src|source|image|images|img|photo|picture|html|csv|tsv|json|yaml|pdf|doc|document|archive|zip|tar|data|dataset|config|template|script|txt|md|markdown|log|logfile|db|database)s?$`)
	pathExtRE  = lazyregexp.New(`(?i)^[a-z]+\.[a-z0-9]{1,5}$`)
	// pathLeadRE: a name that opens by saying it is a file ("file to
	// scan", "path_to_config", "files-to-check").
	pathLeadRE = lazyregexp.New(`(?i)^(?:file|filename|path)s?[_\-\s]`)
	pathHelpRE = lazyregexp.New(`(?i)^(?:(?:an?|the|one|or|more|input|local|[A-Z0-9.,/-]+|text|plain)\s+){0,4}(?:file|files|directory|folder|path|image|document)s?\b`)
	outNameRE  = lazyregexp.New(`(?i)^(o|out|output|outfile|output[-_]?file|output[-_]?dir|outdir|save|save[-_]to|dest|destination|write|to|target)$`)
	outHelpRE  = lazyregexp.New(`(?i)^(write|save|store|output|dump|export)\b`)
)

func isOutput(f *Flag) bool {
	if f.Output && f.Type == "string" {
		return true
	}
	// A flag with a fixed set of values ("--language {python,php}") names
	// no file, whatever its help's verb.
	// Nor does one whose value is a format ("--output FORMAT", "the
	// format of the output data").
	return f.Type == "string" && len(f.Choices) == 0 && !formatMetaRE.MatchString(strings.Trim(f.Metavar, "<>")) && !formatHelpRE.MatchString(f.Help) &&
		(outNameRE.MatchString(f.Long) || (f.Long == "" && f.Short == "o") || outHelpRE.MatchString(f.Help))
}

var (
	formatMetaRE = lazyregexp.New(`(?i)^(format|fmt|type|kind|style|mode)$`)
	formatHelpRE = lazyregexp.New(`(?i)^(?:(?:the|an?|set|sets|select|selects|specify|specifies|choose|use)\s+)*(?:(?:output|result|data)\s+)?format\b|\b(?:output|result)\s+format\b|\bformat\s+(?:of|for)\s+(?:the\s+)?(?:output|result)`)
)

// filterFlagRE names flags that take names or patterns to leave out or
// keep ("--exclude-dir .git"), not files to read.
var filterFlagRE = lazyregexp.New(`(?i)^(exclude|include|skip|only)[-_]`)

func isPathFlag(f *Flag) bool {
	if f.Type != "string" && f.Type != "array" || f.Metavar == "" || filterFlagRE.MatchString(f.Long) {
		return false
	}
	m := strings.Trim(f.Metavar, "<>")
	return pathNameRE.MatchString(m) || pathExtRE.MatchString(m) && pathNameRE.MatchString(strings.SplitN(m, ".", 2)[0]) ||
		fileWordRE.MatchString(lastNamePart(f.Long)) || strings.HasSuffix(strings.ToLower(f.Long), "path") || strings.HasSuffix(strings.ToLower(f.Long), "dir")
}

// fileWordRE matches a name part that names a file ("file", "infile",
// "filename", "logfile"), never a word that merely ends in the letters
// ("profile").
var fileWordRE = lazyregexp.New(`(?i)^(?:in|input|out|output|log|key|cert|conf|config|data|src|source|target)?(?:file|filename|filepath)s?$`)

// lastNamePart returns the last part of an option's name split on - and _:
// the head of the compound ("link-patterns-file" → file, "use-file-vars"
// → vars, which is not a file).
func lastNamePart(name string) string {
	parts := strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' })
	if len(parts) == 0 {
		return ""
	}
	return parts[len(parts)-1]
}

func isPathArg(a *Arg) bool {
	if a.Type != "" && a.Type != "string" {
		return false
	}
	// A numbered operand ("yaml_file1", "path2") is named as the others.
	n := strings.TrimRight(a.Name, "0123456789")
	return pathNameRE.MatchString(n) || pathExtRE.MatchString(n) || pathLeadRE.MatchString(n) || strings.HasSuffix(strings.ToLower(n), "file") ||
		strings.HasSuffix(strings.ToLower(n), "path") || strings.HasSuffix(a.Help, "(file)") || pathHelpRE.MatchString(a.Help)
}

func flagSchema(f *Flag) map[string]any {
	s := map[string]any{}
	typ := f.Type
	if typ == "" {
		typ = "string"
	}
	s["type"] = typ
	desc := sentence(f.Help)
	switch {
	case typ == "array":
		item := map[string]any{"type": orString(f.Item)}
		switch {
		case isOutput(f):
			item["format"] = bundle.FormatOutput
			s["format"] = bundle.FormatOutput
		case isPathFlag(f):
			item["format"] = bundle.FormatPath
			s["format"] = bundle.FormatPath
		}
		s["items"] = item
	case isOutput(f):
		// The host confines a file parameter to the task's work directory.
		s["format"] = bundle.FormatOutput
		desc = strings.TrimSpace(desc + " A file name: the file is written in the task's work directory and returned.")
	case isPathFlag(f) && typ == "string":
		s["format"] = bundle.FormatPath
	case typ == "string" && len(f.Choices) == 0 && (f.Long != "" && bundle.OutputFlag("--"+f.Long) || f.Long == "" && bundle.OutputFlag("-"+f.Short)):
		// An output option judged to take a format or a name, not a
		// file ("--output FORMAT"): its value is held to a plain name,
		// which the bundle's loader accepts beside such an option.
		s["pattern"] = bundle.NamePattern
	}
	if desc != "" {
		s["description"] = desc
	}
	if f.Default != nil && typ != "boolean" && typ != "array" && !machinePath(f.Default) {
		if v := schemaValue(f.Default, typ); v != nil {
			s["default"] = v
		}
	}
	if b, ok := f.Default.(bool); ok && b && typ == "boolean" {
		// a switch on unless turned off ("--override/--no-override")
		s["default"] = true
	}
	if len(f.Choices) > 0 && typ == "string" {
		var enum []any
		for _, c := range f.Choices {
			enum = append(enum, c)
		}
		s["enum"] = enum
	}
	switch {
	case f.OptionalValue && f.Attached:
		// the switch; its value is a parameter of its own
		s = map[string]any{"type": "boolean"}
		if desc != "" {
			s["description"] = desc
		}
	case f.OptionalValue && typ != "array" && typ != "boolean":
		// "--compress [options]": true gives the flag alone, a value
		// gives the flag and the value. The first type is what a caller
		// usually gives: a switch, unless the values are listed.
		if e, ok := s["enum"].([]any); ok {
			s["type"] = []any{typ, "boolean"}
			s["enum"] = append(e, true)
		} else {
			s["type"] = []any{"boolean", typ}
		}
		delete(s, "default")
		if isOutput(f) {
			s["description"] = desc
		}
	}
	return s
}

// joined returns how a value is joined to a flag: "--name=", "-n=" (Go's
// one-dash names), "-n" (a short option).
func joined(f *Flag, flag string) string {
	if f.Long == "" {
		return flag
	}
	return flag + "="
}

// negationSchema is the schema of the negative form of a switch on by
// default ("--no-override").
func negationSchema(f *Flag) map[string]any {
	s := map[string]any{"type": "boolean"}
	d := "Turn off --" + f.Long + ", which is on by default"
	if h := strings.TrimSuffix(sentence(f.Help), "."); h != "" {
		d += " (" + f.Long + ": " + h + ")"
	}
	s["description"] = sentence(d)
	return s
}

// optionalValueSchema is the schema of the value of a flag whose value
// may be left out and is then joined to it ("--color=always").
func optionalValueSchema(f *Flag) map[string]any {
	s := map[string]any{"type": "string"}
	if isOutput(f) {
		s["format"] = bundle.FormatOutput
	}
	if d := sentence(f.Help); d != "" {
		s["description"] = sentence("The value of --" + f.Long + ": " + strings.TrimSuffix(d, "."))
	}
	if len(f.Choices) > 0 {
		var enum []any
		for _, c := range f.Choices {
			enum = append(enum, c)
		}
		s["enum"] = enum
	}
	return s
}

func argSchema(a *Arg) map[string]any {
	s := map[string]any{}
	typ := a.Type
	if typ == "" {
		typ = "string"
	}
	item := map[string]any{"type": typ}
	if isPathArg(a) && typ == "string" {
		item["format"] = "path"
	}
	if len(a.Choices) > 0 {
		var enum []any
		for _, c := range a.Choices {
			enum = append(enum, c)
		}
		item["enum"] = enum
	}
	if a.Variadic {
		s["type"] = "array"
		s["items"] = item
		if f, ok := item["format"]; ok {
			s["format"] = f
		}
		if !a.Optional {
			s["minItems"] = 1
		}
	} else {
		for k, v := range item {
			s[k] = v
		}
		if a.Default != nil && !machinePath(a.Default) {
			if v := schemaValue(a.Default, typ); v != nil {
				s["default"] = v
			}
		}
	}
	if d := sentence(strings.TrimSuffix(a.Help, " (file)")); d != "" {
		s["description"] = d
	}
	return s
}

// machinePath reports whether a default is a path of the machine the
// bundle was generated on ("/root/.config/pep8", "~/.cache"): absolute,
// it names the generating user's home or a place outside the repo, which
// a card must not carry and the machine that runs the skill may not have.
func machinePath(v any) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "~") || len(s) > 1 && filepath.IsAbs(s) || len(s) > 2 && s[1] == ':' && (s[2] == '\\' || s[2] == '/')
}

// schemaValue returns v if it fits typ, else nil.
func schemaValue(v any, typ string) any {
	switch x := v.(type) {
	case string:
		if typ == "string" {
			return x
		}
		return convert(x, typ)
	case float64:
		if typ == "integer" && x == float64(int64(x)) {
			return int64(x)
		}
		if typ == "number" {
			return x
		}
	case int64:
		if typ == "integer" {
			return x
		}
		if typ == "number" {
			return float64(x)
		}
	case bool:
		if typ == "boolean" {
			return x
		}
	}
	return nil
}

func orString(s string) string {
	if s == "" {
		return "string"
	}
	return s
}

// describe writes a skill's description from what the repository says of
// the command, the most telling first: its one-line summary, the README's
// one-line label of it, then the first sentence of its own longer help.
// Each is kept only when it adds words the earlier ones lack. Failing all
// of them: the README's section on the command, the tool's docs. project
// is the README's opening sentence, for a tool without a summary of its own.
func describe(t *Tool, path []string, c *Command, sections map[string]readmeNote, project string) string {
	var parts []string
	seen := map[string]bool{}
	add := func(s string, minNew int) {
		s = strings.TrimSpace(withoutOperandProse(s))
		if s == "" {
			return
		}
		words := contentWords(s)
		fresh := 0
		for _, w := range words {
			if !seen[w] {
				fresh++
			}
		}
		if fresh < minNew || len(parts) > 0 && fresh == 0 {
			return
		}
		for _, w := range words {
			seen[w] = true
		}
		parts = append(parts, sentence(s))
	}
	var note readmeNote
	if len(path) > 0 {
		note = sections[path[len(path)-1]]
	}
	toolSummary := firstSentences(firstParagraph(t.Summary), 1, 200)
	if toolSummary == "" {
		toolSummary = project
	}
	about := withoutOperandProse(unbanner(firstParagraph(c.About)))
	if len(path) == 0 && about == "" {
		about = withoutOperandProse(firstParagraph(t.Doc))
	}
	// The README's label and the help's first sentence often restate the
	// summary in other words; each must bring two words of its own or it
	// only lengthens the description. The help's later sentences are
	// details (formats, edge cases), left to the parameters' descriptions.
	first := firstSentences(about, 1, 320)
	summary := c.Summary
	if cut := strings.TrimRight(strings.TrimSpace(summary), ".…"); cut != strings.TrimSpace(summary) && cut != "" && strings.HasPrefix(first, strings.TrimRight(cut, ",;: ")) {
		// click shortens a command's help to "Execute SQL query against
		// an in-memory database,..." in the listing; the help says it whole.
		summary = ""
	}
	add(summary, 0)
	add(firstSentences(note.Line, 1, 240), 2)
	if len(contentWords(first)) < 4 {
		// "Sloc, Cloc and Code." names the tool; the next sentence says
		// what it does.
		first = firstSentences(about, 2, 320)
	}
	add(first, 2)
	if len(path) == 0 && len(seen) < 4 {
		// A tool's whole help can be "Slug string."; what the project says
		// of itself tells a router more.
		add(toolSummary, 2)
	}
	if len(parts) == 0 {
		add(firstSentences(note.Section, 1, 240), 0)
	}
	if len(parts) == 0 {
		add(toolSummary, 0)
	}
	if len(parts) == 0 {
		// Nothing said of it: what its help shows tells it from the
		// others — its usage and its first options.
		s := fmt.Sprintf("Run %s", t.Name)
		if len(path) > 0 {
			s = fmt.Sprintf("Run the %s command of %s", strings.Join(path, " "), t.Name)
		}
		if u := strings.Join(strings.Fields(c.Usage), " "); u != "" && len(u) <= 160 {
			s += " (usage: " + u + ")"
		}
		parts = append(parts, sentence(s))
		var opts []string
		for _, f := range c.Flags {
			if h := firstSentences(f.Help, 1, 100); h != "" {
				name := f.Dashes + f.Long
				if f.Dashes == "" {
					name = "--" + f.Long
				}
				if f.Long == "" {
					name = "-" + f.Short
				}
				opts = append(opts, name+": "+strings.TrimSuffix(h, "."))
			}
			if len(opts) == 2 {
				break
			}
		}
		if len(opts) > 0 {
			parts = append(parts, sentence("Options: "+strings.Join(opts, "; ")))
		}
	}
	return strings.Join(parts, " ")
}

// bannerRE matches the version a program's banner ends with: "Jsonnet
// linter v0.20.0", "mytool version 1.2.3 (abc123)".
var bannerRE = lazyregexp.New(`(?i)[\s,(-]+(?:version\s+|v)?\d+\.\d+(?:\.\d+)*(?:[-+][\w.+-]*)?(?:\s*\([^)]*\))?\.?$`)

// unbanner returns a help's opening line without the version it ends
// with, and nothing for a banner that only names the program and its
// version: a version is no description.
func unbanner(s string) string {
	loc := bannerRE.Regexp().FindStringIndex(s)
	if loc == nil || len(strings.Fields(s)) > 8 || strings.ContainsAny(strings.TrimRight(s[:loc[0]], "."), ".!?:") {
		// A sentence that ends in a number ("Needs Go 1.25 or ... 1.26")
		// is no banner.
		return s
	}
	rest := strings.TrimSpace(s[:loc[0]])
	if len(strings.Fields(rest)) < 2 {
		return ""
	}
	return rest
}

// contentWords returns the words of s that carry meaning, lower-cased and
// without a plural s: not stop words, not upper-case placeholders (FILE).
func contentWords(s string) []string {
	var out []string
	for _, w := range wordRE.FindAllString(s, -1) {
		lw := strings.ToLower(w)
		if len(lw) < 3 || stopWords[lw] || len(w) > 1 && w == strings.ToUpper(w) {
			continue
		}
		out = append(out, strings.TrimSuffix(lw, "s"))
	}
	return out
}

func firstParagraph(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "\n\n"); i >= 0 {
		s = s[:i]
	}
	return strings.Join(strings.Fields(s), " ")
}

var sentenceEndRE = lazyregexp.New(`[.!?](\s+|$)`)

// firstSentences returns up to n sentences of s, at most max bytes.
func firstSentences(s string, n, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return ""
	}
	end := len(s)
	locs := sentenceEndRE.FindAllStringIndex(s, -1)
	count := 0
	for _, l := range locs {
		// "e.g." and single letters are not sentence ends.
		if l[0] >= 2 && (s[l[0]-2] == '.' || s[l[0]-2] == ' ' || l[0] >= 3 && s[l[0]-3:l[0]] == "e.g" || l[0] >= 3 && s[l[0]-3:l[0]] == "i.e") {
			continue
		}
		count++
		if count == n {
			end = l[0] + 1
			break
		}
	}
	out := strings.TrimSpace(s[:end])
	if len(out) > max {
		cut := strings.LastIndex(out[:max], " ")
		if cut < max/2 {
			cut = max
		}
		out = strings.TrimRight(out[:cut], ",;: ") + "…"
	}
	return out
}

// sentence capitalises s and ends it with a period.
func sentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return ""
	}
	r := []rune(s)
	if unicode.IsLower(r[0]) && (len(r) < 2 || !unicode.IsUpper(r[1])) {
		r[0] = unicode.ToUpper(r[0])
	}
	s = string(r)
	// "… (stable)" takes a stop too; "(… it.)" has one.
	if !strings.HasSuffix(strings.TrimRight(s, ")"), ".") && !strings.HasSuffix(s, "…") && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "!") {
		s += "."
	}
	return s
}

// examplesFor returns up to three examples of a skill as requests a
// router can match: the captions its help gives its examples ("Count a
// specific folder"); failing those, its command lines, as "Run `…`".
func examplesFor(t *Tool, path []string, c *Command) []string {
	var requests, commands []string
	want := strings.Join(append([]string{t.Name}, path...), " ")
	for _, e := range c.Examples {
		if !shellExample(e, t.Name) {
			requests = append(requests, sentence(e))
			continue
		}
		if strings.HasPrefix(e, want+" ") || len(path) == 0 || !strings.HasPrefix(e, t.Name+" ") {
			commands = append(commands, "Run `"+e+"`")
		}
	}
	out := requests
	if len(out) == 0 {
		out = commands
	}
	return out[:min(len(out), 3)]
}

// shellExample reports whether an example is a command line: it starts
// with the program's name, feeds a pipe or names a file by its path.
func shellExample(e, prog string) bool {
	first, _, _ := strings.Cut(e, " ")
	return first == prog || slices.Contains(strings.Fields(e), prog) || strings.Contains(e, " | ") || strings.ContainsAny(first, "/.=") || strings.HasPrefix(first, "-") ||
		strings.HasSuffix(first, prog) || len(strings.Fields(e)) == 1
}

func bundleDescription(tools []*Tool, readmeText string, skills []bundle.Skill) string {
	var d string
	for _, t := range tools {
		if t.Summary != "" {
			d = t.Summary
			break
		}
	}
	if d == "" {
		d = firstSentences(readmeSummary(readmeText), 3, 400)
	}
	if d == "" && len(tools) > 0 {
		d = firstSentences(firstParagraph(tools[0].Root.About), 2, 300)
	}
	if d == "" && len(tools) > 0 {
		d = firstSentences(firstParagraph(tools[0].Doc), 2, 300)
	}
	d = sentence(d)
	var ids []string
	for _, s := range skills {
		ids = append(ids, s.ID)
	}
	if len(ids) > 12 {
		ids = append(ids[:12], "…")
	}
	skillsLine := fmt.Sprintf("Skills: %s.", strings.Join(ids, ", "))
	if d == "" {
		return skillsLine
	}
	return d + " " + skillsLine
}

// stopWords are left out of tags.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a about above after again all also an and any are as at be been before being below
	between both but by can could did do does doing down during each else etc every few for from further given gives
	has have having here how if in into is it its itself just like may more most much must no nor not now of off on
	once one only or other our out over own same see should so some such than that the their them then there these
	they this those through to too two under until up use used uses using very via was we were what when where which
	while who why will with within without would you your default defaults print prints printed show shows list lists
	file files option options flag flags command commands usage help run runs tool tools read reads write writes output
	input stdin stdout text line lines value values number numbers given first last new instead e.g example examples
	install installation license mit python node go golang shell script scripts package version cli argument arguments
	json yes set sets get gets make makes return returns work works one two three name names each`) {
		stopWords[w] = true
	}
}

var wordRE = lazyregexp.New(`[A-Za-z][A-Za-z0-9+-]*[A-Za-z0-9]`)

// domainWords ranks the README's content words (and the packages'
// keywords) by frequency: the vocabulary tags are drawn from.
func domainWords(readmeText string, tools []*Tool) []string {
	counts := map[string]int{}
	for _, w := range wordRE.FindAllString(cleanMarkdown(readmeText), -1) {
		lw := strings.ToLower(w)
		if len(lw) < 4 || stopWords[lw] {
			continue
		}
		counts[lw]++
	}
	for _, t := range tools {
		delete(counts, strings.ToLower(t.Name))
		for _, k := range t.Keywords {
			counts[strings.ToLower(k)] += 100
		}
	}
	words := sortedKeys(counts)
	sort.SliceStable(words, func(i, j int) bool { return counts[words[i]] > counts[words[j]] })
	if len(words) > 60 {
		words = words[:60]
	}
	return words
}

// tagsFor picks a skill's tags: the domain words its own text uses, most
// frequent in the README first, then words of its id.
func tagsFor(sk bundle.Skill, vocab []string) []string {
	text := strings.ToLower(sk.ID + " " + sk.Description)
	words := map[string]bool{}
	for _, w := range wordRE.FindAllString(text, -1) {
		words[w] = true
	}
	var tags []string
	for _, v := range vocab {
		if words[v] || (strings.Contains(v, " ") && strings.Contains(text, v)) {
			tags = append(tags, v)
		}
		if len(tags) == 4 {
			break
		}
	}
	for _, p := range strings.Split(sk.ID, "-") {
		if len(p) >= 3 && !slices.Contains(tags, p) && !stopWords[p] && len(tags) < 5 {
			tags = append(tags, p)
		}
	}
	return tags
}
