package static

import (
	"encoding/json"
	"path"
	"slices"
	"strings"
)

// nodeTools reads the bin entries of package.json.
func nodeTools(r *repo) []*Tool {
	data, ok := r.read("package.json", 1<<20)
	if !ok {
		return nil
	}
	var pkg struct {
		Name         string            `json:"name"`
		Description  string            `json:"description"`
		Keywords     []string          `json:"keywords"`
		Bin          json.RawMessage   `json:"bin"`
		Dependencies map[string]string `json:"dependencies"`
		DevDeps      map[string]string `json:"devDependencies"`
		Scripts      map[string]string `json:"scripts"`
		Main         string            `json:"main"`
		Module       string            `json:"module"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		return nil
	}
	bins := map[string]string{}
	var one string
	if json.Unmarshal(pkg.Bin, &one) == nil && one != "" {
		bins[path.Base(pkg.Name)] = one
	} else {
		_ = json.Unmarshal(pkg.Bin, &bins)
	}
	// A package whose entry module is built (TypeScript, a bundler) ships
	// without it: it is built with the build script, which needs the
	// development dependencies too.
	built := pkg.Scripts["build"] != "" && slices.ContainsFunc([]string{pkg.Main, pkg.Module}, func(f string) bool {
		f = path.Clean(strings.TrimPrefix(f, "./"))
		return f != "." && !strings.HasPrefix(f, "../") && !r.has(f)
	})
	var setup [][]string
	installed := r.has("node_modules/.package-lock.json")
	switch {
	case built && !installed && len(pkg.Dependencies)+len(pkg.DevDeps) > 0:
		setup = append(setup, []string{"npm", "install", "--ignore-scripts", "--no-audit", "--no-fund"})
	case len(pkg.Dependencies) > 0 && !installed:
		setup = append(setup, []string{"npm", "install", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund"})
	}
	if built {
		setup = append(setup, []string{"npm", "run", "build"})
	}
	var tools []*Tool
	for _, name := range sortedKeys(bins) {
		file := path.Clean(strings.TrimPrefix(bins[name], "./"))
		if !r.has(file) || strings.HasPrefix(file, "../") {
			continue
		}
		t := &Tool{
			Name:     sanitizeProg(name),
			Kind:     "node",
			Source:   "package.json",
			Prog:     []string{"node", "{{repo}}/" + file},
			Setup:    setup,
			Check:    []string{"node", file, "--help"},
			Root:     &Command{},
			Keywords: pkg.Keywords,
			Summary:  pkg.Description,
		}
		if src, ok := r.read(file, 64<<10); ok {
			t.Doc = leadingComment(string(src))
		}
		tools = append(tools, t)
	}
	return tools
}
