package host

import (
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/agentnet/agentnet/bundle"
)

// buildArgv is the one place a run's argv is made of a caller's arguments.
// It holds two invariants whatever the arguments are:
//
//   - every value of a file parameter (format path or output-path, a list's
//     items included) becomes an absolute path inside vars.Workdir: a
//     relative name is joined to it, an output file keeps only its base name
//     (sanitised), and an absolute path elsewhere or one that climbs out
//     with ".." is refused; so is a ".." in a value the template joins to a
//     directory ("{{workdir}}/{{name}}");
//   - no element made of a value begins with "-" where the template did not
//     write the dash itself, unless a literal "--" comes first in the
//     template, the parameter is a number, the value is "-" alone, or the
//     parameter says it may (x-allow-dash): a value never becomes an option.
//
// Refusals are *failure, for the caller's eyes. args is not modified.
func buildArgv(sk *bundle.Skill, vars bundle.Vars, args map[string]any) ([]string, error) {
	els, err := buildArgs(sk, vars, args)
	if err != nil {
		return nil, err
	}
	argv := make([]string, len(els))
	for i, el := range els {
		argv[i] = el.Value
	}
	return argv, nil
}

// buildArgs is buildArgv with each element's origin.
func buildArgs(sk *bundle.Skill, vars bundle.Vars, args map[string]any) ([]bundle.Arg, error) {
	params := map[string]bundle.Param{}
	for _, p := range sk.ParamList() {
		params[p.Name] = p
	}
	joined := map[string]bool{} // parameters the template joins to a directory
	for _, el := range sk.Run {
		if joinsDir(el) {
			for _, name := range bundle.Placeholders(el) {
				joined[name] = true
			}
		}
	}
	args = maps.Clone(args)
	for name, v := range args {
		p, ok := params[name]
		switch {
		case ok && p.IsFile() && p.HasDefault && reflect.DeepEqual(v, p.Default):
			// The bundle's own default ("stdout", "-", "out.csv" beside the
			// work directory) is the tool's documented value, not a
			// caller's path: it passes as the tool takes it.
		case ok && p.IsFile():
			fixed, err := containValue(vars.Workdir, p, v)
			if err != nil {
				return nil, failf("skill %q: parameter %s: %v", sk.ID, name, err)
			}
			if joined[name] {
				// "{{workdir}}/{{file}}" takes the name, not the path.
				fixed = relativeTo(vars.Workdir, fixed)
			}
			args[name] = fixed
		case joined[name]:
			if s, ok := v.(string); ok && climbs(s) {
				return nil, failf("skill %q: parameter %s: %q would leave the task's work directory", sk.ID, name, s)
			}
		}
	}
	els, err := bundle.ExpandArgs(sk.Run, vars, args)
	if err != nil {
		return nil, failf("skill %q: %v", sk.ID, err)
	}
	endOfOptions := slices.Index(sk.Run, "--")
	for _, el := range els {
		if el.Param == "" || !strings.HasPrefix(el.Value, "-") || el.Value == "-" || strings.HasPrefix(sk.Run[el.Index], "-") {
			continue
		}
		p := params[el.Param]
		if endOfOptions >= 0 && el.Index > endOfOptions || p.AllowDash || p.Type == "integer" || p.Type == "number" {
			continue
		}
		return nil, failf("skill %q: parameter %s: the value %q begins with \"-\" and would be read as an option; this parameter takes none", sk.ID, el.Param, headOf(el.Value, 80))
	}
	return els, nil
}

// containValue confines a file parameter's value (a string or a list of
// them) to the work directory; other values pass unchanged, for the
// schema to judge.
func containValue(work string, p bundle.Param, v any) (any, error) {
	switch t := v.(type) {
	case string:
		return contain(work, p.IsOutput(), t)
	case []any:
		out := make([]any, len(t))
		for i, item := range t {
			s, ok := item.(string)
			if !ok {
				out[i] = item
				continue
			}
			c, err := contain(work, p.IsOutput(), s)
			if err != nil {
				return nil, fmt.Errorf("item %d: %w", i, err)
			}
			out[i] = c
		}
		return out, nil
	}
	return v, nil
}

// contain resolves one file name against the work directory: an absolute
// path must already lie inside it (the host's own names do), a relative one
// must not climb out; an output file is reduced to its sanitised base name.
// "-" alone is the command-line convention for standard input or output
// (a tool's default for many such parameters), no file, and passes as it is.
func contain(work string, output bool, s string) (string, error) {
	if s == "" {
		return "", fmt.Errorf("an empty file name")
	}
	if s == "-" {
		return s, nil
	}
	clean := filepath.Clean(s)
	if filepath.IsAbs(s) {
		if !within(work, clean) {
			return "", fmt.Errorf("%q is outside the task's work directory: give a file name (attach the file to read one)", s)
		}
		if !output {
			return clean, nil
		}
		rel, _ := filepath.Rel(work, clean)
		return filepath.Join(work, filepath.Dir(rel), safeName(filepath.Base(clean), "output")), nil
	}
	if climbs(s) {
		return "", fmt.Errorf("%q climbs out of the task's work directory with \"..\"", s)
	}
	if output {
		return filepath.Join(work, safeName(clean, "output")), nil
	}
	return filepath.Join(work, clean), nil
}

// relativeTo makes the contained paths of v (a string or a list) relative
// to work again.
func relativeTo(work string, v any) any {
	rel := func(x any) any {
		if s, ok := x.(string); ok {
			if r, err := filepath.Rel(work, s); err == nil {
				return r
			}
		}
		return x
	}
	if list, ok := v.([]any); ok {
		out := make([]any, len(list))
		for i, x := range list {
			out[i] = rel(x)
		}
		return out
	}
	return rel(v)
}

// callerPath checks a file name a caller gave: neither absolute nor
// climbing out with "..". The host's own absolute names never pass here.
func callerPath(work string, output bool, s string) (string, error) {
	if filepath.IsAbs(s) || strings.HasPrefix(s, "~") {
		return "", fmt.Errorf("%q is an absolute path, outside the task's work directory: give a file name (attach the file to read one)", s)
	}
	return contain(work, output, s)
}

// within reports whether the clean absolute path p is dir or below it.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// climbs reports whether a relative path has a ".." that leaves where it
// starts, or is absolute.
func climbs(s string) bool {
	if filepath.IsAbs(s) {
		return true
	}
	c := filepath.Clean(s)
	return c == ".." || strings.HasPrefix(c, ".."+string(filepath.Separator))
}

// joinsDir reports whether a template element joins a parameter to a
// built-in directory ("{{workdir}}/{{name}}"): the value is then a path.
func joinsDir(el string) bool {
	if strings.Count(el, "{{") < 2 {
		return false
	}
	names := bundle.Placeholders(el)
	dir, param := false, false
	for _, n := range names {
		switch n {
		case bundle.VarWorkdir, bundle.VarRepo, bundle.VarBundle:
			dir = true
		default:
			param = param || !bundle.IsBuiltin(n)
		}
	}
	return dir && param
}
