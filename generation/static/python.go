package static

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentnet/agentnet/generation/internal/proc"
)

//go:embed pyscan.py
var pyscanSource string

// launcherSource writes a console-script launcher, as pip would: the
// interpreter that runs it is recorded in the shebang, the repository's
// source directory goes first on sys.path, and the entry point runs with
// the program's name as argv[0]. Arguments: OUT NAME KIND TARGET SRC.
const launcherSource = `import os, sys
out, name, kind, target, src = sys.argv[1:6]
body = {
 "script": "mod, _, attr = T.partition(':')\nimport importlib\nobj = importlib.import_module(mod)\nfor part in attr.split('.'):\n    obj = getattr(obj, part)\nsys.exit(obj())\n",
 "module": "import runpy\nrunpy.run_module(T, run_name='__main__', alter_sys=True)\n",
 "file": "import runpy\nsys.path.insert(0, os.path.dirname(os.path.join(root, T)))\nrunpy.run_path(os.path.join(root, T), run_name='__main__')\n",
}[kind]
os.makedirs(os.path.dirname(out), exist_ok=True)
with open(out, "w") as fh:
    fh.write("#!%s\n# agentnet launcher for %s\nimport os, sys\nroot = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))\nsys.path.insert(0, os.path.join(root, %r))\nsys.argv[0] = %r\nT = %r\n" % (sys.executable, name, src, name, target) + body)
os.chmod(out, 0o755)
`

// pyScan is what pyscan.py reports.
type pyScan struct {
	Src         string    `json:"src"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Keywords    []string  `json:"keywords"`
	Entries     []pyEntry `json:"entries"`
	Missing     []string  `json:"missing"`
	Python      string    `json:"python"`
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
}

type pyClick struct {
	Name        string     `json:"name"`
	Kind        string     `json:"kind"`
	Description string     `json:"description"`
	Params      []pyArg    `json:"params"`
	Subs        []*pyClick `json:"subs"`
}

// pythonTools runs pyscan.py over the repository with the python3 on the
// environment's PATH and turns each entry point into a tool run through a
// launcher that setup writes into .agentnet/bin.
func pythonTools(ctx context.Context, r *repo, env []string, log func(string, ...any)) ([]*Tool, []Missing, error) {
	if !r.hasExt(".py") {
		return nil, nil, nil
	}
	tmp, err := os.MkdirTemp("", "agentnet-pyscan-")
	if err != nil {
		return nil, nil, fmt.Errorf("python scan: %w", err)
	}
	defer os.RemoveAll(tmp)
	script := filepath.Join(tmp, "pyscan.py")
	if err := os.WriteFile(script, []byte(pyscanSource), 0o644); err != nil {
		return nil, nil, fmt.Errorf("python scan: %w", err)
	}
	res := proc.Run(ctx, proc.Spec{
		Argv: []string{"python3", script, r.root}, Dir: tmp, Env: append(env, "PYTHONDONTWRITEBYTECODE=1"),
		Timeout: 2 * time.Minute, MaxOutput: 16 << 20,
	})
	if res.Err != nil {
		return nil, nil, fmt.Errorf("python scan (python3 with the ast module is needed for Python repos): %w", res.Err)
	}
	var sc pyScan
	if err := json.Unmarshal(res.Stdout, &sc); err != nil {
		return nil, nil, fmt.Errorf("python scan: bad output: %w", err)
	}
	var missing []Missing
	for _, m := range sc.Missing {
		missing = append(missing, Missing{Module: m, Debian: debianPackage(m)})
	}
	var tools []*Tool
	for _, e := range sc.Entries {
		name := sanitizeProg(e.Name)
		bin := ".agentnet/bin/" + name
		target := e.Target
		t := &Tool{
			Name:     name,
			Kind:     "python",
			Source:   e.File,
			Prog:     []string{bin},
			Setup:    [][]string{{"python3", "-c", launcherSource, bin, name, e.Kind, target, orDot(sc.Src)}},
			Check:    []string{bin, "--help"},
			Doc:      e.Doc,
			Keywords: sc.Keywords,
			Summary:  sc.Description,
			Missing:  missing,
		}
		switch {
		case e.Argparse != nil:
			t.Root = argparseCommand(e.Argparse)
		case len(e.Click) > 0:
			t.Root = clickCommand(e.Click[0])
		default:
			t.Root = &Command{}
		}
		tools = append(tools, t)
	}
	log("python scan", "entries", len(sc.Entries), "missing", sc.Missing)
	return tools, missing, nil
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
			f := &Flag{Help: a.Help, Required: a.Required, Typed: true}
			for _, n := range a.Names {
				switch {
				case strings.HasPrefix(n, "--"):
					if f.Long == "" {
						f.Long, f.Dashes = n[2:], "--"
					}
				case len(n) == 2:
					f.Short = n[1:]
				default:
					if f.Long == "" {
						f.Long, f.Dashes = n[1:], "-"
					}
				}
			}
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
			arg := &Arg{Name: a.Names[0], Help: a.Help, Type: scalarType(a.Type), Optional: !a.Required && a.Default != nil}
			if n, ok := a.Nargs.(float64); ok && (n < 0 || n > 1) {
				arg.Variadic = true
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
