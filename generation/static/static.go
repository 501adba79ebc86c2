package static

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/lazyregexp"
	"github.com/agentnet/agentnet/internal/proc"
)

// Errors of analysis that explain why a repository gives no agent.
var (
	ErrEmpty         = errors.New("the repository is empty")
	ErrNoEntryPoints = errors.New("no entry points found")
)

// Options configure an analysis.
type Options struct {
	// Name is the repository's name (the bundle's name when it has several
	// tools) when it declares none itself (go.mod's module, the Python
	// project's or package.json's name, which win); default the
	// directory's base name.
	Name string
	// Source is the bundle's repo.source ("repo", or a git URL); Ref its ref.
	Source, Ref string
	// Bundle is the bundle directory, where generated wrappers are written
	// (beside agent.yaml, named by {{bundle}}); default the repo directory
	// itself, for a bundle without repo.
	Bundle string
	// Env is the environment of the builds and help probes ("KEY=value").
	Env []string
	// Log receives the commands run and their output; may be nil.
	Log io.Writer
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// NoProbe skips running the tools' --help (source analysis only).
	NoProbe bool
	// InstallSystemDeps installs the Debian packages of missing Python
	// modules and Node dependencies with apt-get (the
	// --install-system-deps option).
	InstallSystemDeps bool
	// SetupTimeout bounds each setup command (default: 10 minutes scaled
	// by the repository's source files and dependencies and by the
	// machine's load, at most twelve times that); ProbeTimeout each help
	// probe (default 20 seconds scaled by the machine's load, at most four
	// times that).
	SetupTimeout, ProbeTimeout time.Duration

	// apt records the packages apt-get installed (set by Generate).
	apt *aptLog
}

// Result is the outcome of an analysis.
type Result struct {
	Bundle  *bundle.Bundle
	YAML    []byte // the bundle as agent.yaml, byte for byte deterministic
	Tools   []*Tool
	Missing []Missing // Python modules the repository imports and the interpreter lacks
	Notes   []string  // what was skipped and why
	// Python is the environment synthesised for a Python repository (the
	// interpreter chosen, installed or from source, system packages).
	Python *PythonEnv
}

// Generate analyses the repository at dir, runs the setup of its entry
// points there (builds, launchers in .agentnet/bin), asks each for --help,
// and composes a bundle: one skill per capability. It writes nothing but
// the setup's products inside dir's .agentnet directory (dir is the
// bundle's copy of the repository) and generated wrappers in the bundle
// directory's wrapper directory (opts.Bundle). Errors name the reason no
// bundle could be made (ErrEmpty, ErrNoEntryPoints, a failed build).
func Generate(ctx context.Context, dir string, opts Options) (*Result, error) {
	if opts.Name == "" {
		opts.Name = filepath.Base(dir)
	}
	if opts.ProbeTimeout == 0 {
		opts.ProbeTimeout = probeLimit(loadAverage(), runtime.NumCPU())
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	logw := opts.Log
	if logw == nil {
		logw = io.Discard
	}
	logf := func(msg string, args ...any) {
		logger.Info(msg, args...)
		fmt.Fprintf(logw, "# %s %v\n", msg, args)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("analyse %s: %w", dir, err)
	}
	bdir := abs
	if opts.Bundle != "" {
		if bdir, err = filepath.Abs(opts.Bundle); err != nil {
			return nil, fmt.Errorf("analyse %s: bundle directory: %w", dir, err)
		}
	}
	r, err := scan(abs, opts.Name)
	if err != nil {
		return nil, fmt.Errorf("analyse %s: %w", dir, err)
	}
	if len(r.files) == 0 {
		return nil, ErrEmpty
	}
	limit := setupLimit{d: opts.SetupTimeout, why: "set by the caller"}
	if limit.d == 0 {
		b := repoBudget(r, defaultSetupBase)
		limit = setupLimit{d: b.limit(), why: b.String()}
	}
	logf("setup budget", "budget", limit.why)
	res := &Result{}
	opts.apt = &aptLog{}
	sc, err := pythonScan(ctx, r, opts.Env)
	if err != nil {
		res.Notes = append(res.Notes, err.Error())
	}
	if name := declaredName(r, sc); name != "" {
		opts.Name, r.name = name, name
	}
	var tools []*Tool
	tools = append(tools, goTools(r)...)
	if sc != nil {
		res.Notes = append(res.Notes, writeVersionFiles(abs, sc.VersionFiles)...)
	}
	var pyEnv *PythonEnv
	if sc != nil && (len(sc.Entries) > 0 || sc.API != nil && len(sc.API.Items) > 0) {
		pyEnv, err = pythonEnvironment(ctx, sc, opts, logw)
		if err != nil {
			res.Notes = append(res.Notes, err.Error())
		} else {
			res.Python, res.Missing = pyEnv, pyEnv.Missing
			logf("python", "interpreter", pyEnv.Python.Exe, "version", pyEnv.Python.VersionString(), "missing", len(pyEnv.Missing))
			tools = append(tools, pythonTools(sc, pyEnv)...)
		}
	}
	nts, notes := nodeTools(ctx, r, opts, logw)
	tools = append(tools, nts...)
	res.Notes = append(res.Notes, notes...)
	// The programs a Makefile builds come before the scripts, which
	// may run them.
	tools = append(tools, makePrograms(r)...)
	// Beside a program in another language, the shell scripts under
	// scripts/ maintain the repository (builds, hooks, releases).
	program := slices.ContainsFunc(tools, func(t *Tool) bool { return !t.Loose })
	shs, notes := shellTools(r)
	res.Notes = append(res.Notes, notes...)
	for _, t := range shs {
		if !program || path.Dir(t.Source) != "scripts" {
			tools = append(tools, t)
		}
	}
	// A Python package without entry points is a library: its API becomes
	// skills through a generated wrapper. So is a Go package without main.
	// Python files beside another language's program, in a repository that
	// declares no Python project, are its maintenance scripts, not an API.
	helper := sc != nil && sc.Name == "" && slices.ContainsFunc(tools, func(t *Tool) bool { return !strings.HasPrefix(t.Kind, "python") && !t.Loose })
	if pyEnv != nil && !helper && !slices.ContainsFunc(tools, func(t *Tool) bool { return t.Kind == "python" && !t.Loose }) {
		if t := pythonLibraryTool(sc, pyEnv, opts.Name); t != nil {
			tools = slices.DeleteFunc(tools, func(t *Tool) bool { return t.Loose })
			tools = append(tools, t)
		} else if sc.API != nil && len(sc.API.Items) > 0 {
			res.Notes = append(res.Notes, "python library: no public function or class with parameters the wrapper can pass (simple types, files)")
		}
	}
	if len(tools) == 0 {
		if t := goLibraryTool(r, opts.Name, bdir); t != nil {
			tools = append(tools, t)
		}
	}
	if len(tools) == 0 {
		tools = makeTools(r)
	}
	if len(tools) == 0 {
		if len(res.Notes) > 0 {
			// What failed on the way (a scan that ran out of time) is
			// likely why.
			return nil, fmt.Errorf("%w: %s\n%s", ErrNoEntryPoints, inventory(r), strings.Join(res.Notes, "\n"))
		}
		return nil, fmt.Errorf("%w: %s", ErrNoEntryPoints, inventory(r))
	}
	for _, t := range tools {
		if t.Doc == "" && t.Summary == "" && t.Name != "" {
			// A program whose source says nothing of itself may have a
			// man page in the repository that does.
			t.Doc = manDescription(r, t.Name)
		}
	}
	text, _ := readme(r)

	env := append(append([]string{}, opts.Env...), "PYTHONDONTWRITEBYTECODE=1")
	done := map[string]bool{}
	if pyEnv != nil && slices.ContainsFunc(tools, func(t *Tool) bool { return strings.HasPrefix(t.Kind, "python") }) {
		// The environment is built once, here, so that its outcome
		// (installed, or why not) is known; the tools' setup skips it.
		if err := pyEnv.build(ctx, abs, sc.Src, env, limit, logw); err != nil {
			return nil, err
		}
		done[strings.Join(pyEnv.envSetup(sc.Src), "\x00")] = true
		res.Missing = pyEnv.Missing
		if pyEnv.Installed {
			note := fmt.Sprintf("python: %s %s; the repository is installed into %s", pyEnv.Python.Exe, pyEnv.Python.VersionString(), pyEnv.Venv)
			if pyEnv.Reason != "" {
				note += " (" + pyEnv.Reason + ")" // a stated version, say
			}
			res.Notes = append(res.Notes, note)
		} else {
			res.Notes = append(res.Notes, fmt.Sprintf("python: %s %s; %s", pyEnv.Python.Exe, pyEnv.Python.VersionString(), pyEnv.Reason))
		}
		if pyEnv.Apt != nil {
			res.Notes = append(res.Notes, fmt.Sprintf("apt-get: installed %v, unknown %v %s", pyEnv.Apt.Installed, pyEnv.Apt.Unknown, pyEnv.Apt.Error))
		}
	}
	if err := writeFiles(abs, bdir, tools); err != nil {
		return nil, err
	}
	var usable []*Tool
	var firstErr error
	// prepare runs a tool's setup and its check or help probe; it
	// reports whether the tool is usable, noting why not.
	prepare := func(t *Tool) bool {
		fail := func(note string) bool {
			res.Notes = append(res.Notes, note)
			// Every tool's reason, not only the first: the error is all
			// a failed generation reports.
			firstErr = errors.Join(firstErr, errors.New(note))
			return false
		}
		err := runSetup(ctx, abs, bdir, t, env, limit, logw, done)
		var lib *missingLibError
		if errors.As(err, &lib) {
			err = withCLibs(ctx, lib, opts, logw, func() error {
				for _, c := range t.Setup {
					delete(done, strings.Join(c, "\x00"))
				}
				return runSetup(ctx, abs, bdir, t, env, limit, logw, done)
			})
		}
		if err != nil {
			logf("setup failed", "tool", t.Name, "err", err)
			return fail(fmt.Sprintf("%s (%s): setup failed: %v", t.Name, t.Source, err))
		}
		if len(t.Skills) > 0 {
			// A library's wrapper must import what it calls.
			if err := runCheck(ctx, abs, bdir, t, env, opts.ProbeTimeout, logw); err != nil {
				err = explainImport(err, sc, pyEnv)
				return fail(fmt.Sprintf("%s (%s): check failed: %v", t.Name, t.Source, err))
			}
		} else if !opts.NoProbe {
			if err := probe(ctx, abs, bdir, t, env, opts.ProbeTimeout, logw); err != nil {
				// Its check is that same --help: the bundle would never
				// pass its own check.
				logf("probe failed", "tool", t.Name, "err", err)
				return fail(fmt.Sprintf("%s (%s): left out: %v", t.Name, t.Source, err))
			}
		}
		return true
	}
	for _, t := range tools {
		if prepare(t) {
			usable = append(usable, t)
		}
	}
	if len(usable) == 0 {
		// Every command-line tool was left out: the package's API, when it
		// has one, is what the repository still offers.
		var libs []*Tool
		if pyEnv != nil && !helper && !slices.ContainsFunc(tools, func(t *Tool) bool { return t.Kind == "python-library" }) {
			if t := pythonLibraryTool(sc, pyEnv, opts.Name); t != nil {
				libs = append(libs, t)
			}
		}
		if !slices.ContainsFunc(tools, func(t *Tool) bool { return t.Kind == "go-library" }) {
			if t := goLibraryTool(r, opts.Name, bdir); t != nil {
				libs = append(libs, t)
			}
		}
		for _, t := range libs {
			if err := writeFiles(abs, bdir, []*Tool{t}); err != nil {
				return nil, err
			}
			if prepare(t) {
				res.Notes = append(res.Notes, fmt.Sprintf("%s (%s): every command-line tool was left out; the library's API is the skills", t.Name, t.Source))
				usable = append(usable, t)
			}
		}
	}
	if len(usable) == 0 {
		return nil, withMissingNote(firstErr, res.Missing, opts.InstallSystemDeps)
	}
	usable, notes = publicSurface(usable)
	res.Notes = append(res.Notes, notes...)
	res.Tools = usable
	b := compose(r, usable, text, opts)
	res.Notes = append(res.Notes, r.leftOut...)
	for _, t := range usable {
		res.Notes = append(res.Notes, t.LeftOut...)
	}
	writeRoles(b)
	b.SystemPackages = systemPackages(ctx, opts, pyEnv)
	if len(b.Skills) == 0 {
		return nil, fmt.Errorf("%w: the entry points offer no capability that could become a skill", ErrNoEntryPoints)
	}
	data, err := Marshal(b)
	if err != nil {
		return nil, err
	}
	res.YAML = data
	res.Bundle = b
	return res, nil
}

// declaredName returns the name the repository gives itself: its Go
// module path's last element (without a major version, /v3), its Python
// project's name, its package.json name (without an @scope/); "" when it
// declares none.
func declaredName(r *repo, sc *pyScan) string {
	if data, ok := r.read("go.mod", 64<<10); ok {
		for _, ln := range strings.Split(string(data), "\n") {
			if f := strings.Fields(ln); len(f) >= 2 && f[0] == "module" {
				module := strings.Trim(f[1], `"`)
				name := path.Base(module)
				if majorRE.MatchString(name) {
					name = path.Base(path.Dir(module))
				}
				if name != "" && name != "." && name != "/" {
					return sanitizeProg(name)
				}
			}
		}
	}
	if sc != nil && sc.Name != "" {
		return sanitizeProg(sc.Name)
	}
	if data, ok := r.read("package.json", 1<<20); ok {
		var pkg struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(data, &pkg) == nil && pkg.Name != "" {
			return sanitizeProg(path.Base(pkg.Name))
		}
	}
	return ""
}

// inventory says what a repository without entry points holds.
func inventory(r *repo) string {
	counts := map[string]int{}
	text := 0
	for _, f := range r.files {
		ext := strings.ToLower(filepath.Ext(f))
		if ext == "" {
			ext = "(no extension)"
		}
		counts[ext]++
		if data, ok := r.read(f, 8<<10); ok && isText(data) {
			text++
		}
	}
	var parts []string
	for _, k := range sortedKeys(counts) {
		parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
		if len(parts) == 8 {
			parts = append(parts, "...")
			break
		}
	}
	what := "no Go main package, Python console script or __main__ module, package.json bin, shell script or Makefile target"
	if text == 0 {
		return fmt.Sprintf("%s; the repository holds only binary files (%s)", what, strings.Join(parts, ", "))
	}
	return fmt.Sprintf("%s among %d files (%s)", what, len(r.files), strings.Join(parts, ", "))
}

func isText(data []byte) bool {
	for _, c := range data {
		if c == 0 {
			return false
		}
	}
	return true
}

// runSetup runs a tool's setup commands in dir (the repo; bdir is the
// bundle's), skipping those in done (and adding those it runs).
func runSetup(ctx context.Context, dir, bdir string, t *Tool, env []string, limit setupLimit, logw io.Writer, done map[string]bool) error {
	for _, c := range t.Setup {
		key := strings.Join(c, "\x00")
		if done[key] {
			continue
		}
		done[key] = true
		argv := expandRepo(c, dir, bdir)
		fmt.Fprintf(logw, "$ %s\n", shortCommand(argv))
		res := proc.Run(ctx, proc.Spec{Argv: argv, Dir: dir, Env: env, Timeout: limit.d, Tee: logw})
		if res.Err != nil && res.ExitCode > 0 {
			out := res.Stderr
			if len(bytes.TrimSpace(out)) == 0 {
				out = res.Stdout
			}
			if line := errorLine(string(out)); line != "" {
				err := fmt.Errorf("%q exited with status %d: %s", shortCommand(argv), res.ExitCode, line)
				if names := missingPkgConfig(string(res.Stderr) + string(res.Stdout)); len(names) > 0 {
					return &missingLibError{err: err, names: names}
				}
				return err
			}
		}
		if res.Err != nil {
			return slowError(res, res.Err, limit.why)
		}
	}
	return nil
}

// runCheck runs a tool's check command in dir (the repo; bdir is the
// bundle's).
func runCheck(ctx context.Context, dir, bdir string, t *Tool, env []string, timeout time.Duration, logw io.Writer) error {
	argv := expandRepo(t.Check, dir, bdir)
	fmt.Fprintf(logw, "$ %s\n", shortCommand(argv))
	res := proc.Run(ctx, proc.Spec{Argv: argv, Dir: dir, Env: env, Timeout: max(timeout, time.Minute), Tee: logw})
	return res.Err
}

// writeVersionFiles writes, into the bundle's copy dir, the version
// modules a build hook would generate (hatch-vcs's version-file,
// setuptools-scm's version_file) and the repository lacks, so that the
// package imports even when it runs from source or its build fails. The
// version is unknown: 0+unknown.
func writeVersionFiles(dir string, files []string) []string {
	var notes []string
	for _, f := range files {
		clean := path.Clean(f)
		if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(clean))
		if _, err := os.Lstat(p); err == nil {
			continue
		}
		src := "# The build writes this file from the repository's version control;\n# the bundle's copy had none, so the version is unknown.\n" +
			"__version__ = version = \"0+unknown\"\n__version_tuple__ = version_tuple = (0, \"unknown\")\n"
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			continue
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err == nil {
			notes = append(notes, fmt.Sprintf("python: wrote %s (version 0+unknown), which the build generates", clean))
		}
	}
	return notes
}

var noModuleRE = lazyregexp.New(`No module named '([A-Za-z0-9_.]+)'`)

// explainImport says why a library's package does not import when the
// cause is a module of the package itself that the repository lacks: a
// file its build generates (a _version.py written by setuptools-scm or
// hatch-vcs), which only an install creates.
func explainImport(err error, sc *pyScan, e *PythonEnv) error {
	m := noModuleRE.FindStringSubmatch(err.Error())
	if m == nil || sc == nil || sc.API == nil || !strings.Contains(m[1], ".") {
		return err
	}
	if !slices.Contains(sc.API.Packages, strings.Split(m[1], ".")[0]) {
		return err
	}
	why := "the package imports " + m[1] + ", which is not in the repository: the build generates it"
	if e != nil && !e.Installed && e.Reason != "" {
		why += ", and installing failed (" + e.Reason + ")"
	}
	return fmt.Errorf("%s\n%w", why, err)
}

// withMissingNote adds the missing modules to the reason no tool was usable.
func withMissingNote(err error, missing []Missing, installed bool) error {
	if err == nil || len(missing) == 0 {
		return err
	}
	var parts []string
	for _, m := range missing {
		if m.Debian != "" {
			parts = append(parts, fmt.Sprintf("%s (Debian: %s)", m.Module, m.Debian))
		} else {
			parts = append(parts, m.Module+" (no Debian package known)")
		}
	}
	hint := " (agentnet generate --install-system-deps installs them)"
	if installed {
		// The option was given: what is still missing, Debian lacks.
		hint = " (not provided by the Debian packages --install-system-deps installed)"
	}
	return fmt.Errorf("%w; the interpreter lacks %s%s", err, strings.Join(parts, ", "), hint)
}

// writeFiles writes the tools' generated files: a name that starts with
// {{bundle}}/ into the bundle directory bdir (wrappers), any other into the
// repo directory dir's .agentnet (the bundle's copy of the repository; the
// source repository is never written).
func writeFiles(dir, bdir string, tools []*Tool) error {
	for _, t := range tools {
		for rel, data := range t.Files {
			p := filepath.Join(dir, filepath.FromSlash(rel))
			if inBundle, ok := strings.CutPrefix(rel, bundleVar+"/"); ok {
				p = filepath.Join(bdir, filepath.FromSlash(inBundle))
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return fmt.Errorf("write %s: %w", rel, err)
			}
			if err := os.WriteFile(p, data, 0o755); err != nil {
				return fmt.Errorf("write %s: %w", rel, err)
			}
		}
	}
	return nil
}

// shortCommand abbreviates long arguments (embedded scripts) for the log.
func shortCommand(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		if len(a) > 80 || strings.Contains(a, "\n") {
			a = "<" + fmt.Sprint(len(a)) + " bytes>"
		}
		parts[i] = a
	}
	return strings.Join(parts, " ")
}

// bundleVar is the template of the bundle directory.
const bundleVar = "{{" + bundle.VarBundle + "}}"

// expandRepo replaces {{repo}} with dir and {{bundle}} with bdir, and
// resolves a relative program path against dir.
func expandRepo(argv []string, dir, bdir string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = strings.ReplaceAll(strings.ReplaceAll(a, "{{repo}}", dir), bundleVar, bdir)
	}
	if p := out[0]; strings.Contains(p, "/") && !filepath.IsAbs(p) {
		out[0] = filepath.Join(dir, p)
	}
	return out
}

// maxProbes bounds the help probes of one tool.
const maxProbes = 40

// probe runs the tool's --help and each subcommand's, in a scratch
// directory, and merges what the help says into the tool's command tree.
// A program that rejects --help without a usage is asked with -h, then run
// bare on empty input (many C tools print their usage only so); what
// answers with a help text is the help, and the bundle's check becomes one
// that passes (-h, or that the program is in place). It fails when the
// tool's own --help does not exit in time (a server, a program waiting for
// input): such a program is no command-line tool, and its check would
// hang; and when nothing shows a usage.
func probe(ctx context.Context, dir, bdir string, t *Tool, env []string, timeout time.Duration, logw io.Writer) error {
	if t.Kind == "make" || len(t.Check) == 0 || t.Check[len(t.Check)-1] != "--help" {
		return nil
	}
	scratch, err := os.MkdirTemp("", "agentnet-probe-")
	if err != nil {
		return nil
	}
	defer os.RemoveAll(scratch)
	prog := expandRepo(t.Prog, dir, bdir)
	n := 0
	hung, failed, status := false, "", 0
	// help runs the program with path and then ask (--help, -h, or
	// nothing for a bare run) and parses what it prints.
	help := func(path, ask []string, limit time.Duration) *Command {
		if n >= maxProbes {
			return nil
		}
		n++
		argv := append(append(append([]string{}, prog...), path...), ask...)
		fmt.Fprintf(logw, "$ %s\n", strings.Join(argv, " "))
		res := proc.Run(ctx, proc.Spec{Argv: argv, Dir: scratch, Env: env, Timeout: limit, MaxOutput: 256 << 10, Stdin: strings.NewReader("")})
		out := string(res.Stdout)
		if strings.TrimSpace(out) == "" || (res.ExitCode != 0 && len(res.Stderr) > len(res.Stdout)) {
			out = string(res.Stderr)
		}
		// A program that prints its own path ("Usage of /tmp/.../gosh:")
		// is named by its name: the bundle must not depend on where it
		// was generated.
		for _, a := range prog {
			if filepath.IsAbs(a) {
				out = strings.ReplaceAll(out, a, filepath.Base(a))
			}
		}
		fmt.Fprintf(logw, "%s\n", clip(out, 4000))
		hung = res.TimedOut
		if path == nil {
			status, failed = res.ExitCode, ""
			if res.ExitCode != 0 && !res.TimedOut && !looksLikeHelp(out) {
				failed = errorLine(out)
			}
		}
		if res.TimedOut || strings.TrimSpace(out) == "" || looksLikeError(out) {
			return nil
		}
		h := parseHelp(out)
		h.Help = out
		return h
	}
	cmdline := strings.Join(t.Check[:len(t.Check)-1], " ")
	ask := []string{"--help"}
	h := help(nil, ask, timeout)
	if hung {
		return fmt.Errorf("%s --help did not exit within %s", cmdline, timeout)
	}
	if failed != "" {
		// --help was taken for an argument ("unrecognized command
		// '--help'"): -h, or the program alone, may print the usage. The
		// bare run reads empty input and is bounded more tightly: a
		// program that waits there is no help.
		why := failed
		for _, alt := range [][]string{{"-h"}, nil} {
			ah := help(nil, alt, min(timeout, bareProbeTimeout))
			if !hung && failed == "" && ah != nil && looksLikeHelp(ah.Help) {
				h, ask = ah, alt
				break
			}
		}
		if ask != nil && ask[0] == "--help" {
			return fmt.Errorf("%s --help failed without a usage: %s", cmdline, why)
		}
		fmt.Fprintf(logw, "# %s --help failed without a usage (%s); %s printed one\n", cmdline, why, strings.Join(append([]string{cmdline}, ask...), " "))
	}
	switch {
	case status == 0 && ask != nil && ask[0] != "--help":
		t.Check = append(slices.Clone(t.Check[:len(t.Check)-1]), ask...)
	case status != 0 || ask == nil:
		// It printed its usage but exits with an error (a usage function
		// that ends in os.Exit(1)), or only when run bare: no help option
		// is a check the bundle could pass. One that the program is in
		// place serves instead.
		check := presenceCheck(t)
		if check == nil {
			return fmt.Errorf("%s --help exits with status %d, and nothing else shows the program runs", cmdline, status)
		}
		// The check is the bundle's: one that fails here would fail the
		// whole bundle at its setup, so the tool is left out instead.
		if res := proc.Run(ctx, proc.Spec{Argv: check, Dir: dir, Env: env, Timeout: timeout, MaxOutput: 64 << 10}); res.ExitCode != 0 || res.TimedOut {
			return fmt.Errorf("%s --help exits with status %d, and its check %q fails: %s", cmdline, status, strings.Join(check, " "), errorLine(string(res.Stderr)+string(res.Stdout)))
		}
		t.Check = check
	}
	if h == nil {
		return nil
	}
	if ask == nil {
		// Its subcommands are not asked: run bare, each would do its
		// work on the empty input, or wait.
		mergeCommand(t.Root, h, t.Kind == "python")
		return nil
	}
	mergeCommand(t.Root, h, t.Kind == "python")
	var walk func(c *Command, path []string, depth int)
	walk = func(c *Command, path []string, depth int) {
		for _, s := range c.Subs {
			if s.Hidden {
				continue
			}
			p := append(append([]string{}, path...), s.Name)
			sh := help(p, ask, timeout)
			if sh == nil {
				continue
			}
			// A subcommand whose help is the parent's again did not take
			// --help: keep what the parent said. When the parent's help
			// lists no subcommands at all, the word was never one (a value
			// the source switches on, such as a shell name): the program
			// took it for an argument.
			if sh.Usage == h.Usage && len(sh.Subs) == len(h.Subs) {
				if len(h.Subs) == 0 && sh.Usage != "" && depth == 0 {
					s.Hidden = true
				}
				if len(h.Subs) > 0 || s.Hidden {
					continue
				}
			}
			sh.Name = s.Name
			mergeCommand(s, sh, t.Kind == "python")
			if depth < 1 {
				walk(s, p, depth+1)
			}
		}
	}
	walk(t.Root, nil, 0)
	return nil
}

// bareProbeTimeout bounds the run of a program without arguments that
// looks for its usage.
const bareProbeTimeout = 5 * time.Second

// presenceCheck returns a check that exits 0 when the tool's program is in
// place, for a tool whose --help exits non-zero: test -x of a program run
// by its path (a build's binary, an executable script), the shell's syntax
// check of a script run by a shell; nil for a program run otherwise.
func presenceCheck(t *Tool) []string {
	rel := func(p string) string { return strings.TrimPrefix(p, "{{repo}}/") }
	switch {
	case len(t.Prog) == 1 && strings.Contains(t.Prog[0], "/") && !filepath.IsAbs(rel(t.Prog[0])):
		return []string{"test", "-x", rel(t.Prog[0])}
	case len(t.Prog) == 2 && t.Kind == "shell":
		return []string{t.Prog[0], "-n", rel(t.Prog[1])}
	}
	return nil
}

// helpMarkRE finds what every help text has: a usage line, a section
// header, an option listed at the start of a line, or a bare synopsis (a
// program's name, then a bracketed option: "csvheader [-d delim] [-t]").
var helpMarkRE = lazyregexp.New(`(?im)usage|^\s*(commands|options|flags|arguments)\b.*:\s*$|^\s*--?[A-Za-z]|^\s*[\w./-]+\s+\[--?[A-Za-z]`)

func looksLikeHelp(out string) bool { return helpMarkRE.MatchString(out) }

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return clip(s, 200)
}

// errorLine returns the line of a failed program's output that says what
// went wrong: a Python traceback's last line, else the first line naming
// an error or a panic (a Node stack trace starts with the source line that
// threw), else the first line.
func errorLine(out string) string {
	var lines []string
	for _, ln := range strings.Split(out, "\n") {
		// The go command's progress ("go: downloading m v1.0.1") comes
		// before what went wrong.
		if strings.TrimSpace(ln) != "" && !goProgressRE.MatchString(ln) {
			lines = append(lines, ln)
		}
	}
	if len(lines) == 0 {
		return ""
	}
	if strings.HasPrefix(strings.TrimSpace(lines[0]), "Traceback (most recent call last)") {
		for i := len(lines) - 1; i > 0; i-- {
			if ln := lines[i]; ln[0] != ' ' && ln[0] != '\t' {
				return clip(strings.TrimSpace(ln), 200)
			}
		}
	}
	for _, ln := range lines {
		if errorLineRE.MatchString(strings.TrimSpace(ln)) {
			return clip(strings.TrimSpace(ln), 200)
		}
	}
	// "npm error code ENOTFOUND" names the error; the sentence after it
	// says what failed.
	for _, ln := range lines {
		if errorWordRE.MatchString(ln) && len(strings.Fields(ln)) >= 6 {
			return clip(strings.TrimSpace(ln), 200)
		}
	}
	return clip(strings.TrimSpace(lines[0]), 200)
}

var (
	goProgressRE = lazyregexp.New(`^go: (?:downloading|finding|extracting|found|added|upgraded|downgraded) `)
	errorLineRE  = lazyregexp.New(`^(?:[A-Za-z_][\w.]*(?:Error|Exception)\b|(?i:error|fatal|panic)\b)`)
	errorWordRE  = lazyregexp.New(`(?i)\b(?:error|fatal|failed)\b`)
)

func looksLikeError(out string) bool {
	low := strings.ToLower(strings.TrimSpace(out))
	return strings.HasPrefix(low, "traceback") || strings.Contains(low, "modulenotfounderror") ||
		strings.HasPrefix(low, "error: cannot find module") || strings.Contains(low, "syntaxerror")
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// mergeCommand folds what a help text says (h) into the command read from
// source (c). The help decides which subcommands, flags and arguments exist
// — it is what the program really accepts — and the source, when it was
// read exactly (trusted), their types and defaults.
func mergeCommand(c, h *Command, trusted bool) {
	if h.Summary != "" && c.Summary == "" {
		c.Summary = h.Summary
	}
	if h.About != "" && (c.About == "" || !trusted) {
		c.About = h.About
	}
	if h.Usage != "" {
		c.Usage = h.Usage
	}
	if len(h.Forms) > 0 {
		c.Forms = h.Forms
	}
	if h.Help != "" {
		c.Help = h.Help
	}
	if len(h.Examples) > 0 {
		c.Examples = h.Examples
	}
	// Subcommands.
	if len(h.Subs) > 0 {
		var subs []*Command
		for _, hs := range h.Subs {
			s := c.find(hs.Name)
			if s == nil {
				s = &Command{Name: hs.Name, Hidden: hs.Hidden}
			}
			if hs.Summary != "" {
				s.Summary = hs.Summary
			}
			if s.Usage == "" {
				s.Usage = hs.Usage
			}
			subs = append(subs, s)
		}
		if trusted {
			for _, s := range c.Subs {
				if h.find(s.Name) == nil {
					subs = append(subs, s)
				}
			}
		}
		c.Subs = subs
	}
	// Flags: the help's, then those of an exactly read source that the
	// help's parse missed.
	if len(h.Flags) > 0 {
		var flags []*Flag
		matched := map[*Flag]bool{}
		for _, hf := range h.Flags {
			sf := c.flag(hf.Long, hf.Short)
			if sf == nil && hf.Long == "" {
				sf = c.flag(hf.Short, "")
			}
			if sf == nil && hf.Short == "" && len(hf.Long) == 1 {
				sf = c.flag("", hf.Long)
			}
			f := hf
			matched[sf] = true
			if sf != nil && sf.Typed {
				_, onOff := sf.Default.(bool)
				onOff = onOff && hf.Type == "boolean" // click's "--override/--no-override", default True
				f.Type, f.Item, f.Typed, f.Output = sf.Type, sf.Item, true, sf.Output
				if onOff {
					f.Type = "boolean"
				}
				if sf.Default != nil {
					f.Default = sf.Default
				} else if f.Type != "string" {
					f.Default = convertAny(f.Default, f.Type)
				}
				if len(sf.Choices) > 0 {
					f.Choices = sf.Choices
				}
				f.Required = f.Required || sf.Required
				if sf.Name != "" {
					f.Name = sf.Name // argparse's dest names the parameter
				}
				if f.Help == "" {
					f.Help = sf.Help
				}
			}
			flags = append(flags, f)
		}
		if trusted {
			for _, sf := range c.Flags {
				if !matched[sf] && sf.Long != "help" && sf.Long != "version" && !strings.Contains(sf.Help, "SUPPRESS") {
					flags = append(flags, sf)
				}
			}
		}
		c.Flags = flags
	}
	// Positional arguments: the help's names and order, the source's types.
	if len(h.Args) > 0 {
		if len(c.Args) == len(h.Args) && trusted {
			// The help's order is the command line's: click lists
			// "[PATHS]... SQL" while its decorators read sql first.
			byName := map[string]*Arg{}
			for _, s := range c.Args {
				byName[strings.ToLower(s.Name)] = s
			}
			ordered := make([]*Arg, 0, len(h.Args))
			for _, a := range h.Args {
				if s := byName[strings.ToLower(a.Name)]; s != nil {
					ordered = append(ordered, s)
				}
			}
			if len(ordered) == len(c.Args) {
				c.Args = ordered
			}
			for i, a := range h.Args {
				s := c.Args[i]
				if a.Help != "" && s.Help == "" {
					s.Help = a.Help
				}
				s.Optional = s.Optional || a.Optional
				s.Variadic = s.Variadic || a.Variadic
			}
		} else if !trusted || len(c.Args) == 0 {
			c.Args = h.Args
		}
	}
}

func convertAny(v any, typ string) any {
	if s, ok := v.(string); ok {
		return convert(s, typ)
	}
	return v
}
