package static

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/agentnet/agentnet/internal/lazyregexp"
)

// goTools finds the main packages of a Go module and reads, from their
// source, the flags they define (flag and pflag/cobra calls, with types and
// defaults), the subcommands their cobra.Command literals and their
// switch statements on the first argument name, and their package docs.
func goTools(r *repo) []*Tool {
	if !r.has("go.mod") && !r.hasExt(".go") {
		return nil
	}
	module := ""
	if data, ok := r.read("go.mod", 64<<10); ok {
		for _, ln := range strings.Split(string(data), "\n") {
			if f := strings.Fields(ln); len(f) >= 2 && f[0] == "module" {
				module = strings.Trim(f[1], `"`)
			}
		}
	}
	dirs := map[string][]string{}
	for _, f := range r.files {
		if strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") && !skipGoDir(path.Dir(f)) {
			dirs[path.Dir(f)] = append(dirs[path.Dir(f)], f)
		}
	}
	// A repository from before modules (GOPATH, dep, glide) has no go.mod:
	// one is written into the bundle's copy under the import path its own
	// packages use, and go mod tidy finds its requirements.
	var files map[string][]byte
	var tidy [][]string
	if !r.has("go.mod") {
		module = goModulePath(r, dirs)
		files = map[string][]byte{"go.mod": []byte("module " + module + "\n\ngo 1.21\n")}
		tidy = [][]string{{"go", "mod", "tidy", "-e"}}
	}
	var tools []*Tool
	for _, dir := range sortedKeys(dirs) {
		fset := token.NewFileSet()
		var asts []*ast.File
		isMain := false
		for _, f := range dirs[dir] {
			data, ok := r.read(f, 2<<20)
			if !ok {
				continue
			}
			if !goBuilds(r, f) {
				continue
			}
			af, err := parser.ParseFile(fset, f, data, parser.ParseComments)
			if err != nil || af.Name.Name != "main" {
				continue
			}
			asts = append(asts, af)
			for _, d := range af.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" {
					isMain = true
				}
			}
		}
		if !isMain {
			continue
		}
		name := path.Base(dir)
		if dir == "." {
			name = path.Base(module)
			if majorRE.MatchString(name) {
				name = path.Base(path.Dir(module)) // github.com/boyter/scc/v3
			}
			if name == "" || name == "." || name == "/" {
				name = r.name
			}
		}
		name = sanitizeProg(name)
		bin := ".agentnet/bin/" + name
		t := &Tool{
			Name:   name,
			Kind:   "go",
			Source: dir,
			Prog:   []string{bin},
			Setup:  append(slices.Clone(tidy), goBuild(r, dir, bin)),
			Check:  []string{bin, "--help"},
			Root:   goSource(asts),
			Files:  files,
		}
		for _, af := range asts {
			if af.Doc != nil && t.Doc == "" {
				t.Doc = af.Doc.Text()
			}
		}
		tools = append(tools, t)
	}
	// Several main packages: when the repository's commands live at the
	// root or under cmd/, the main packages under maintenance directories
	// (scripts/, tools/, hack/, internal/, playground/) generate, check or
	// demonstrate the repository; they are not what it offers.
	if slices.ContainsFunc(tools, func(t *Tool) bool { return t.Source == "." || t.Source == "cmd" || strings.HasPrefix(t.Source, "cmd/") }) {
		tools = slices.DeleteFunc(tools, func(t *Tool) bool {
			if maintenanceDir(t.Source) {
				r.leftOut = append(r.leftOut, fmt.Sprintf("%s (%s): left out: a program of a maintenance directory beside the repository's commands", t.Name, t.Source))
				return true
			}
			return false
		})
	}
	return tools
}

// goBuild returns the command that builds the main package in dir (a
// slash path) into bin (relative to the root). A package is built in its
// own module, the one whose go.mod is nearest above it: from the root, the
// go command does not build a package of a nested module (cmd/x/go.mod),
// so the build runs in the module's directory (go build -C), writing bin
// under {{repo}}. A nested module usually replaces
// the repository's root module by its directory, whose requirements its
// go.mod and go.sum lag behind: -mod=mod lets the build bring the copy's
// up to date, as go mod tidy would.
func goBuild(r *repo, dir, bin string) []string {
	mod := goModuleDir(r, dir)
	if mod == "." {
		pkg := "./" + dir
		if dir == "." {
			pkg = "."
		}
		return []string{"go", "build", "-trimpath", "-o", bin, pkg}
	}
	pkg := "."
	if dir != mod {
		pkg = "./" + strings.TrimPrefix(dir, mod+"/")
	}
	return []string{"go", "build", "-C", mod, "-mod=mod", "-trimpath", "-o", "{{repo}}/" + bin, pkg}
}

// goModuleDir returns the directory of the go.mod nearest above dir (dir
// itself included), "." for the root's or when there is none.
func goModuleDir(r *repo, dir string) string {
	for d := dir; d != "." && d != "/" && d != ""; d = path.Dir(d) {
		if r.has(d + "/go.mod") {
			return d
		}
	}
	return "."
}

// goBuilds reports whether the go command would build the Go file f (a
// slash path in r) here: build constraints (//go:build js, ignore, tools;
// a _windows.go suffix) leave files out. cgo is assumed to work; a build
// that lacks it says so.
func goBuilds(r *repo, f string) bool {
	ctx := build.Default
	ctx.CgoEnabled = true
	match, err := ctx.MatchFile(filepath.Join(r.root, filepath.FromSlash(path.Dir(f))), path.Base(f))
	return err == nil && match
}

// maintenanceDirs name the directories whose programs maintain a
// repository (generators, checkers, release and CI helpers, demos).
var maintenanceDirs = map[string]bool{
	"scripts": true, "script": true, "tools": true, "tool": true, "hack": true, "internal": true,
	"playground": true, "build": true, "ci": true, "dev": true, "devtools": true, "release": true,
	"gen": true, "generate": true, "generator": true, "codegen": true, "misc": true, "contrib": true,
	"demo": true, "demos": true, "docs": true, "doc": true, "website": true, "site": true, "bench": true,
	"benchmark": true, "benchmarks": true, "fuzz": true, "utils": true, "util": true,
}

// maintenanceDir reports whether a directory (a slash path) is or lies
// in a maintenance directory.
func maintenanceDir(dir string) bool {
	for _, part := range strings.Split(dir, "/") {
		if maintenanceDirs[strings.ToLower(strings.TrimLeft(part, "_."))] {
			return true
		}
	}
	return false
}

func skipGoDir(dir string) bool {
	for _, part := range strings.Split(dir, "/") {
		switch part {
		case "example", "examples", "_examples", "testdata", "hack", "test", "tests", "e2e", "bench", "benchmark", "benchmarks", "vendor", "internal":
			if part == "internal" && !strings.Contains(dir, "cmd") {
				return true
			}
			if part != "internal" {
				return true
			}
		}
		if strings.HasPrefix(part, "_") || strings.HasPrefix(part, ".") && part != "." {
			return true
		}
	}
	return false
}

// flagFuncs maps flag-defining methods to the type of the flag.
var flagFuncs = map[string]string{
	"String": "string", "Int": "integer", "Int64": "integer", "Int32": "integer", "Uint": "integer", "Uint64": "integer",
	"Float64": "number", "Float32": "number", "Bool": "boolean", "Duration": "string", "Count": "integer",
	"StringSlice": "array", "StringArray": "array", "IntSlice": "array",
}

// goSource reads a main package: a root command whose flags are those
// defined outside any subcommand, and subcommands from cobra literals,
// command tables ({name: "x", ...}) and switch statements on an argument.
func goSource(files []*ast.File) *Command {
	root := &Command{}
	subs := map[string]*Command{}
	getSub := func(name string) *Command {
		if s, ok := subs[name]; ok {
			return s
		}
		s := &Command{Name: name, Hidden: isHiddenCommand(name)}
		subs[name] = s
		root.Subs = append(root.Subs, s)
		return s
	}
	usesArgs, readsFiles := false, false
	type pendingArgs struct {
		c   *Command
		lit *ast.CompositeLit
	}
	var pending []pendingArgs
	for _, af := range files {
		var stack []ast.Node
		ast.Inspect(af, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok {
					switch id.Name + "." + sel.Sel.Name {
					case "flag.Args", "flag.Arg", "flag.NArg", "pflag.Args", "pflag.Arg", "pflag.NArg":
						usesArgs = true
					case "os.Open", "os.ReadFile", "ioutil.ReadFile", "filepath.Walk", "filepath.WalkDir", "os.ReadDir", "os.Stat":
						readsFiles = true
					}
				}
			}
			switch x := n.(type) {
			case *ast.CompositeLit:
				if name, fields := commandLiteral(x); name != "" {
					s := getSub(name)
					if v := fields["short"]; v != "" && s.Summary == "" {
						s.Summary = v
					} else if v := fields["summary"]; v != "" && s.Summary == "" {
						s.Summary = v
					}
					for _, k := range []string{"long", "about", "description", "help"} {
						if v := fields[k]; v != "" && s.About == "" {
							s.About = strings.TrimSpace(v)
						}
					}
					if len(strings.Fields(fields["use"])) == 1 && len(s.Args) == 0 {
						// Operands the Use string does not show.
						pending = append(pending, pendingArgs{s, x})
					}
				}
			case *ast.CallExpr:
				f := flagCall(x)
				if f == nil {
					return true
				}
				owner := enclosingCommand(stack)
				c := root
				if owner != "" {
					c = getSub(owner)
				}
				if c.flag(f.Long, f.Short) == nil {
					c.Flags = append(c.Flags, f)
				}
			case *ast.SwitchStmt:
				if !isArgSwitch(x.Tag) {
					return true
				}
				for _, st := range x.Body.List {
					cc, ok := st.(*ast.CaseClause)
					if !ok {
						continue
					}
					for _, e := range cc.List {
						if s, ok := stringLit(e); ok && cmdNameRE.MatchString(s) {
							getSub(s)
						}
					}
				}
			}
			return true
		})
	}
	for _, p := range pending {
		p.c.Args = cobraArgs(p.lit, readsFiles)
	}
	flagChoices(files, root)
	// A flag-package program that reads its remaining arguments takes
	// operands its usage does not show (Go's default usage lists flags
	// only): files, when it opens files.
	if usesArgs && len(root.Subs) == 0 {
		name := "args"
		if readsFiles {
			name = "files"
		}
		root.Args = []*Arg{{Name: name, Optional: true, Variadic: true}}
	}
	// The root's own cobra literal is the one whose Use is the program:
	// keep subcommands only when there are several or one is not the root.
	return root
}

// commandLiteral recognises a composite literal that describes a command:
// cobra.Command{Use: "name ...", Short: ...} or a command table entry with
// a name field. It returns the command name and its string fields, with
// lower-cased keys.
func commandLiteral(x *ast.CompositeLit) (string, map[string]string) {
	fields := map[string]string{}
	for _, el := range x.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		k, ok := kv.Key.(*ast.Ident)
		if !ok {
			continue
		}
		if s, ok := stringLit(kv.Value); ok {
			fields[strings.ToLower(k.Name)] = s
		}
	}
	name := ""
	if u, ok := fields["use"]; ok {
		name = strings.Fields(u + " ")[0]
	} else if n, ok := fields["name"]; ok && (fields["summary"] != "" || fields["short"] != "" || fields["usage"] != "" || fields["help"] != "" || fields["about"] != "") {
		name = n
	}
	if !cmdNameRE.MatchString(name) {
		return "", nil
	}
	return name, fields
}

// enclosingCommand returns the name of the command literal a flag call sits
// in (a cobra.Command's Run or a table entry's setup function), or the
// subcommand of an enclosing switch case, or "".
func enclosingCommand(stack []ast.Node) string {
	for i := len(stack) - 1; i >= 0; i-- {
		switch x := stack[i].(type) {
		case *ast.CompositeLit:
			if name, _ := commandLiteral(x); name != "" {
				return name
			}
		case *ast.CaseClause:
			if len(x.List) == 1 {
				if s, ok := stringLit(x.List[0]); ok && cmdNameRE.MatchString(s) && i > 1 {
					if sw, ok := stack[i-2].(*ast.SwitchStmt); ok && isArgSwitch(sw.Tag) {
						return s
					}
				}
			}
		}
	}
	return ""
}

// isArgSwitch reports whether a switch tag looks like the first
// command-line argument: os.Args[1], args[0], flag.Arg(0), cmd, command.
func isArgSwitch(tag ast.Expr) bool {
	switch t := tag.(type) {
	case *ast.IndexExpr:
		if lit, ok := t.Index.(*ast.BasicLit); ok && (lit.Value == "0" || lit.Value == "1") {
			s := exprString(t.X)
			return strings.HasSuffix(strings.ToLower(s), "args")
		}
	case *ast.CallExpr:
		s := exprString(t.Fun)
		return s == "flag.Arg" || strings.HasSuffix(s, ".Arg")
	case *ast.Ident:
		switch strings.ToLower(t.Name) {
		case "cmd", "command", "subcmd", "subcommand", "verb", "action", "op", "mode":
			return true
		}
	}
	return false
}

func exprString(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.SelectorExpr:
		return exprString(t.X) + "." + t.Sel.Name
	}
	return ""
}

// flagCall reads a flag definition: flag.Int("n", 10, "usage"),
// fs.StringVar(&s, "name", "", "usage"), cmd.Flags().IntVarP(&n, "count",
// "c", 1, "usage"), pflag's BoolP.
func flagCall(x *ast.CallExpr) *Flag {
	sel, ok := x.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	m := sel.Sel.Name
	args := x.Args
	if m == "Var" || m == "VarP" || m == "TextVar" {
		// A custom flag.Value: it takes a value; its type is not known.
		i := 1
		if len(args) < 3 {
			return nil
		}
		name, ok := stringLit(args[i])
		if !ok || name == "" {
			return nil
		}
		f := &Flag{Type: "string", Typed: true, Metavar: "VALUE"}
		if len(name) == 1 {
			f.Short = name
		} else {
			f.Long = name
		}
		if s, ok := stringLit(args[len(args)-1]); ok {
			f.Help = s
		}
		return f
	}
	withShort := strings.HasSuffix(m, "P")
	base := strings.TrimSuffix(m, "P")
	isVar := strings.HasSuffix(base, "Var")
	base = strings.TrimSuffix(base, "Var")
	typ, ok := flagFuncs[base]
	if !ok {
		return nil
	}
	if isVar {
		if len(args) == 0 {
			return nil
		}
		args = args[1:]
	}
	want := 3
	if withShort {
		want = 4
	}
	if base == "Count" {
		want--
	}
	if len(args) != want {
		return nil
	}
	name, ok := stringLit(args[0])
	if !ok || name == "" || strings.ContainsAny(name, " =") {
		return nil
	}
	f := &Flag{Type: typ, Typed: true}
	if len(name) == 1 {
		f.Short = name
	} else {
		f.Long = name
	}
	i := 1
	if withShort {
		if s, ok := stringLit(args[1]); ok && s != "" {
			f.Short = s
		}
		i++
	}
	if base != "Count" {
		f.Default = literalValue(args[i], typ)
		i++
	}
	if s, ok := stringLit(args[i]); ok {
		f.Help = s
	}
	if typ == "array" {
		f.Item = "string"
		if base == "IntSlice" {
			f.Item = "integer"
		}
	}
	return f
}

func literalValue(e ast.Expr, typ string) any {
	switch v := e.(type) {
	case *ast.BasicLit:
		switch v.Kind {
		case token.STRING:
			s, _ := strconv.Unquote(v.Value)
			if s == "" {
				return nil
			}
			return s
		case token.INT:
			n, err := strconv.ParseInt(v.Value, 0, 64)
			if err != nil {
				return nil
			}
			if typ == "number" {
				return float64(n)
			}
			return n
		case token.FLOAT:
			f, err := strconv.ParseFloat(v.Value, 64)
			if err != nil {
				return nil
			}
			return f
		}
	case *ast.Ident:
		if v.Name == "true" {
			return true
		}
	case *ast.UnaryExpr:
		if v.Op == token.SUB {
			switch x := literalValue(v.X, typ).(type) {
			case int64:
				return -x
			case float64:
				return -x
			}
		}
	}
	return nil
}

func stringLit(e ast.Expr) (string, bool) {
	switch v := e.(type) {
	case *ast.BasicLit:
		if v.Kind == token.STRING {
			s, err := strconv.Unquote(v.Value)
			return s, err == nil
		}
	case *ast.BinaryExpr:
		if v.Op == token.ADD {
			a, ok1 := stringLit(v.X)
			b, ok2 := stringLit(v.Y)
			return a + b, ok1 && ok2
		}
	}
	return "", false
}

func sanitizeProg(name string) string {
	name = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '-'
	}, name)
	name = strings.Trim(name, ".-")
	if name == "" {
		return "tool"
	}
	return name
}

func sortedKeys[M ~map[string]V, V any](m M) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// majorRE is a module path's major version element (/v3).
var majorRE = lazyregexp.New(`^v\d+$`)

// goModulePathRE is what a module path written into go.mod may hold.
var goModulePathRE = lazyregexp.New(`^[A-Za-z0-9][A-Za-z0-9._~-]*(/[A-Za-z0-9._~-]+)*$`)

// goModulePath returns the import path a repository without go.mod is
// imported by: the prefix its own imports put before its directories
// (github.com/client9/misspell for an import of it from cmd/misspell), the
// most common one; else a local name.
func goModulePath(r *repo, dirs map[string][]string) string {
	counts := map[string]int{}
	root := rootPackage(r, dirs["."])
	for _, dir := range sortedKeys(dirs) {
		for _, f := range dirs[dir] {
			src, ok := r.read(f, 2<<20)
			if !ok {
				continue
			}
			af, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly)
			if err != nil {
				continue
			}
			for _, im := range af.Imports {
				p, err := strconv.Unquote(im.Path.Value)
				if err != nil || !strings.Contains(strings.Split(p, "/")[0], ".") {
					continue // the standard library
				}
				for d := range dirs {
					switch {
					case d == "." && root != "" && root != "main" && path.Base(p) == root:
						counts[p]++
					case d != "." && strings.HasSuffix(p, "/"+d):
						counts[strings.TrimSuffix(p, "/"+d)]++
					}
				}
			}
		}
	}
	best := ""
	for _, m := range sortedKeys(counts) {
		if goModulePathRE.MatchString(m) && (best == "" || counts[m] > counts[best]) {
			best = m
		}
	}
	if best == "" {
		best = "agentnet.local/" + sanitizeProg(r.name)
	}
	return best
}

// rootPackage returns the package name of the repository's root directory.
func rootPackage(r *repo, files []string) string {
	for _, f := range files {
		if src, ok := r.read(f, 2<<20); ok {
			if af, err := parser.ParseFile(token.NewFileSet(), f, src, parser.PackageClauseOnly); err == nil {
				return af.Name.Name
			}
		}
	}
	return ""
}
