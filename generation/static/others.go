package static

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/agentnet/agentnet/internal/lazyregexp"
	"github.com/agentnet/agentnet/internal/proc"
)

var helpMentionRE = lazyregexp.New(`(?i)usage|--help|-h\b`)

// inputRE finds a shell script's use of its arguments or standard input.
var inputRE = lazyregexp.New(`\$\{?[1-9@*#]|\bgetopts\b|\bshift\b|\bread\b|\bcat\s*(\||$|-\s)|/dev/stdin`)

var shebangRE = lazyregexp.New(`^#!\s*(?:/usr/bin/env\s+(?:-S\s+)?)?\S*?\b(sh|bash|dash|zsh|ksh|ash)\b`)

// devScripts are script names that build, test or release a repository
// rather than do its work.
var devScripts = lazyregexp.New(`(?i)^(test|tests|check|ci|lint|fmt|format|build|install|uninstall|setup|configure|bootstrap|release|deploy|publish|clean|dev|run[-_]tests?|coverage|bump|version|gen|generate|update|upgrade|docker.*|entrypoint|init|env|activate|autogen|make.*|bench|benchmarks?|` +
	// git hooks and CI services
	`(pre|post)[-_](commit|push|merge|checkout|rebase|receive|applypatch)|(prepare[-_])?commit[-_]msg|travis|circleci|appveyor|jenkins|gitlab[-_]ci|drone|goreleaser|godownloader|codecov)([-_.].*)?$`)

// toolchainScripts name the launchers that toolchain managers (Hermit,
// mise) and build tools (the Gradle and Maven wrappers) put in a
// repository; devScripts already names their activate scripts.
var toolchainScripts = lazyregexp.New(`^(hermit|mise|gradlew|mvnw|sbtw?|lein)$`)

// sourceLauncherRE finds a script command that compiles source at each
// run (go run, go build ... && exec, cargo run).
var sourceLauncherRE = lazyregexp.New(`(?m)(?:^|[;&|(]|\bexec|\bthen|\bdo)\s*(?:go\s+(?:build|run)|cargo\s+(?:build|run))\b`)

// maxScript bounds how much of a shell script is read: the whole of any
// real one (emojify's table of emoji fills its first 100 KB).
const maxScript = 4 << 20

// shellTools finds shell scripts that are entry points: executable (or
// .sh) files with a shell shebang at the root or in bin/ or scripts/, other
// than build and test scripts. The script named like the repository comes
// first. notes say why a script with a shell shebang was left out.
func shellTools(r *repo) (tools []*Tool, notes []string) {
	for _, f := range r.files {
		dir := path.Dir(f)
		if dir != "." && dir != "bin" && dir != "scripts" {
			continue
		}
		base := path.Base(f)
		if devScripts.MatchString(strings.TrimSuffix(base, ".sh")) || strings.HasPrefix(base, ".") {
			continue
		}
		if toolchainScripts.MatchString(base) {
			notes = append(notes, fmt.Sprintf("%s: left out: a toolchain manager's launcher, not the repository's tool", f))
			continue
		}
		if n := r.linkedTo(f); n >= 2 {
			// Several names linked to one script: a launcher that
			// dispatches on the name it runs under (a package
			// manager's shims), not a tool of the repository.
			notes = append(notes, fmt.Sprintf("%s: left out: %d links run it under other names (a launcher)", f, n))
			continue
		}
		head, ok := r.read(f, maxScript)
		if !ok {
			continue
		}
		m := shebangRE.FindStringSubmatch(string(head))
		if m == nil {
			continue
		}
		// A bash script is read by bash: sh does not parse its arrays.
		shell := m[1]
		if shell == "dash" || shell == "ash" {
			shell = "sh"
		}
		name := sanitizeProg(strings.TrimSuffix(base, ".sh"))
		var prog, check []string
		if r.exec[f] {
			prog, check = []string{"./" + f}, []string{"./" + f, "--help"}
		} else {
			prog, check = []string{shell, "{{repo}}/" + f}, []string{shell, f, "--help"}
		}
		text := string(head)
		if sourceLauncherRE.MatchString(text) {
			// It compiles the repository's source and runs the result:
			// the program it builds is found by its own language's rules.
			notes = append(notes, fmt.Sprintf("%s: left out: the script builds the repository's source and runs it", f))
			continue
		}
		if !inputRE.MatchString(text) {
			// It reads no argument and no input: nothing a caller could
			// hand it (a link checker of the repo's own docs, a release).
			notes = append(notes, fmt.Sprintf("%s: left out: the script reads no argument and no standard input", f))
			continue
		}
		if maintainsRepo(r, text) {
			// It works on the repository's own tree (cd docs; ... >
			// README.md): documentation or code generation, run from a
			// checkout, not a capability for a task's files.
			notes = append(notes, fmt.Sprintf("%s: left out: the script works on the repository's own files", f))
			continue
		}
		if len(head) >= maxScript {
			notes = append(notes, fmt.Sprintf("%s: only its first %d MiB were read", f, maxScript>>20))
		}
		if why := shellSyntax(r.root, shell, f); why != "" {
			// Its check would fail the whole bundle at setup.
			notes = append(notes, fmt.Sprintf("%s: left out: its check %q fails: %s", f, shell+" -n "+f, why))
			continue
		}
		t := &Tool{Name: name, Kind: "shell", Source: f, Prog: prog, Check: check, Root: &Command{}, Doc: leadingComment(text)}
		if !helpMentionRE.MatchString(text) {
			// No help to ask for: the check only proves the script parses.
			t.Check = []string{shell, "-n", f}
		}
		tools = append(tools, t)
	}
	slices.SortStableFunc(tools, func(a, b *Tool) int {
		return boolRank(namedLikeRepo(b.Name, r.name)) - boolRank(namedLikeRepo(a.Name, r.name))
	})
	return tools, notes
}

// shellSyntax runs the shell's syntax check of script f (relative to
// dir): "" when it passes, else the first line it printed.
func shellSyntax(dir, shell, f string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res := proc.Run(ctx, proc.Spec{Argv: []string{shell, "-n", f}, Dir: dir, Timeout: 10 * time.Second, MaxOutput: 64 << 10})
	if res.ExitCode == 0 && !res.TimedOut {
		return ""
	}
	if res.TimedOut {
		return "it did not finish"
	}
	return errorLine(string(res.Stderr) + string(res.Stdout))
}

// namedLikeRepo reports whether a program is named like the repository
// ("emojify" in emojify or emojify-main).
func namedLikeRepo(prog, repoName string) bool {
	p, n := strings.ToLower(prog), strings.ToLower(repoName)
	return p != "" && (p == n || strings.HasPrefix(n, p+"-") || strings.HasSuffix(n, "-"+p) || strings.HasPrefix(n, p+"."))
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

var (
	// cdRE finds a change of directory at the start of a command.
	cdRE = lazyregexp.New(`(?m)(?:^|[;&|(]|\bthen|\bdo|\belse)\s*cd\s+["']?([^\s;&|)"']+)`)
	// redirectOutRE finds an output redirection's target (> f, >> f) or
	// a tee's.
	redirectOutRE = lazyregexp.New(`(?m)(?:(?:^|[^0-9&<>=])>>?|\btee(?:\s+-a)?)\s*["']?([^\s;&|)"'<>]+)`)
)

// maintainsRepo reports whether a script works on the repository's own
// tree: it changes into one of the repository's directories or the parent
// of one ("cd jc; ../doc2md.py jc > ../docs/readme.md"), or writes into
// a file or directory the repository holds.
func maintainsRepo(r *repo, text string) bool {
	inRepo := func(p string) bool {
		p = path.Clean(strings.TrimPrefix(p, "./"))
		if p == "." || p == ".." || strings.HasPrefix(p, "/") || strings.ContainsAny(p, "$`*~&") {
			return false
		}
		if strings.HasPrefix(p, "../") {
			// From a directory the script changed into: the rest names
			// a place of the repository.
			p = strings.TrimPrefix(p, "../")
		}
		return r.has(p) || repoHasDir(r, p) || path.Dir(p) != "." && repoHasDir(r, path.Dir(p))
	}
	for _, m := range cdRE.FindAllStringSubmatch(text, -1) {
		if inRepo(m[1]) {
			return true
		}
	}
	for _, m := range redirectOutRE.FindAllStringSubmatch(text, -1) {
		if inRepo(m[1]) {
			return true
		}
	}
	return false
}

// repoHasDir reports whether the repository holds files under dir.
func repoHasDir(r *repo, dir string) bool {
	i, _ := slices.BinarySearch(r.files, dir+"/")
	return i < len(r.files) && strings.HasPrefix(r.files[i], dir+"/")
}

// leadingComment returns the comment block at the top of a script or
// source file, without the shebang and comment markers, and without the
// title lines before its prose: a lone word (the program's name), a bare
// URL, a copyright or license notice.
func leadingComment(src string) string {
	var out []string
	add := func(c string) {
		if strings.Join(out, "") == "" && titleLine(c) {
			return
		}
		out = append(out, c)
	}
	for i, ln := range strings.Split(src, "\n") {
		t := strings.TrimSpace(ln)
		if i == 0 && strings.HasPrefix(t, "#!") {
			continue
		}
		switch {
		case strings.HasPrefix(t, "#"):
			add(strings.TrimSpace(strings.TrimLeft(t, "#")))
		case strings.HasPrefix(t, "//"):
			add(strings.TrimSpace(strings.TrimPrefix(t, "//")))
		case t == "" && len(out) == 0:
			continue
		case strings.HasPrefix(t, "\"use strict\"") || strings.HasPrefix(t, "'use strict'"):
			continue
		default:
			return strings.TrimSpace(strings.Join(out, "\n"))
		}
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// titleLine reports whether a comment line heads a file rather than says
// what it does: one word, a URL, a copyright or license line.
func titleLine(c string) bool {
	return !strings.ContainsAny(c, " \t") || titleLineRE.MatchString(c)
}

var titleLineRE = lazyregexp.New(`(?i)^(?:https?://\S+$|copyright\b|\(c\)|©|spdx-license-identifier:|licensed under\b|all rights reserved)`)

var (
	makeTargetRE = lazyregexp.New(`^([A-Za-z0-9][A-Za-z0-9_.-]*)\s*:([^=]|$)(.*)$`)
	// devTargets build, test, clean, install or release: never a skill.
	devTargets = lazyregexp.New(`(?i)^(all|build|rebuild|test.*|.*tests?|check.*|.*check|acceptance|.*clean|install.*|uninstall|lint.*|fmt|format|vet|help|dev|deps|depend|setup|configure|release|dist.*|docs?|man|coverage|cov|ci|bench.*|docker.*|push|publish|tidy|generate|gen|run|serve|watch|default|debug|profile|tags|ctags|FORCE|PHONY|.*-test|test-.*)$`)
)

var (
	makeVarRE = lazyregexp.New(`^([A-Za-z_][A-Za-z0-9_]*)\s*(?:[:+?]?=)\s*(.*)$`)
	makeRefRE = lazyregexp.New(`\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]`)
	// linkRE finds a recipe that links a program: a C compiler or linker
	// writing -o, not compiling one object (-c).
	linkRE = lazyregexp.New(`(?:\$[({](?:CC|CXX|LD|LINK\.[a-z]+)[)}]|(?:^|\s)(?:cc|gcc|clang|g\+\+|clang\+\+|c\+\+|ld))\s.*-o\s*(\S+)`)
	// progVarRE names the variables that list the programs a Makefile builds.
	progVarRE = lazyregexp.New(`^(?:BINS?|PROGS?|PROGRAMS?|TARGETS?|EXES?|EXECUTABLES?|BINAR(?:Y|IES)|[A-Z_]*_(?:BINS?|PROGRAMS?))$`)
)

// makefile is what makePrograms reads of a Makefile.
type makefile struct {
	vars    map[string]string
	deps    map[string][]string // target → prerequisites, variables expanded
	recipes map[string][]string
	first   string // the default target
}

func parseMakefile(data string) *makefile {
	m := &makefile{vars: map[string]string{}, deps: map[string][]string{}, recipes: map[string][]string{}}
	data = strings.ReplaceAll(data, "\\\n", " ")
	var cur []string
	for _, ln := range strings.Split(data, "\n") {
		if strings.HasPrefix(ln, "\t") {
			for _, t := range cur {
				m.recipes[t] = append(m.recipes[t], strings.TrimSpace(ln))
			}
			continue
		}
		ln = stripMakeComment(ln)
		if strings.TrimSpace(ln) == "" {
			continue
		}
		cur = nil
		if v := makeVarRE.FindStringSubmatch(ln); v != nil {
			val := strings.TrimSpace(v[2])
			if strings.Contains(ln, "+=") {
				val = strings.TrimSpace(m.vars[v[1]] + " " + val)
			}
			m.vars[v[1]] = val
			continue
		}
		targets, deps, ok := strings.Cut(ln, ":")
		if !ok || strings.HasPrefix(deps, "=") {
			continue
		}
		deps, _, _ = strings.Cut(deps, ";")
		for _, t := range strings.Fields(m.expand(targets, 0)) {
			if strings.HasPrefix(t, ".") || strings.Contains(t, "%") {
				continue // .PHONY, .c.o, pattern rules
			}
			if m.first == "" {
				m.first = t
			}
			m.deps[t] = append(m.deps[t], strings.Fields(m.expand(deps, 0))...)
			cur = append(cur, t)
		}
	}
	return m
}

// stripMakeComment returns a line of a Makefile outside a recipe without
// its comment, as make reads it: an unescaped # starts a comment anywhere
// in the line (`EXEEXT = # .exe` sets EXEEXT to nothing), and \# is a
// literal #. Recipe lines go to the shell whole and never come here.
func stripMakeComment(ln string) string {
	if !strings.Contains(ln, "#") {
		return ln
	}
	var b strings.Builder
	for i := 0; i < len(ln); i++ {
		switch {
		case ln[i] == '\\' && i+1 < len(ln) && ln[i+1] == '#':
			b.WriteByte('#')
			i++
		case ln[i] == '#':
			return b.String()
		default:
			b.WriteByte(ln[i])
		}
	}
	return b.String()
}

// expand replaces $(VAR) and ${VAR} with their values.
func (m *makefile) expand(s string, depth int) string {
	if depth > 8 {
		return s
	}
	return makeRefRE.Regexp().ReplaceAllStringFunc(s, func(ref string) string {
		return m.expand(m.vars[makeRefRE.FindStringSubmatch(ref)[1]], depth+1)
	})
}

// makePrograms finds the programs a Makefile's default target builds: the
// rules whose recipe links one with a C compiler, and those a BINS or
// PROGRAMS variable lists, among what the default target depends on.
// Each is a tool run from the repository after `make`; a program already
// in the repository (a script the Makefile only installs) is left to the
// other finders.
func makePrograms(r *repo) []*Tool {
	data, ok := r.read("Makefile", 1<<20)
	if !ok {
		data, ok = r.read("makefile", 1<<20)
	}
	if !ok {
		data, ok = r.read("GNUmakefile", 1<<20)
	}
	if !ok {
		return nil
	}
	m := parseMakefile(string(data))
	if m.first == "" {
		return nil
	}
	listed := map[string]bool{}
	for name, v := range m.vars {
		if progVarRE.MatchString(name) {
			for _, p := range strings.Fields(m.expand(v, 0)) {
				listed[p] = true
			}
		}
	}
	// Everything the default target builds.
	reach := map[string]bool{}
	var order []string
	var walk func(t string, depth int)
	walk = func(t string, depth int) {
		if reach[t] || depth > 20 {
			return
		}
		reach[t] = true
		order = append(order, t)
		for _, d := range m.deps[t] {
			walk(d, depth+1)
		}
	}
	walk(m.first, 0)
	var tools []*Tool
	for _, t := range order {
		// A name like a build or test target (imgcheck) is still a program
		// when a programs variable lists it or the repository is named
		// after it.
		dev := devTargets.MatchString(t) && !listed[t] && !namedLikeRepo(t, r.name)
		if !cmdNameRE.MatchString(t) || strings.Contains(t, ".") || dev || r.has(t) {
			continue
		}
		links := slices.ContainsFunc(m.recipes[t], func(ln string) bool {
			l := linkRE.FindStringSubmatch(ln)
			if l == nil {
				l = linkRE.FindStringSubmatch(m.expand(ln, 0))
			}
			// The output may be named by a variable: $(EXE).
			return l != nil && !strings.Contains(ln, " -c ") && (l[1] == "$@" || l[1] == t || m.expand(l[1], 0) == t)
		})
		// A listed program without a recipe of its own is built by
		// make's implicit rule from its C source.
		implicit := listed[t] && len(m.recipes[t]) == 0 && (r.has(t+".c") || r.has(t+".cc") || r.has(t+".cpp"))
		if !links && !implicit {
			continue
		}
		tools = append(tools, &Tool{
			Name:   sanitizeProg(t),
			Kind:   "native",
			Source: "Makefile",
			Setup:  [][]string{{"make"}},
			Prog:   []string{"./" + t},
			Check:  []string{"./" + t, "--help"},
			Root:   &Command{},
			Doc:    manDescription(r, t),
		})
	}
	slices.SortStableFunc(tools, func(a, b *Tool) int {
		return boolRank(namedLikeRepo(b.Name, r.name)) - boolRank(namedLikeRepo(a.Name, r.name))
	})
	return tools
}

var manPageRE = lazyregexp.New(`\.[1-9][a-z]*$`)

// manDescription returns what a program's man page (prog.1, prog.6, in
// the repository) says it is: its NAME line's description and its
// DESCRIPTION's first paragraph, without roff markup.
func manDescription(r *repo, prog string) string {
	for _, f := range r.files {
		base := path.Base(f)
		if !strings.HasPrefix(base, prog+".") || !manPageRE.MatchString(base) {
			continue
		}
		data, ok := r.read(f, 256<<10)
		if !ok {
			continue
		}
		var name, desc []string
		section := ""
		for _, ln := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(ln, ".SH") || strings.HasPrefix(ln, ".Sh") {
				section = strings.ToUpper(strings.Trim(strings.TrimSpace(ln[3:]), `"`))
				continue
			}
			t := roffText(ln)
			switch {
			case section == "NAME" && t != "":
				name = append(name, t)
			case section == "DESCRIPTION" && t == "" && len(desc) > 0:
				section = "done"
			case section == "DESCRIPTION" && t != "":
				desc = append(desc, t)
			}
		}
		out := ""
		if n := strings.Join(name, " "); n != "" {
			if _, d, ok := strings.Cut(n, " - "); ok {
				out = sentence(d)
			}
		}
		if d := strings.Join(desc, " "); d != "" {
			out = strings.TrimSpace(out + "\n\n" + d)
		}
		return out
	}
	return ""
}

var roffFontRE = lazyregexp.New(`\\f[A-Z]|\\f\([A-Z]{2}|\\&|\\[()][a-z]{2}`)

// roffText returns the text of a roff line: "" for a request or comment
// without text (.PD, .\"), the words of .B/.I/.BR lines, escapes removed.
func roffText(ln string) string {
	if strings.HasPrefix(ln, ".") || strings.HasPrefix(ln, "'") {
		req, rest, _ := strings.Cut(ln, " ")
		switch req {
		case ".B", ".I", ".BR", ".IR", ".RB", ".RI", ".BI", ".IB", ".SM":
			ln = strings.ReplaceAll(rest, `"`, "")
		default:
			return ""
		}
	}
	ln = roffFontRE.Regexp().ReplaceAllString(ln, "")
	ln = strings.ReplaceAll(ln, `\-`, "-")
	ln = strings.ReplaceAll(ln, `\e`, `\`)
	return strings.Join(strings.Fields(ln), " ")
}

// makeTools turns the targets of a Makefile into one flat tool whose
// "subcommands" are the targets that do work (not build, test, clean...).
func makeTools(r *repo) []*Tool {
	data, ok := r.read("Makefile", 1<<20)
	if !ok {
		data, ok = r.read("makefile", 1<<20)
	}
	if !ok {
		return nil
	}
	root := &Command{}
	var comment []string
	for _, ln := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(ln, "#") {
			comment = append(comment, strings.TrimSpace(strings.TrimLeft(ln, "#")))
			continue
		}
		m := makeTargetRE.FindStringSubmatch(ln)
		if m == nil || strings.HasPrefix(ln, "\t") {
			comment = nil
			continue
		}
		name := m[1]
		desc := strings.Join(comment, " ")
		if _, after, ok := strings.Cut(m[3], "##"); ok {
			desc = strings.TrimSpace(after)
		}
		comment = nil
		if devTargets.MatchString(name) || strings.Contains(name, ".") || root.find(name) != nil {
			continue
		}
		root.Subs = append(root.Subs, &Command{Name: name, Summary: desc})
	}
	if len(root.Subs) == 0 {
		return nil
	}
	first := root.Subs[0].Name
	return []*Tool{{
		Name:   sanitizeProg(r.name),
		Kind:   "make",
		Source: "Makefile",
		Prog:   []string{"make", "--no-print-directory", "-s", "-C", "{{repo}}"},
		Check:  []string{"make", "-n", first},
		Root:   root,
		Flat:   true,
	}}
}

// readme returns the README's text (bounded) and its path.
func readme(r *repo) (string, string) {
	for _, f := range r.topLevel("") {
		low := strings.ToLower(f)
		if strings.HasPrefix(low, "readme") {
			if data, ok := r.read(f, 256<<10); ok {
				return strings.ToValidUTF8(string(data), ""), f
			}
		}
	}
	return "", ""
}

var (
	// "**top** FILE: ...", "`rate FILE [--by hour]` — ...", "top — ..."
	markedItemRE = lazyregexp.New("^(\\*\\*|`|__)([a-z][a-z0-9_-]*)([^*`_]*)(\\*\\*|`|__)([^:—–-]*?)\\s*[:—–-]\\s*(.+)$")
	plainItemRE  = lazyregexp.New(`^([a-z][a-z0-9_-]*)((?:\s+\S+)*?)(?:\s*:|\s+[—–-])\s+(.+)$`)
	mdLinkRE     = lazyregexp.New(`!?\[([^\]]*)\]\([^)]*\)`)
	htmlTagRE    = lazyregexp.New(`<[^>]+>`)
)

// readmeSummary returns the first prose paragraph of a README: not a
// heading, a badge line, HTML, a code block (fenced or indented), a GitHub
// alert ("> [!NOTE]" and its body) or a link reference definition
// ("[GoDoc]: https://...").
func readmeSummary(text string) string {
	var para []string
	inCode, inAlert := false, false
	for _, ln := range strings.Split(text, "\n") {
		t := strings.TrimSpace(ln)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inCode = !inCode
			continue
		}
		if inCode {
			continue
		}
		if len(para) == 0 && t != "" && (strings.HasPrefix(ln, "\t") || strings.HasPrefix(ln, "    ")) {
			// An indented code block ("\tgo install ..."); after a
			// paragraph's first line, an indented line continues it.
			continue
		}
		// A quoted tagline ("> scc powers ...") is prose too; a GitHub
		// alert ("> [!NOTE]" and the quoted lines under it) is not.
		if strings.HasPrefix(t, ">") {
			t = strings.TrimLeft(t, "> ")
			if strings.HasPrefix(t, "[!") {
				inAlert = true
				continue
			}
			if inAlert {
				continue
			}
		} else {
			inAlert = false
		}
		if linkRefDefRE.MatchString(t) || t != "" && badgesOnly(t) {
			if len(para) > 0 {
				return cleanMarkdown(strings.Join(para, " "))
			}
			continue
		}
		switch {
		case len(t) >= 2 && (strings.Trim(t, "=") == "" || strings.Trim(t, "-") == "") && len(para) > 0:
			// "jp\n==": the lines above were a heading.
			para = nil
			continue
		case t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "=") || strings.HasPrefix(t, "---") || strings.HasPrefix(t, "|"):
			if len(para) > 0 {
				return cleanMarkdown(strings.Join(para, " "))
			}
			continue
		case strings.HasPrefix(t, "<") || strings.HasPrefix(t, "[![") || strings.HasPrefix(t, "!["):
			continue
		case strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "    "):
			if len(para) > 0 {
				return cleanMarkdown(strings.Join(para, " "))
			}
			continue
		}
		para = append(para, t)
	}
	return cleanMarkdown(strings.Join(para, " "))
}

var (
	// linkRefDefRE matches a link reference definition: "[GoDoc]: https://…".
	linkRefDefRE = lazyregexp.New(`^\[[^\]]+\]:\s*\S+`)
	// badgeRE matches an image, linked or not, inline or by reference:
	// "[![Go Reference](…)](…)", "[![GoDoc Widget]][GoDoc]", "![CI](…)".
	badgeRE = lazyregexp.New(`\[!\[[^\]]*\](?:\([^)]*\)|\[[^\]]*\])\](?:\([^)]*\)|\[[^\]]*\])?|!\[[^\]]*\](?:\([^)]*\)|\[[^\]]*\])`)
)

// badgesOnly reports whether a README line holds only images and HTML
// (a row of badges), nothing to read.
func badgesOnly(t string) bool {
	rest := htmlTagRE.ReplaceAllString(badgeRE.ReplaceAllString(t, ""), "")
	return rest != t && strings.Trim(rest, " \t|·•-") == ""
}

// cleanMarkdown drops links' targets, HTML tags and emphasis from
// Markdown prose; inside code spans ("`<th>`") text is kept as written.
func cleanMarkdown(s string) string {
	parts := strings.Split(s, "`")
	for i := range parts {
		if i%2 == 0 || i == len(parts)-1 {
			parts[i] = mdLinkRE.ReplaceAllString(parts[i], "$1")
			parts[i] = htmlTagRE.ReplaceAllString(parts[i], "")
			parts[i] = strings.NewReplacer("**", "", "__", "").Replace(parts[i])
		}
	}
	return strings.Join(strings.Fields(strings.Join(parts, "")), " ")
}

// readmeNote is what a README says of one subcommand: Line, a one-line
// label from a list item, a table row or a heading's subtitle ("* **top**:
// the most frequent words", "### mass — molar mass"), and Section, the
// first prose paragraph under the command's heading.
type readmeNote struct {
	Line    string
	Section string
}

// readmeSections returns, for each subcommand name mentioned in a README
// heading, list item or table row, what the README says of it, so that a
// command's description can draw on the README.
func readmeSections(text string, names []string) map[string]readmeNote {
	out := map[string]readmeNote{}
	lines := strings.Split(text, "\n")
	setLine := func(name, rest string) {
		if !slices.Contains(names, name) || out[name].Line != "" {
			return
		}
		if r := cleanMarkdown(strings.TrimLeft(rest, ":—–- ")); r != "" {
			n := out[name]
			n.Line = r
			out[name] = n
		}
	}
	// List items and table rows that name a command first:
	// "* **top**: the most frequent words", "| `count FILE` | lines, words |".
	for i, ln := range lines {
		t := strings.TrimSpace(ln)
		switch {
		case strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "- "):
			// An item may wrap onto indented lines.
			for _, next := range lines[i+1:] {
				nt := strings.TrimSpace(next)
				if nt == "" || indentOf(next) <= indentOf(ln) || strings.HasPrefix(nt, "* ") || strings.HasPrefix(nt, "- ") {
					break
				}
				t += " " + nt
			}
			if name, args, rest, ok := listItem(t[2:]); ok && argsLike(args) {
				setLine(name, rest)
			}
		case strings.HasPrefix(t, "|"):
			cells := strings.Split(strings.Trim(t, "|"), "|")
			if len(cells) < 2 {
				continue
			}
			f := strings.Fields(strings.Trim(strings.TrimSpace(cells[0]), "`*"))
			if len(f) == 0 || !argsLike(strings.Join(f[1:], " ")) {
				continue
			}
			setLine(f[0], strings.Join(cells[1:], " "))
		}
	}
	for i, ln := range lines {
		t := strings.TrimSpace(ln)
		if !strings.HasPrefix(t, "#") {
			continue
		}
		title := cleanMarkdown(strings.TrimLeft(t, "# "))
		head := strings.ToLower(title)
		words := strings.FieldsFunc(head, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') })
		for _, n := range names {
			if len(words) == 0 || !(words[0] == n || slices.Contains(words[:min(3, len(words))], n)) {
				continue
			}
			// "### mass — molar mass", "## `scan`: find secrets": the
			// subtitle is a label of the command.
			if m := headingSubtitleRE.FindStringSubmatch(title); m != nil && strings.EqualFold(m[1], n) && argsLike(m[2]) {
				setLine(n, m[3])
			}
			if out[n].Section != "" {
				continue
			}
			var para []string
			inCode := false
			for _, l := range lines[i+1:] {
				lt := strings.TrimSpace(l)
				if strings.HasPrefix(lt, "```") {
					inCode = !inCode
					continue
				}
				if inCode {
					continue
				}
				if strings.HasPrefix(lt, "#") || (lt == "" && len(para) > 0) {
					break
				}
				if lt != "" && !strings.HasPrefix(lt, "|") && !(len(para) == 0 && (strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "\t"))) && !linkRefDefRE.MatchString(lt) && !badgesOnly(lt) {
					para = append(para, lt)
				}
			}
			if len(para) > 0 {
				note := out[n]
				note.Section = cleanMarkdown(strings.Join(para, " "))
				out[n] = note
			}
		}
	}
	return out
}

var optionalGroupRE = lazyregexp.New(`\[[^\]]*\]|<[^>]*>|\{[^}]*\}`)

var headingSubtitleRE = lazyregexp.New(`^([A-Za-z][A-Za-z0-9_-]*)((?:\s+\S+)*?)(?:\s+[—–-]|\s*:)\s+(.+)$`)

// listItem splits a list item that may name a command into the name, the
// words after it in the same term and the text after the separator.
func listItem(t string) (name, args, rest string, ok bool) {
	if m := markedItemRE.FindStringSubmatch(t); m != nil {
		if m[1] != m[4] {
			return "", "", "", false
		}
		return m[2], m[3] + " " + m[5], m[6], true
	}
	if m := plainItemRE.FindStringSubmatch(t); m != nil {
		return m[1], m[2], m[3], true
	}
	return "", "", "", false
}

// argsLike reports whether the words after a command's name, in a list
// item's or heading's term, are its arguments ("FILE [-n N]", "<path>",
// "...") rather than more words of a phrase ("mass composition").
func argsLike(s string) bool {
	s = optionalGroupRE.ReplaceAllString(s, " ")
	for _, w := range strings.Fields(s) {
		w = strings.Trim(w, "`*_")
		if w == "" || strings.ContainsAny(w[:1], "-[<{(.|") || w == strings.ToUpper(w) {
			continue
		}
		return false
	}
	return true
}
