package static

import (
	"bytes"
	_ "embed"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/lazyregexp"
)

// goArg is how the Go wrapper builds one argument.
type goArg struct {
	name   string // the schema's name
	gtype  string // the kind: string, bool, int, int64, float64, strings, ints, floats, bytes, reader, duration
	conv   string // a conversion to the declared type, "" for none ("lib.Unit", "int32")
	spread bool   // variadic
}

// goCall is one skill of the Go wrapper: a function of a package, or a
// method of a value a constructor function makes.
type goCall struct {
	id       string
	pkg      string // import path
	ctor     string // constructor function, for a method
	ctorArgs []goArg
	ctorErr  bool
	fn       string // function or method name
	args     []goArg
	results  int // values before the error
	hasErr   bool
}

// goLibraryTool makes the tool of a Go library (a module without a main
// package): exported functions with simple parameter types (strings,
// numbers, booleans, lists of them, files as []byte or io.Reader), and
// exported methods of values built by such a function, become skills run
// by a main package generated into the bundle directory bdir (under
// wrapperDir) and built there against the repository (dependencies through
// the module proxy).
func goLibraryTool(r *repo, name, bdir string) *Tool {
	data, ok := r.read("go.mod", 64<<10)
	if !ok {
		return nil
	}
	module, goVersion := "", ""
	for _, ln := range strings.Split(string(data), "\n") {
		f := strings.Fields(ln)
		if len(f) >= 2 && f[0] == "module" {
			module = strings.Trim(f[1], `"`)
		}
		if len(f) >= 2 && f[0] == "go" {
			goVersion = f[1]
		}
	}
	if module == "" {
		return nil
	}
	dirs := map[string][]string{}
	for _, f := range r.files {
		if strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") && !skipGoDir(path.Dir(f)) && !isInternal(path.Dir(f)) {
			dirs[path.Dir(f)] = append(dirs[path.Dir(f)], f)
		}
	}
	var caps []*capability
	calls := map[*capability]*goCall{}
	order := 0
	text, _ := readme(r)
	called := readmeCalls(text)
	for _, dir := range sortedKeys(dirs) {
		fset := token.NewFileSet()
		var files []*ast.File
		for _, f := range dirs[dir] {
			src, ok := r.read(f, 2<<20)
			if !ok {
				continue
			}
			af, err := parser.ParseFile(fset, f, src, parser.ParseComments)
			if err != nil || af.Name.Name == "main" || strings.HasSuffix(af.Name.Name, "_test") || !goBuilds(r, f) {
				continue
			}
			files = append(files, af)
		}
		if len(files) == 0 {
			continue
		}
		imp := module
		if dir != "." {
			imp = module + "/" + dir
		}
		for _, c := range goPackageCaps(files, imp, dir == ".", called) {
			c.cap.order = order
			order++
			caps = append(caps, c.cap)
			calls[c.cap] = c.call
		}
	}
	caps = mergeVariants(caps)
	sort.SliceStable(caps, func(i, j int) bool {
		if caps[i].score != caps[j].score {
			return caps[i].score > caps[j].score
		}
		return caps[i].order < caps[j].order
	})
	if len(caps) > maxLibrarySkills {
		caps = caps[:maxLibrarySkills]
	}
	sort.SliceStable(caps, func(i, j int) bool { return caps[i].order < caps[j].order })
	if len(caps) == 0 {
		return nil
	}
	prog := sanitizeProg(name) + "-skills"
	wdir := wrapperDir + "/go/" + sanitizeProg(name)
	bin := path.Join(wdir, "bin", prog)
	var skills []bundle.Skill
	var used []*goCall
	for _, c := range caps {
		sk := bundle.Skill{ID: c.id, Name: c.name, Description: c.desc}
		sk.Params = map[string]any{"type": "object", "properties": c.props}
		if len(c.required) > 0 {
			sk.Params["required"] = c.required
		}
		skills = append(skills, sk)
		used = append(used, calls[c])
	}
	dedupeIDs(skills)
	for i := range skills {
		used[i].id = skills[i].ID
		run := []string{bin, skills[i].ID}
		for _, a := range append(append([]goArg{}, used[i].ctorArgs...), used[i].args...) {
			run = append(run, "--"+a.name+"={{"+a.name+"}}")
		}
		skills[i].Run = bundle.Command(run)
	}
	src, err := goWrapper(name, used)
	if err != nil {
		return nil
	}
	if goVersion == "" {
		goVersion = "1.21"
	}
	// The replace directive names the repo relative to the wrapper, so
	// that the bundle can move as a whole.
	abs := filepath.Join(bdir, filepath.FromSlash(strings.TrimPrefix(wdir, bundleVar+"/")))
	rel, err := filepath.Rel(abs, r.root)
	if err != nil {
		return nil
	}
	rel = filepath.ToSlash(rel)
	if rel != ".." && !strings.HasPrefix(rel, "../") {
		rel = "./" + rel // a local path, not a module path, for go.mod
	}
	gomod := fmt.Sprintf("module agentnet.local/skills/%s\n\ngo %s\n\nrequire %s %s\n\nreplace %s => %s\n", strings.ReplaceAll(sanitizeProg(name), ".", "-"), goVersion, module, placeholderVersion(module), module, rel)
	files := map[string][]byte{wdir + "/main.go": src, wdir + "/runtime.go": goRuntimeFile(), wdir + "/go.mod": []byte(gomod)}
	if sum, ok := r.read("go.sum", 4<<20); ok {
		files[wdir+"/go.sum"] = sum
	}
	from := wdir
	return &Tool{
		Name:   sanitizeProg(name),
		Kind:   "go-library",
		Source: module,
		Prog:   []string{bin},
		// -mod=mod lets the build add the library's requirements to the
		// wrapper's go.mod, fetching them through the module proxy.
		Setup:  [][]string{{"go", "build", "-C", from, "-mod=mod", "-trimpath", "-o", "bin/" + prog, "."}},
		Check:  []string{bin, "--check"},
		Root:   &Command{},
		Skills: skills,
		Files:  files,
	}
}

func isInternal(dir string) bool {
	for _, p := range strings.Split(dir, "/") {
		if p == "internal" || p == "cmd" {
			return true
		}
	}
	return false
}

type goCap struct {
	cap  *capability
	call *goCall
}

// goPackageCaps reads one package's exported functions and methods. Those
// the README calls (readme: identifiers written before "(") rank higher; a
// function that only adds parameters to another of the same name prefix
// (BytesN to Bytes, SIWithDigits to SI) is a variant of it.
func goPackageCaps(files []*ast.File, imp string, root bool, readme map[string]bool) []goCap {
	named := map[string]string{} // type name → basic kind, for type Unit string
	structs := map[string]bool{}
	opaque := map[string]bool{} // func and chan types: results nothing prints (functional options)
	ty := &goTypes{named: named, structs: structs}
	for _, af := range files {
		for _, d := range af.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, sp := range gd.Specs {
				ts := sp.(*ast.TypeSpec)
				if id, ok := ts.Type.(*ast.Ident); ok && ts.Name.IsExported() && basicKinds[id.Name] != "" {
					named[ts.Name.Name] = id.Name
				}
				if _, ok := ts.Type.(*ast.StructType); ok && ts.Name.IsExported() {
					structs[ts.Name.Name] = true
				}
				switch ts.Type.(type) {
				case *ast.FuncType, *ast.ChanType:
					opaque[ts.Name.Name] = true
				}
			}
		}
	}
	pkgName := files[0].Name.Name
	var funcs []*ast.FuncDecl
	methods := map[string][]*ast.FuncDecl{}
	for _, af := range files {
		for _, d := range af.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !fd.Name.IsExported() || fd.Type.TypeParams != nil {
				continue
			}
			if fd.Recv == nil {
				funcs = append(funcs, fd)
			} else if len(fd.Recv.List) == 1 {
				t := fd.Recv.List[0].Type
				if st, ok := t.(*ast.StarExpr); ok {
					t = st.X
				}
				if id, ok := t.(*ast.Ident); ok {
					methods[id.Name] = append(methods[id.Name], fd)
				}
			}
		}
	}
	vis := 2
	if root {
		vis = 3
	}
	helpers := goSharedHelpers(funcs, methods, readme)
	var out []goCap
	ctors := map[string]*ast.FuncDecl{}
	for _, fd := range funcs {
		if strings.HasPrefix(fd.Name.Name, "Must") || goHelperRE(fd.Name.Name) || helpers[fd.Name.Name] {
			continue
		}
		args, props, req, ok := goArgs(fd.Type.Params, fd.Doc, ty, pkgName, map[string]bool{})
		if !ok {
			continue
		}
		// A constructor may take nothing (New() *T) or options only.
		if t := goReturnsType(fd.Type.Results); t != "" && structs[t] && len(methods[t]) > 0 {
			if prev, ok := ctors[t]; !ok || len(fd.Type.Params.List) < len(prev.Type.Params.List) {
				ctors[t] = fd
			}
		}
		if len(args) == 0 {
			continue
		}
		n, hasErr, ok := goResults(fd.Type.Results)
		if !ok || n == 0 && !writes(args) || opaque[goReturnsType(fd.Type.Results)] {
			continue
		}
		c := &capability{stem: goStem(goVariantBase(fd, funcs)), props: props, required: req}
		c.id = skillID(kebab(fd.Name.Name))
		c.name = words(fd.Name.Name)
		c.desc = goDocSentence(fd.Doc, fd.Name.Name)
		if c.desc == "" {
			c.desc = sentence(fmt.Sprintf("%s of the given %s", words(fd.Name.Name), joinWords(goArgNames(args))))
		}
		c.score = vis + docScore(fd.Doc.Text()) + len(req)
		if readme[fd.Name.Name] {
			c.score += readmeBonus
		}
		out = append(out, goCap{cap: c, call: &goCall{pkg: imp, fn: fd.Name.Name, args: args, results: n, hasErr: hasErr}})
	}
	// Methods of values a constructor builds from simple arguments.
	for _, t := range sortedKeys(ctors) {
		ctor := ctors[t]
		used := map[string]bool{}
		cargs, cprops, creq, _ := goArgs(ctor.Type.Params, ctor.Doc, ty, pkgName, used)
		_, ctorErr, _ := goResults(ctor.Type.Results)
		for _, m := range methods[t] {
			if goHelperRE(m.Name.Name) || containerNameRE.MatchString(snake(m.Name.Name)) || m.Name.Name == "Error" ||
				m.Type.Params.NumFields() == 0 && conversionRE.MatchString(m.Name.Name) {
				continue
			}
			u := clone(used)
			args, props, req, ok := goArgs(m.Type.Params, m.Doc, ty, pkgName, u)
			if !ok {
				continue
			}
			n, hasErr, ok := goResults(m.Type.Results)
			if !ok || n == 0 && !writes(args) {
				continue
			}
			c := &capability{stem: words(t) + " " + goStem(m.Name.Name), props: mergeProps(cprops, props), required: append(append([]any{}, creq...), req...)}
			c.id = skillID(kebab(t), kebab(m.Name.Name))
			c.name = words(t) + " " + words(m.Name.Name)
			c.desc = goDocSentence(m.Doc, m.Name.Name)
			if len(strings.Fields(c.desc)) < 5 {
				c.desc = strings.TrimSpace(c.desc + " " + sentence(fmt.Sprintf("%s of a %s built by %s", words(m.Name.Name), t, ctor.Name.Name)))
			}
			c.score = vis + docScore(m.Doc.Text()) + len(c.required)
			if readme[m.Name.Name] {
				c.score += readmeBonus
			}
			out = append(out, goCap{cap: c, call: &goCall{pkg: imp, ctor: ctor.Name.Name, ctorArgs: cargs, ctorErr: ctorErr, fn: m.Name.Name, args: args, results: n, hasErr: hasErr}})
		}
	}
	return out
}

// goSharedHelpers returns the exported functions that are building blocks
// of the package's own API: called by at least two of its other exported
// functions or methods, while the README's examples call some of the
// package's functions but never this one (ibankit's Normalize, which Check,
// Format and Find all start with). Without README examples to tell the
// advertised API from its parts, nothing is a helper.
func goSharedHelpers(funcs []*ast.FuncDecl, methods map[string][]*ast.FuncDecl, readme map[string]bool) map[string]bool {
	exported := map[string]bool{}
	advertised := false
	for _, fd := range funcs {
		exported[fd.Name.Name] = true
		advertised = advertised || readme[fd.Name.Name]
	}
	all := slices.Clone(funcs)
	for _, ms := range methods {
		for _, m := range ms {
			advertised = advertised || readme[m.Name.Name]
			all = append(all, m)
		}
	}
	if !advertised {
		return nil
	}
	callers := map[string]int{}
	for _, fd := range all {
		if fd.Body == nil {
			continue
		}
		seen := map[string]bool{}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			ce, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			id, ok := ce.Fun.(*ast.Ident)
			if ok && exported[id.Name] && (fd.Recv != nil || id.Name != fd.Name.Name) && !seen[id.Name] {
				seen[id.Name] = true
				callers[id.Name]++
			}
			return true
		})
	}
	out := map[string]bool{}
	for name, n := range callers {
		if n >= 2 && !readme[name] {
			out[name] = true
		}
	}
	return out
}

var (
	bareRE    = lazyregexp.New(`^paths?$`)
	fileDocRE = lazyregexp.New(`(?i)\b(files?|filenames?|director(y|ies)|folders?|filesystem)\b`)
)

// conversionRE names the accessors that give a value as another type
// (gjson's Result.Bool, reflect's Value.Int): the value's constructor is
// the capability, its conversions are no more.
var conversionRE = lazyregexp.New(`^(Bool|Int\d*|Uint\d*|Float\d*|String|Array|Map|Value|Bytes|Slice|Time|Raw|Interface)$`)

// readmeBonus is what a README's call of a function adds to its rank, as
// for a Python library's.
const readmeBonus = 4

var callRE = lazyregexp.New(`([A-Za-z_][A-Za-z0-9_]*)\(`)

// readmeCalls returns the identifiers a README writes before "(": the
// functions and methods its examples call.
func readmeCalls(text string) map[string]bool {
	out := map[string]bool{}
	for _, m := range callRE.FindAllStringSubmatch(text, -1) {
		out[m[1]] = true
	}
	return out
}

// goVariantBase returns the name of the function fd varies, when another
// exported function's name is a prefix of fd's at a word boundary and fd
// takes that function's parameters, in order, and more (BytesN(s, n)
// varies Bytes(s), SIWithDigits(input, decimals, unit) varies SI(input,
// unit)); else fd's own name.
func goVariantBase(fd *ast.FuncDecl, funcs []*ast.FuncDecl) string {
	name := fd.Name.Name
	own := goParamTypes(fd.Type.Params)
	base := name
	for _, g := range funcs {
		gn := g.Name.Name
		if len(gn) >= len(base) || !strings.HasPrefix(name, gn) || !unicode.IsUpper(rune(name[len(gn)])) {
			continue
		}
		if pt := goParamTypes(g.Type.Params); len(pt) > 0 && len(pt) < len(own) && subsequence(pt, own) {
			base = gn
		}
	}
	return base
}

// goSuffixRE finds the variants Go names by a suffix: MatchString and
// MatchReader of Match, ParseFile of Parse. (Go has no prefix variants:
// IBytes is Bytes in other units, not a variant.)
var goSuffixRE = lazyregexp.New(`^(.+?)(?:_(?:file|path|string|str|bytes|reader|writer|ctx|context|with_context|to_string|many|all|batch|list|iter|fast|safe|from_\w+))?$`)

// goStem is what the variants of a Go function or method share.
func goStem(name string) string {
	s := strings.ToLower(snake(name))
	if m := goSuffixRE.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return s
}

// subsequence reports whether a's items appear in b in the same order.
func subsequence(a, b []string) bool {
	i := 0
	for _, x := range b {
		if i < len(a) && a[i] == x {
			i++
		}
	}
	return i == len(a)
}

// goParamTypes lists a parameter list's types, one per parameter.
func goParamTypes(fl *ast.FieldList) []string {
	var out []string
	for _, f := range fl.List {
		t := types.ExprString(f.Type)
		for range max(1, len(f.Names)) {
			out = append(out, t)
		}
	}
	return out
}

func goHelperRE(name string) bool { return helperNameRE.MatchString(snake(name)) }

// snake turns MixedCaps into snake_case: "ParseFormula" → "parse_formula".
func snake(id string) string { return strings.ReplaceAll(words(id), " ", "_") }

var basicKinds = map[string]string{
	"string": "string", "bool": "boolean", "int": "integer", "int8": "integer", "int16": "integer", "int32": "integer",
	"int64": "integer", "uint": "integer", "uint8": "integer", "uint16": "integer", "uint32": "integer", "uint64": "integer",
	"float32": "number", "float64": "number", "rune": "integer", "byte": "integer",
}

// goTypes are the package's own types a parameter may have: named basic
// types (type Unit string) and exported structs (options, decoded from a
// JSON object).
type goTypes struct {
	named   map[string]string
	structs map[string]bool
}

// goArgs maps a parameter list; ok is false when a parameter has a type
// the wrapper cannot build. A variadic parameter of such a type
// (functional options: opts ...Option) is left out: the call passes none.
func goArgs(fl *ast.FieldList, doc *ast.CommentGroup, ty *goTypes, pkg string, used map[string]bool) ([]goArg, map[string]any, []any, bool) {
	props := map[string]any{}
	var args []goArg
	var req []any
	i := 0
	for _, f := range fl.List {
		names := f.Names
		if len(names) == 0 {
			names = []*ast.Ident{{Name: fmt.Sprintf("arg%d", i)}}
		}
		for _, n := range names {
			i++
			typ := f.Type
			spread := false
			if el, ok := typ.(*ast.Ellipsis); ok {
				typ, spread = &ast.ArrayType{Elt: el.Elt}, true
			}
			a, schema, ok := goArgType(typ, ty, pkg)
			if !ok && spread {
				continue
			}
			if !ok {
				return nil, nil, nil, false
			}
			a.spread = spread
			name := strings.ToLower(snake(n.Name))
			if name == "" || name == "_" {
				name = fmt.Sprintf("arg%d", i)
			}
			if bundle.IsBuiltin(name) {
				name += "_value"
			}
			for used[name] {
				name += "_arg"
			}
			used[name] = true
			a.name = name
			if a.gtype == "string" && outParamRE.MatchString(name) && (!ambiguousOutRE.MatchString(name) || fileDocRE.MatchString(doc.Text())) {
				schema["description"] = "A file name: the file is written in the task's work directory and returned."
				schema["format"] = bundle.FormatOutput
			} else if a.gtype == "string" && pathParamRE.MatchString(name) && (!bareRE.MatchString(name) || fileDocRE.MatchString(doc.Text())) {
				// A bare "path" is a file's only when the doc speaks of
				// files: gjson.Get's path is "name.last".
				schema["format"] = "path"
			}
			props[name] = schema
			if a.gtype != "bool" && a.gtype != "object" && !spread {
				req = append(req, name)
			}
			args = append(args, a)
		}
	}
	return args, props, req, true
}

func goArgType(e ast.Expr, ty *goTypes, pkg string) (goArg, map[string]any, bool) {
	switch t := e.(type) {
	case *ast.StarExpr:
		// A pointer to one of the package's structs: nil when not given.
		if id, ok := t.X.(*ast.Ident); ok && ty.structs[id.Name] {
			return goArg{gtype: "object", conv: "*lib." + id.Name}, goObjectSchema(id.Name), true
		}
	case *ast.Ident:
		if k := basicKinds[t.Name]; k != "" {
			a := goArg{gtype: goKind(t.Name)}
			if a.gtype != t.Name {
				a.conv = t.Name
			}
			return a, map[string]any{"type": k}, true
		}
		if b, ok := ty.named[t.Name]; ok {
			return goArg{gtype: goKind(b), conv: "lib." + t.Name}, map[string]any{"type": basicKinds[b]}, true
		}
		if ty.structs[t.Name] {
			return goArg{gtype: "object", conv: "lib." + t.Name}, goObjectSchema(t.Name), true
		}
	case *ast.ArrayType:
		if t.Len != nil {
			return goArg{}, nil, false
		}
		if id, ok := t.Elt.(*ast.Ident); ok {
			switch {
			case id.Name == "byte":
				return goArg{gtype: "bytes"}, map[string]any{"type": "string", "format": "path"}, true
			case id.Name == "string":
				return goArg{gtype: "strings"}, map[string]any{"type": "array", "items": map[string]any{"type": "string"}}, true
			case id.Name == "int":
				return goArg{gtype: "ints"}, map[string]any{"type": "array", "items": map[string]any{"type": "integer"}}, true
			case id.Name == "float64":
				return goArg{gtype: "floats"}, map[string]any{"type": "array", "items": map[string]any{"type": "number"}}, true
			}
		}
	case *ast.SelectorExpr:
		if x, ok := t.X.(*ast.Ident); ok {
			switch x.Name + "." + t.Sel.Name {
			case "io.Reader":
				return goArg{gtype: "reader"}, map[string]any{"type": "string", "format": "path"}, true
			case "io.Writer":
				return goArg{gtype: "writer"}, map[string]any{"type": "string", "format": bundle.FormatOutput, "description": outFileDesc}, true
			case "time.Duration":
				return goArg{gtype: "duration"}, map[string]any{"type": "string", "description": "A duration such as 90s or 1h30m."}, true
			}
		}
	}
	return goArg{}, nil, false
}

// goObjectSchema is the schema of a struct parameter: a JSON object with
// the struct's exported fields, by their names or JSON tags.
func goObjectSchema(name string) map[string]any {
	return map[string]any{"type": "object", "description": fmt.Sprintf("A JSON object with the fields of %s to set; the others keep their zero values.", name)}
}

// writes reports whether a call writes an output file: what it gives
// when it returns nothing else.
func writes(args []goArg) bool {
	return slices.ContainsFunc(args, func(a goArg) bool { return a.gtype == "writer" })
}

// goKind is the helper kind for a basic type: its integer and float
// variants are read as int64 and float64 and converted.
func goKind(basic string) string {
	switch basicKinds[basic] {
	case "integer":
		return "int64"
	case "number":
		return "float64"
	case "boolean":
		return "bool"
	}
	return "string"
}

// goResults counts a function's results before a trailing error; ok is
// false for results the wrapper cannot print (functions, channels).
func goResults(fl *ast.FieldList) (n int, hasErr, ok bool) {
	if fl == nil {
		return 0, false, true
	}
	var types []ast.Expr
	for _, f := range fl.List {
		k := max(1, len(f.Names))
		for range k {
			types = append(types, f.Type)
		}
	}
	for i, t := range types {
		if id, ok := t.(*ast.Ident); ok && id.Name == "error" && i == len(types)-1 {
			hasErr = true
			continue
		}
		switch t.(type) {
		case *ast.FuncType, *ast.ChanType:
			return 0, false, false
		}
		n++
	}
	return n, hasErr, n <= 2
}

// goReturnsType is the name of the package type a function returns first
// (T or *T), or "".
func goReturnsType(fl *ast.FieldList) string {
	if fl == nil || len(fl.List) == 0 {
		return ""
	}
	t := fl.List[0].Type
	if st, ok := t.(*ast.StarExpr); ok {
		t = st.X
	}
	if id, ok := t.(*ast.Ident); ok && id.IsExported() {
		return id.Name
	}
	return ""
}

// goDocSentence turns a Go doc comment ("Distance returns the edit
// distance of a and b.") into a description ("Returns the edit distance of
// a and b.").
func goDocSentence(doc *ast.CommentGroup, name string) string {
	text := strings.TrimSpace(doc.Text())
	if text == "" {
		return ""
	}
	s := firstSentences(firstParagraph(text), 2, 300)
	for _, p := range []string{name + " ", "The " + name + " ", "A " + name + " "} {
		if rest, ok := strings.CutPrefix(s, p); ok {
			s = rest
			break
		}
	}
	return sentence(s)
}

func goArgNames(as []goArg) []string {
	var out []string
	for _, a := range as {
		out = append(out, strings.ReplaceAll(a.name, "_", " "))
	}
	return out
}

// goWrapper writes the main package that performs each skill's call.
func goWrapper(name string, calls []*goCall) ([]byte, error) {
	var b bytes.Buffer
	imports := map[string]string{}
	var paths []string
	for _, c := range calls {
		if _, ok := imports[c.pkg]; !ok {
			imports[c.pkg] = fmt.Sprintf("lib%d", len(imports))
			paths = append(paths, c.pkg)
		}
	}
	fmt.Fprintf(&b, "// Code generated by agentnet's static generator. DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "// Command %s-skills runs the skills of the Go library %s:\n//\n//\t%s-skills SKILL --param=value ...\n//\t%s-skills --check\npackage main\n\n", sanitizeProg(name), name, sanitizeProg(name), sanitizeProg(name))
	b.WriteString("import (\n\t\"fmt\"\n\t\"os\"\n\t\"strings\"\n\n")
	for _, p := range paths {
		fmt.Fprintf(&b, "\t%s %q\n", imports[p], p)
	}
	b.WriteString(")\n\n")
	var ids []string
	for _, c := range calls {
		ids = append(ids, c.id)
	}
	fmt.Fprintf(&b, "var skills = %#v\n\n", ids)
	b.WriteString("func main() {\n\tif len(os.Args) == 2 && os.Args[1] == \"--check\" {\n\t\tfmt.Printf(\"ok: %d skills\\n\", len(skills))\n\t\treturn\n\t}\n")
	b.WriteString("\tif len(os.Args) < 2 {\n\t\tfail(fmt.Errorf(\"usage: %s SKILL [--name=value ...]; skills: %s\", os.Args[0], strings.Join(skills, \", \")))\n\t}\n")
	b.WriteString("\ta := parse(os.Args[2:])\n\tswitch os.Args[1] {\n")
	for _, c := range calls {
		lib := imports[c.pkg]
		fmt.Fprintf(&b, "\tcase %q:\n", c.id)
		recv := lib
		if c.ctor != "" {
			fmt.Fprintf(&b, "\t\tobj")
			if c.ctorErr {
				b.WriteString(", err")
			}
			fmt.Fprintf(&b, " := %s.%s(%s)\n", lib, c.ctor, goCallArgs(c.ctorArgs, lib))
			if c.ctorErr {
				b.WriteString("\t\tcheck(err)\n")
			}
			recv = "obj"
		}
		var res []string
		for i := range c.results {
			res = append(res, fmt.Sprintf("r%d", i))
		}
		lhs := append([]string{}, res...)
		if c.hasErr {
			lhs = append(lhs, "err")
		}
		call := fmt.Sprintf("%s.%s(%s)", recv, c.fn, goCallArgs(c.args, lib))
		if len(lhs) == 0 {
			fmt.Fprintf(&b, "\t\t%s\n", call)
		} else {
			fmt.Fprintf(&b, "\t\t%s := %s\n", strings.Join(lhs, ", "), call)
		}
		if c.hasErr {
			b.WriteString("\t\tcheck(err)\n")
		}
		fmt.Fprintf(&b, "\t\temit(%q, %s)\n", c.id, strings.Join(res, ", "))
	}
	b.WriteString("\tdefault:\n\t\tfail(fmt.Errorf(\"unknown skill %q (skills: %s)\", os.Args[1], strings.Join(skills, \", \")))\n\t}\n}\n\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("go wrapper: %w\n%s", err, b.Bytes())
	}
	return src, nil
}

// goAccessor names the generated wrapper's method that reads an argument
// of each supported Go type.
var goAccessor = map[string]string{
	"string": "str", "bool": "boolean", "int64": "integer", "float64": "number",
	"strings": "strs", "ints": "ints", "floats": "floats",
	"bytes": "file", "reader": "open", "duration": "duration", "writer": "create",
}

func goCallArgs(args []goArg, lib string) string {
	var parts []string
	for _, a := range args {
		expr := fmt.Sprintf("a.%s(%q)", goAccessor[a.gtype], a.name)
		if a.gtype == "object" {
			// Decoded into a value of the struct (or a pointer to one, nil
			// when not given).
			t := strings.Replace(a.conv, "lib.", lib+".", 1)
			if ptr, ok := strings.CutPrefix(t, "*"); ok {
				expr = fmt.Sprintf("func() *%s { if !a.has(%q) { return nil }; v := new(%s); a.decode(%q, v); return v }()", ptr, a.name, ptr, a.name)
			} else {
				expr = fmt.Sprintf("func() (v %s) { a.decode(%q, &v); return }()", t, a.name)
			}
			parts = append(parts, expr)
			continue
		}
		if a.conv != "" {
			conv := strings.Replace(a.conv, "lib.", lib+".", 1)
			expr = conv + "(" + expr + ")"
		}
		if a.spread {
			expr += "..."
		}
		parts = append(parts, expr)
	}
	return strings.Join(parts, ", ")
}

// goWrapperRuntime is the generated main package's argument parsing and
// output: the package gowrapper, written into the generated package as
// runtime.go.
//
//go:embed gowrapper/runtime.go
var goWrapperRuntime string

// goRuntimeFile is runtime.go of a generated wrapper.
func goRuntimeFile() []byte {
	return []byte(strings.Replace(goWrapperRuntime, "\npackage gowrapper\n", "\npackage main\n", 1))
}

// placeholderVersion is the version a go.mod requires a module by when a
// replace directive supplies it: any will do, but a module whose path ends
// in a major version (/v3) must be required at that major version.
func placeholderVersion(module string) string {
	if m := path.Base(module); majorRE.MatchString(m) && m != "v0" && m != "v1" {
		return m + ".0.0-00010101000000-000000000000"
	}
	return "v0.0.0-00010101000000-000000000000"
}
