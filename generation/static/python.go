package static

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agentnet/agentnet/internal/proc"
)

//go:embed pyscan.py
var pyscanSource string

// launcherSource writes a console-script launcher, as pip would: the
// interpreter that runs it is recorded in the shebang, the repository's
// source directory goes first on sys.path, and the entry point runs with
// the program's name as argv[0]. Arguments: OUT NAME KIND TARGET SRC.
//
//go:embed pylaunch.py
var launcherSource string

// pyScan is what pyscan.py reports.
type pyScan struct {
	Src         string    `json:"src"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Keywords    []string  `json:"keywords"`
	Entries     []pyEntry `json:"entries"`
	Missing     []string  `json:"missing"`
	Python      string    `json:"python"`
	// Library API, every third-party import of the package code, and the
	// requires-python specifier.
	API     *pyAPI   `json:"api"`
	Imports []string `json:"imports"`
	// Needed are the third-party imports a run of an entry point needs:
	// its modules' import closure, without optional (try/except
	// ImportError), platform- or version-guarded, test and build-written
	// modules.
	Needed []string `json:"needed"`
	// Optional are the imports of that closure under try/except
	// ImportError: extras --install-system-deps installs when it can.
	Optional       []string `json:"optional"`
	Dependencies   []string `json:"dependencies"` // [project].dependencies, as written
	RequiresPython string   `json:"requires_python"`
	BuildRequires  []string `json:"build_requires"` // [build-system] requires, names only
	VersionFiles   []string `json:"version_files"`  // version modules a build hook writes
}

type pyEntry struct {
	Name     string     `json:"name"`
	Kind     string     `json:"kind"` // script, module, file
	Target   string     `json:"target"`
	Module   string     `json:"module"`
	File     string     `json:"file"`
	Doc      string     `json:"doc"`
	Argparse *pyParser  `json:"argparse"`
	Click    []*pyClick `json:"click"`
	// Declared is set for a script file the packaging installs
	// (setup(scripts=...), script-files).
	Declared bool `json:"declared"`
}

type pyParser struct {
	Name        string      `json:"name"`
	Prog        string      `json:"prog"`
	Description string      `json:"description"`
	Epilog      string      `json:"epilog"`
	Help        string      `json:"help"`
	Doc         string      `json:"doc"`
	Args        []pyArg     `json:"args"`
	Subs        []*pyParser `json:"subs"`
}

type pyArg struct {
	Names    []string `json:"names"`
	Help     string   `json:"help"`
	Metavar  any      `json:"metavar"`
	Dest     string   `json:"dest"`
	Nargs    any      `json:"nargs"`
	Action   string   `json:"action"`
	Required bool     `json:"required"`
	Default  any      `json:"default"`
	Choices  []any    `json:"choices"`
	Type     string   `json:"type"`
	Path     bool     `json:"path"`
	// click
	Kind     string `json:"kind"`
	IsFlag   bool   `json:"is_flag"`
	Multiple bool   `json:"multiple"`
	// Optional is set for an argument the command may be given without
	// (click's required=False, a default, nargs=-1; typer's default).
	Optional bool `json:"optional"`
	// Output is set for a file the source opens for writing
	// (argparse.FileType("w"), click.File("w")).
	Output bool `json:"output"`
}

type pyClick struct {
	Name        string     `json:"name"`
	Kind        string     `json:"kind"`
	Description string     `json:"description"`
	Params      []pyArg    `json:"params"`
	Subs        []*pyClick `json:"subs"`
}

// pythonScan runs pyscan.py over the repository (with any python3: it only
// needs the ast module) and returns what it reports, or nil for a
// repository without Python files.
// pyScanBase is the Python scan's budget for a small repository on a quiet
// machine; repoBudget scales it.
const pyScanBase = 2 * time.Minute

func pythonScan(ctx context.Context, r *repo, env []string) (*pyScan, error) {
	if !r.hasExt(".py") {
		return nil, nil
	}
	tmp, err := os.MkdirTemp("", "agentnet-pyscan-")
	if err != nil {
		return nil, fmt.Errorf("python scan: %w", err)
	}
	defer os.RemoveAll(tmp)
	script := filepath.Join(tmp, "pyscan.py")
	if err := os.WriteFile(script, []byte(pyscanSource), 0o644); err != nil {
		return nil, fmt.Errorf("python scan: %w", err)
	}
	// The scan parses every Python file: its time grows with the files
	// and the machine's load, like a build's.
	budget := repoBudget(r, pyScanBase)
	var res *proc.Result
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		res = proc.Run(ctx, proc.Spec{
			Argv: []string{py, script, r.root}, Dir: tmp, Env: append(slices.Clip(env), "PYTHONDONTWRITEBYTECODE=1"),
			Timeout: budget.limit(), MaxOutput: 32 << 20,
		})
		if res.Err == nil || res.TimedOut {
			break
		}
	}
	if res.TimedOut {
		return nil, fmt.Errorf("python scan: the parse of the repository's Python files did not finish within its budget (%s)", budget)
	}
	if res.Err != nil {
		return nil, fmt.Errorf("python scan (python3 with the ast module is needed for Python repos): %w", res.Err)
	}
	var sc pyScan
	if err := json.Unmarshal(res.Stdout, &sc); err != nil {
		return nil, fmt.Errorf("python scan: bad output: %w", err)
	}
	return &sc, nil
}

// venvDir is where the environment of a Python repository lives, relative
// to the repo directory (a setup product of the bundle's copy).
const venvDir = ".agentnet/venv"

// pythonEnvironment chooses the interpreter for a scanned repository, finds
// which of its imports are missing and, when asked, installs their Debian
// packages with apt-get and looks again.
func pythonEnvironment(ctx context.Context, sc *pyScan, opts Options, logw io.Writer) (*PythonEnv, error) {
	// The build backend is needed too, for pip to install the repository
	// without build isolation.
	build := buildModules(sc.BuildRequires)
	modules := append(append([]string{}, sc.Imports...), build...)
	cands := probePythons(ctx, opts.Env, modules)
	e := &PythonEnv{Venv: venvDir, Candidates: cands, requires: sc.RequiresPython, imports: sc.Imports, src: sc.Src}
	e.Python = choosePython(cands, sc.RequiresPython, opts.InstallSystemDeps)
	if e.Python == nil {
		return nil, errors.New("no python3 interpreter with the venv module found (Debian: python3-venv)")
	}
	// What is missing, and what apt-get installs, is what a run needs:
	// with entry points, their import closure; a library's, all of them.
	wanted := modules
	if len(sc.Entries) > 0 {
		wanted = append(append([]string{}, sc.Needed...), build...)
	}
	e.Missing = missingOf(wanted, e.Python.Found)
	// Installing, the extras the entry points would use come too.
	install := e.Missing
	if len(sc.Entries) > 0 {
		install = missingOf(append(append([]string{}, wanted...), sc.Optional...), e.Python.Found)
	}
	if opts.InstallSystemDeps && len(install) > 0 && e.Python.Debian {
		var pkgs []string
		for _, m := range install {
			if m.Debian != "" {
				pkgs = append(pkgs, m.Debian)
			}
		}
		e.Apt = opts.apt.install(ctx, pkgs, opts.Env, logw)
		cands = probePythons(ctx, opts.Env, modules)
		e.Candidates = cands
		e.Python = choosePython(cands, sc.RequiresPython, true)
		if e.Python == nil {
			return nil, errors.New("no python3 interpreter with the venv module found after installing system packages")
		}
		e.Missing = missingOf(wanted, e.Python.Found)
	}
	for _, m := range wanted {
		if p := debianPackage(m); p != "" && !slices.Contains(e.Debian, p) && e.Python.Debian {
			e.Debian = append(e.Debian, p)
		}
	}
	return e, nil
}

// buildModules turns [build-system] requirement names into the modules
// they provide ("hatch-vcs" → hatch_vcs, "poetry-core" → poetry).
func buildModules(reqs []string) []string {
	var out []string
	for _, r := range reqs {
		m := strings.ReplaceAll(strings.ToLower(r), "-", "_")
		switch m {
		case "poetry_core":
			m = "poetry"
		case "pdm_backend", "pdm_pep517":
			m = "pdm"
		case "scikit_build_core":
			m = "scikit_build_core"
		}
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

func missingOf(imports, found []string) []Missing {
	var out []Missing
	for _, m := range imports {
		if !slices.Contains(found, m) {
			out = append(out, Missing{Module: m, Debian: debianPackage(m)})
		}
	}
	return out
}

// pythonTools turns each entry point of a scanned repository into a tool
// run, through a launcher that setup writes into .agentnet/bin, by the
// environment's interpreter.
func pythonTools(sc *pyScan, e *PythonEnv) []*Tool {
	var tools []*Tool
	for _, en := range sc.Entries {
		name := sanitizeProg(en.Name)
		bin := ".agentnet/bin/" + name
		t := &Tool{
			Name:   name,
			Kind:   "python",
			Source: en.File,
			// The launcher runs through the venv's interpreter, named
			// relative to the repo, so the bundle can move.
			Prog:     []string{e.VenvPython(), "{{repo}}/" + bin},
			Setup:    [][]string{e.envSetup(sc.Src), {e.VenvPython(), "-c", launcherSource, bin, name, en.Kind, en.Target, orDot(sc.Src)}},
			Doc:      en.Doc,
			Keywords: sc.Keywords,
			Summary:  sc.Description,
			Missing:  e.Missing,
			Files:    envFiles(),
			// A script found by its __main__ guard alone gives way to a
			// library's API, unless it builds a command line: that is a
			// program of the repository's, whatever declares it.
			Loose: en.Kind == "file" && !en.Declared && en.Argparse == nil && len(en.Click) == 0,
		}
		t.Check = append(append([]string{}, t.Prog...), "--help")
		switch {
		case en.Argparse != nil:
			t.Root = argparseCommand(en.Argparse)
		case len(en.Click) > 0:
			t.Root = clickCommand(en.Click[0])
		default:
			t.Root = &Command{}
		}
		tools = append(tools, t)
	}
	return tools
}

func orDot(s string) string {
	if s == "" {
		return "."
	}
	return s
}

func argparseCommand(p *pyParser) *Command {
	c := &Command{Name: p.Name, Summary: p.Help, About: strings.TrimSpace(p.Description)}
	if c.About == "" {
		c.About = strings.TrimSpace(p.Doc)
	}
	c.Examples = epilogExamples(p.Epilog)
	for _, a := range p.Args {
		if a.Action == "help" || a.Action == "version" {
			continue
		}
		if len(a.Names) == 0 {
			continue
		}
		if strings.HasPrefix(a.Names[0], "-") {
			// One option, however many names: the longest long name is
			// passed, the others are aliases, and argparse's dest names
			// the parameter ("--ac, --atomic", "-l, -w, --line-length").
			f := &Flag{Help: a.Help, Required: a.Required, Typed: true, Name: a.Dest}
			var longs, shorts, goLongs []string
			for _, n := range a.Names {
				switch {
				case strings.HasPrefix(n, "--"):
					longs = append(longs, n[2:])
				case len(n) == 2:
					shorts = append(shorts, n[1:])
				default:
					goLongs = append(goLongs, n[1:])
				}
			}
			f.setNames(longs, goLongs, shorts)
			if s, ok := a.Metavar.(string); ok {
				f.Metavar = s
			}
			switch a.Action {
			case "store_true", "store_false", "store_const", "count", "BooleanOptionalAction", "argparse.BooleanOptionalAction":
				f.Type = "boolean"
				if a.Action == "count" {
					f.Type = "boolean"
				}
			case "append", "extend":
				f.Type, f.Item = "array", scalarType(a.Type)
			default:
				f.Type = scalarType(a.Type)
				if a.Nargs != nil && a.Nargs != "?" {
					f.Type, f.Item = "array", scalarType(a.Type)
				}
				if f.Metavar == "" {
					f.Metavar = strings.ToUpper(strings.ReplaceAll(f.Long, "-", "_"))
				}
			}
			if f.Type != "boolean" && a.Default != nil {
				f.Default = a.Default
			}
			for _, ch := range a.Choices {
				f.Choices = append(f.Choices, fmt.Sprint(ch))
			}
			if a.Path {
				f.Metavar = "FILE"
			}
			f.Output = a.Output
			c.Flags = append(c.Flags, f)
			continue
		}
		arg := &Arg{Name: a.Names[0], Help: a.Help, Type: scalarType(a.Type)}
		if s, ok := a.Metavar.(string); ok && s != "" {
			arg.Name = s
		}
		if a.Dest != "" {
			arg.Name = a.Dest
		}
		switch a.Nargs {
		case "?":
			arg.Optional = true
		case "*":
			arg.Optional, arg.Variadic = true, true
		case "+", "...", "argparse.REMAINDER":
			arg.Variadic = true
		case nil:
		default:
			if n, ok := a.Nargs.(float64); ok && n > 1 {
				arg.Variadic = true
			}
		}
		if a.Default != nil {
			arg.Default = a.Default
		}
		for _, ch := range a.Choices {
			arg.Choices = append(arg.Choices, fmt.Sprint(ch))
		}
		if a.Path {
			arg.Help = strings.TrimSpace(arg.Help + " (file)")
		}
		c.Args = append(c.Args, arg)
	}
	for _, s := range p.Subs {
		sub := argparseCommand(s)
		sub.Hidden = isHiddenCommand(sub.Name)
		c.Subs = append(c.Subs, sub)
	}
	return c
}

func clickCommand(k *pyClick) *Command {
	c := &Command{Name: k.Name, About: strings.TrimSpace(k.Description)}
	if i := strings.Index(c.About, "\n\n"); i > 0 {
		c.Summary = strings.Join(strings.Fields(c.About[:i]), " ")
	} else {
		c.Summary = strings.Join(strings.Fields(c.About), " ")
	}
	for _, a := range k.Params {
		if a.Kind == "argument" {
			if len(a.Names) == 0 {
				continue
			}
			arg := &Arg{Name: a.Names[0], Help: a.Help, Type: scalarType(a.Type), Optional: a.Optional || !a.Required && a.Default != nil}
			if n, ok := a.Nargs.(float64); ok && (n < 0 || n > 1) {
				arg.Variadic = true
			}
			arg.Default = a.Default
			for _, ch := range a.Choices {
				arg.Choices = append(arg.Choices, fmt.Sprint(ch))
			}
			if a.Path {
				arg.Help = strings.TrimSpace(arg.Help + " (file)")
			}
			c.Args = append(c.Args, arg)
			continue
		}
		f := &Flag{Help: a.Help, Required: a.Required, Typed: true}
		for _, n := range a.Names {
			n = strings.Split(n, "/")[0]
			switch {
			case strings.HasPrefix(n, "--"):
				if f.Long == "" {
					f.Long, f.Dashes = n[2:], "--"
				}
			case strings.HasPrefix(n, "-") && len(n) == 2:
				f.Short = n[1:]
			}
		}
		if f.Long == "" && f.Short == "" {
			continue
		}
		switch {
		case a.IsFlag || a.Type == "boolean":
			f.Type = "boolean"
		case a.Multiple:
			f.Type, f.Item = "array", scalarType(a.Type)
		default:
			f.Type = scalarType(a.Type)
			f.Metavar = strings.ToUpper(strings.ReplaceAll(f.Long, "-", "_"))
			if a.Path {
				f.Metavar = "FILE"
			}
			if a.Default != nil {
				f.Default = a.Default
			}
		}
		for _, ch := range a.Choices {
			f.Choices = append(f.Choices, fmt.Sprint(ch))
		}
		f.Output = a.Output
		c.Flags = append(c.Flags, f)
	}
	for _, s := range k.Subs {
		sub := clickCommand(s)
		sub.Hidden = isHiddenCommand(sub.Name)
		c.Subs = append(c.Subs, sub)
	}
	return c
}

func scalarType(t string) string {
	switch t {
	case "integer", "number", "boolean":
		return t
	}
	return "string"
}

// epilogExamples picks the example command lines out of an argparse epilog.
func epilogExamples(epilog string) []string {
	var out []string
	in := false
	for _, ln := range strings.Split(epilog, "\n") {
		t := strings.TrimSpace(ln)
		if strings.HasPrefix(strings.ToLower(t), "example") {
			in = true
			continue
		}
		if in && t != "" && strings.HasPrefix(ln, " ") {
			if i := strings.Index(t, " #"); i > 0 {
				t = strings.TrimSpace(t[:i])
			}
			out = append(out, strings.TrimPrefix(t, "$ "))
		} else if in && t != "" {
			in = false
		}
	}
	return out
}
