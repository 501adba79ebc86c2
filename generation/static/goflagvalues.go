package static

import (
	"go/ast"
	"go/token"
	"slices"
	"strings"
)

// This file reads, from a Go program's source, the values a string flag
// takes when the program checks them itself: the flag package has no
// choices, so a program lists them in a switch on the flag's variable and
// fails on any other value:
//
//	switch strings.ToUpper(*locale) {
//	case "US": ...
//	case "UK", "GB": ...
//	default:
//		log.Fatalf("unknown locale %q", *locale)
//	}
//
// The cases whose bodies go on (not those that fail too, nor "", the
// flag's unset value) are the flag's choices. A switch without a failing
// default names values the program treats apart, not the only ones it
// takes, and says nothing.

// flagChoices sets the choices of the string flags of root and its
// subcommands that a switch in files closes.
func flagChoices(files []*ast.File, root *Command) {
	vars := flagVars(files, root)
	if len(vars) == 0 {
		return
	}
	for _, af := range files {
		ast.Inspect(af, func(n ast.Node) bool {
			sw, ok := n.(*ast.SwitchStmt)
			if !ok || sw.Tag == nil {
				return true
			}
			f := vars[switchSubject(sw.Tag)]
			if f == nil || f.Type != "string" {
				return true
			}
			dropValueSubs(root, sw)
			if values := closedCases(sw); len(values) >= 2 && len(f.Choices) == 0 {
				f.Choices = values
			}
			return true
		})
	}
}

// flagVars maps the expression a program reads a flag's value by ("*locale"
// for locale := flag.String(...), "cfg.Mode" for flag.StringVar(&cfg.Mode,
// ...)) to the flag of root (or a subcommand) it defines.
func flagVars(files []*ast.File, root *Command) map[string]*Flag {
	out := map[string]*Flag{}
	bind := func(subject string, call *ast.CallExpr) {
		def := flagCall(call)
		if subject == "" || def == nil {
			return
		}
		if f := findFlag(root, def); f != nil {
			out[subject] = f
		}
	}
	for _, af := range files {
		ast.Inspect(af, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.AssignStmt:
				for i, rhs := range x.Rhs {
					if call, ok := rhs.(*ast.CallExpr); ok && i < len(x.Lhs) && len(x.Lhs) == len(x.Rhs) {
						if s := exprString(x.Lhs[i]); s != "" {
							bind("*"+s, call)
						}
					}
				}
			case *ast.ValueSpec:
				for i, v := range x.Values {
					if call, ok := v.(*ast.CallExpr); ok && i < len(x.Names) && len(x.Names) == len(x.Values) {
						bind("*"+x.Names[i].Name, call)
					}
				}
			case *ast.CallExpr:
				sel, ok := x.Fun.(*ast.SelectorExpr)
				if !ok || !strings.Contains(sel.Sel.Name, "Var") || len(x.Args) == 0 {
					return true
				}
				if u, ok := x.Args[0].(*ast.UnaryExpr); ok && u.Op == token.AND {
					bind(exprString(u.X), x)
				}
			}
			return true
		})
	}
	return out
}

// findFlag returns the flag of root or of one of its subcommands that def
// (a definition read again) names.
func findFlag(root *Command, def *Flag) *Flag {
	for _, c := range append([]*Command{root}, root.Subs...) {
		if f := c.flag(def.Long, def.Short); f != nil && f.Long == def.Long && f.Short == def.Short {
			return f
		}
	}
	return nil
}

// switchSubject returns the expression a switch tests, without the case
// and space folding a program applies first (strings.ToLower(*mode)).
func switchSubject(tag ast.Expr) string {
	for {
		call, ok := tag.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			break
		}
		switch exprString(call.Fun) {
		case "strings.ToLower", "strings.ToUpper", "strings.TrimSpace":
			tag = call.Args[0]
			continue
		}
		return ""
	}
	if star, ok := tag.(*ast.StarExpr); ok {
		if s := exprString(star.X); s != "" {
			return "*" + s
		}
		return ""
	}
	return exprString(tag)
}

// closedCases returns the string values a switch accepts when its default
// clause fails; nil when it has no failing default.
func closedCases(sw *ast.SwitchStmt) []string {
	var values []string
	closed := false
	for _, st := range sw.Body.List {
		cc, ok := st.(*ast.CaseClause)
		if !ok {
			continue
		}
		fails := failingBody(cc.Body)
		if cc.List == nil {
			closed = fails
			continue
		}
		if fails {
			continue
		}
		for _, e := range cc.List {
			s, ok := stringLit(e)
			if !ok {
				return nil // a case that is not a literal: the set is not read
			}
			if s != "" && !slices.Contains(values, s) {
				values = append(values, s)
			}
		}
	}
	if !closed {
		return nil
	}
	return values
}

// failingBody reports whether a case body ends the program or the
// function with an error: log.Fatal*, os.Exit, panic, a usage call, or a
// return of an error value made there.
func failingBody(body []ast.Stmt) bool {
	fails := false
	for _, st := range body {
		ast.Inspect(st, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				name := exprString(x.Fun)
				last := name[strings.LastIndex(name, ".")+1:]
				switch {
				case name == "os.Exit", name == "panic", strings.HasPrefix(last, "Fatal"), strings.HasPrefix(last, "Exit"),
					strings.EqualFold(last, "usage"), name == "flag.Usage":
					fails = true
				}
			case *ast.ReturnStmt:
				for _, r := range x.Results {
					if call, ok := r.(*ast.CallExpr); ok {
						switch exprString(call.Fun) {
						case "fmt.Errorf", "errors.New":
							fails = true
						}
					}
				}
			}
			return !fails
		})
	}
	return fails
}

// dropValueSubs removes the subcommands goSource took from the cases of a
// switch that tests a flag's value ("switch mode { case "text": ... }"):
// they are the flag's values, not commands. Only subcommands nothing
// else describes (no flags, no summary) go.
func dropValueSubs(root *Command, sw *ast.SwitchStmt) {
	var cases []string
	for _, st := range sw.Body.List {
		if cc, ok := st.(*ast.CaseClause); ok {
			for _, e := range cc.List {
				if s, ok := stringLit(e); ok {
					cases = append(cases, s)
				}
			}
		}
	}
	root.Subs = slices.DeleteFunc(root.Subs, func(s *Command) bool {
		return slices.Contains(cases, s.Name) && len(s.Flags) == 0 && s.Summary == "" && s.About == ""
	})
}
