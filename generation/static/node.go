package static

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentnet/agentnet/internal/lazyregexp"
)

// npmInstall installs a package's dependencies without running their
// scripts. npm's defaults retry a registry it cannot reach for minutes
// (two retries with backoff, five minutes a request); with its cache
// first, one try and fifteen seconds a request, a setup without network
// fails in seconds and says why (getaddrinfo ENOTFOUND).
var npmInstall = []string{"npm", "install", "--prefer-offline", "--fetch-timeout=15000", "--fetch-retries=0",
	"--ignore-scripts", "--no-audit", "--no-fund"}

// buildScripts are the package.json scripts that may build a package's
// entry modules, in the order one is chosen.
var buildScripts = []string{"build", "compile", "prepare", "prepublish", "prepublishOnly"}

// outputDirs usually hold a build's products rather than sources.
var outputDirs = map[string]bool{"dist": true, "build": true, "lib": true, "out": true, "es": true, "esm": true, "cjs": true, "umd": true}

// requireRE finds the modules a script loads: require("x"), import ... from
// "x", import("x").
var requireRE = lazyregexp.New(`(?:\brequire\s*\(\s*|\bfrom\s+|\bimport\s*\(?\s*)['"]([^'"\s]+)['"]`)

type packageJSON struct {
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

// nodeSystem is where the system's package manager puts Node modules
// (Debian's node-X installs module X under /usr/share/nodejs), and how to
// install more.
type nodeSystem struct {
	// dirs lists the module directories that exist now.
	dirs func() []string
	// install installs Debian packages; nil unless --install-system-deps.
	install func(pkgs []string) *AptReport
	// uses records the Debian packages that provide the modules a tool
	// runs with (those not installed here are left out later); may be nil.
	uses func(pkgs []string)
}

// debianNodeDirs lists Debian's Node module directories that exist: the
// architecture-independent one, then the architecture-dependent ones.
func debianNodeDirs() []string {
	cands := []string{"/usr/share/nodejs", "/usr/lib/nodejs"}
	multi, _ := filepath.Glob("/usr/lib/*-linux-*/nodejs")
	var out []string
	for _, d := range append(cands, multi...) {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			out = append(out, d)
		}
	}
	return out
}

// has reports whether the module called name is in one of the system's
// module directories.
func (s *nodeSystem) has(name string) bool {
	for _, d := range s.dirs() {
		if isFile(filepath.Join(d, filepath.FromSlash(name), "package.json")) {
			return true
		}
	}
	return false
}

// debianNodePackage returns the Debian package that usually provides the
// Node module name: node-<name>, node-<scope>-<name> for @scope/name.
func debianNodePackage(name string) string {
	name = strings.ToLower(strings.TrimPrefix(name, "@"))
	return "node-" + strings.NewReplacer("/", "-", "_", "-", ".", "-").Replace(name)
}

// nodeTools reads the bin entries of package.json and the setup they need:
// the dependencies (from node_modules when the repository has them, else
// from Debian's packages when they provide every one, else npm) and, when
// an entry needs a module the repository lacks, the script that builds it.
// It returns the notes that explain the setup.
func nodeTools(ctx context.Context, r *repo, opts Options, logw io.Writer) ([]*Tool, []string) {
	sys := &nodeSystem{dirs: debianNodeDirs}
	if opts.InstallSystemDeps {
		sys.install = func(pkgs []string) *AptReport { return opts.apt.install(ctx, pkgs, opts.Env, logw) }
	}
	sys.uses = opts.apt.uses
	return sys.tools(r)
}

func (s *nodeSystem) tools(r *repo) ([]*Tool, []string) {
	data, ok := r.read("package.json", 1<<20)
	if !ok {
		return nil, nil
	}
	var pkg packageJSON
	if err := json.Unmarshal(data, &pkg); err != nil {
		return nil, nil
	}
	bins := map[string]string{}
	var one string
	if json.Unmarshal(pkg.Bin, &one) == nil && one != "" {
		bins[path.Base(pkg.Name)] = one
	} else {
		_ = json.Unmarshal(pkg.Bin, &bins)
	}
	if len(bins) == 0 {
		return nil, nil
	}
	var script string
	for _, s := range buildScripts {
		if strings.TrimSpace(pkg.Scripts[s]) != "" {
			script = s
			break
		}
	}
	var notes []string
	// A package whose entry modules are built (TypeScript, a bundler)
	// ships without them: a bin that needs a module the repository lacks
	// is built by the package's build script, which needs the development
	// dependencies too.
	needs := map[string][]string{} // missing file → the bins that need it
	type entry struct{ name, file string }
	var entries []entry
	for _, name := range sortedKeys(bins) {
		file := path.Clean(strings.TrimPrefix(bins[name], "./"))
		if file == "." || file == ".." || strings.HasPrefix(file, "../") || path.IsAbs(file) {
			continue
		}
		if !r.exists(file) {
			if script == "" {
				notes = append(notes, fmt.Sprintf("%s (package.json): left out: its bin %s is not in the repository, and no %s script builds it",
					name, file, strings.Join(buildScripts, ", ")))
				continue
			}
			needs[file] = append(needs[file], name)
		} else if m := missingRequire(r, &pkg, file); m != "" {
			needs[m] = append(needs[m], name)
		}
		entries = append(entries, entry{name, file})
	}
	if len(entries) == 0 {
		return nil, notes
	}
	// A build script with the package's main or module missing builds it,
	// even when the bins' requires did not name it.
	if pkg.Scripts["build"] != "" && len(needs) == 0 {
		for _, f := range []string{pkg.Main, pkg.Module} {
			f = path.Clean(strings.TrimPrefix(f, "./"))
			if f != "." && !strings.HasPrefix(f, "../") && !r.exists(f) {
				needs[f] = nil
			}
		}
	}
	built := len(needs) > 0 && script != ""
	for _, f := range sortedKeys(needs) {
		who := ""
		if len(needs[f]) > 0 {
			who = " (needed by " + strings.Join(needs[f], ", ") + ")"
		}
		if script == "" {
			notes = append(notes, fmt.Sprintf("node: %s%s is not in the repository, and no %s script builds it", f, who, strings.Join(buildScripts, ", ")))
		} else {
			notes = append(notes, fmt.Sprintf("node: %s%s is not in the repository; setup builds it with npm run %s (scripts.%s: %s)",
				f, who, script, script, clip(pkg.Scripts[script], 120)))
		}
	}

	var setup [][]string
	var nodePath []string
	deps := sortedKeys(pkg.Dependencies)
	if built {
		deps = append(deps, sortedKeys(pkg.DevDeps)...)
	}
	absent := slices.DeleteFunc(slices.Clone(deps), func(d string) bool { return r.installed(d) })
	switch {
	case len(absent) == 0:
	case built:
		setup = append(setup, npmInstall)
	default:
		var lacking []string
		for _, d := range absent {
			if !s.has(d) {
				lacking = append(lacking, d)
			}
		}
		if len(lacking) > 0 && s.install != nil {
			var pkgs []string
			for _, d := range lacking {
				pkgs = append(pkgs, debianNodePackage(d))
			}
			rep := s.install(pkgs)
			notes = append(notes, fmt.Sprintf("apt-get: installed %v, unknown %v %s", rep.Installed, rep.Unknown, rep.Error))
			lacking = slices.DeleteFunc(lacking, s.has)
		}
		if len(lacking) == 0 {
			// The system provides every dependency: node finds them
			// through NODE_PATH, and npm (which needs a registry) is not
			// run.
			nodePath = s.dirs()
			if s.uses != nil {
				var pkgs []string
				for _, d := range absent {
					pkgs = append(pkgs, debianNodePackage(d))
				}
				s.uses(pkgs)
			}
			notes = append(notes, fmt.Sprintf("node: %s from the system's packages (%s), found through NODE_PATH; no npm install",
				strings.Join(absent, ", "), strings.Join(nodePath, ":")))
		} else {
			setup = append(setup, append(slices.Clone(npmInstall), "--omit=dev"))
			var pkgs []string
			for _, d := range lacking {
				pkgs = append(pkgs, debianNodePackage(d))
			}
			notes = append(notes, fmt.Sprintf("node: setup installs the dependencies with npm, which needs the registry; the system lacks %s (Debian: %s; agentnet generate --install-system-deps installs them)",
				strings.Join(lacking, ", "), strings.Join(pkgs, ", ")))
		}
	}
	if built {
		setup = append(setup, []string{"npm", "run", script})
	}
	// The bundle's runs carry no environment of their own, and its
	// commands name no absolute path: a preload generated into the bundle
	// sets NODE_PATH before the program starts.
	node := []string{"node"}
	var files map[string][]byte
	if len(nodePath) > 0 {
		node = []string{"node", "--require", nodePreload}
		files = map[string][]byte{nodePreload: nodePathPreload(nodePath)}
	}
	var tools []*Tool
	for _, e := range entries {
		t := &Tool{
			Name:     sanitizeProg(e.name),
			Kind:     "node",
			Source:   "package.json",
			Prog:     append(slices.Clone(node), "{{repo}}/"+e.file),
			Setup:    setup,
			Check:    append(slices.Clone(node), e.file, "--help"),
			Root:     &Command{},
			Keywords: pkg.Keywords,
			Summary:  pkg.Description,
			Files:    files,
		}
		if src, ok := r.read(e.file, 64<<10); ok {
			t.Doc = leadingComment(string(src))
		}
		tools = append(tools, t)
	}
	return tools, notes
}

// nodePreload is the module, generated into the bundle, that node loads
// (--require) before a program whose dependencies are the system's.
const nodePreload = wrapperDir + "/node/modules.cjs"

// nodePathPreload returns the source of a module that adds dirs to
// NODE_PATH (for the program and the node processes it starts) and makes
// node's resolver read it again.
func nodePathPreload(dirs []string) []byte {
	quoted, _ := json.Marshal(dirs)
	return []byte(`// Generated by agentnet. The program's dependencies are the system's
// packages' (Debian's node-X, under /usr/share/nodejs), which node finds
// only through NODE_PATH; the bundle's commands set no environment, so
// this module, loaded with --require, sets it before the program starts.
'use strict';
const path = require('path');
const dirs = ` + string(quoted) + `;
const prev = process.env.NODE_PATH ? process.env.NODE_PATH.split(path.delimiter) : [];
process.env.NODE_PATH = prev.concat(dirs.filter(d => !prev.includes(d))).join(path.delimiter);
const Module = require('module');
Module._initPaths();
// ES modules' import ignores NODE_PATH: a resolve hook looks a bare
// specifier that node cannot find up in the same directories, the way
// require does (a package directory's main, or a file below it).
if (typeof Module.register === 'function') {
  const hook = 'import { createRequire } from "node:module";\n' +
    'import { pathToFileURL } from "node:url";\n' +
    'import path from "node:path";\n' +
    'const dirs = ' + JSON.stringify(dirs) + ';\n' +
    'const req = createRequire("file:///");\n' +
    'export async function resolve(specifier, context, next) {\n' +
    '  try { return await next(specifier, context); } catch (err) {\n' +
    '    if (err && err.code === "ERR_MODULE_NOT_FOUND" && !/^(\\.|\\/|[a-z]+:)/.test(specifier)) {\n' +
    '      for (const d of dirs) {\n' +
    '        try { return { url: pathToFileURL(req.resolve(path.join(d, specifier))).href, shortCircuit: true }; } catch {}\n' +
    '      }\n' +
    '    }\n' +
    '    throw err;\n' +
    '  }\n' +
    '}\n';
  Module.register('data:text/javascript,' + encodeURIComponent(hook));
}
`)
}

// missingRequire returns the first module of the repository that the bin
// script file loads and the repository lacks — the package's main (which
// require("..") or the package's own name loads), or a file under a build
// output directory (dist, lib) or a directory that does not exist — or ""
// when none is missing. A missing file beside sources is no build product
// (a branch for another runtime), so it does not count.
func missingRequire(r *repo, pkg *packageJSON, file string) string {
	src, ok := r.readFile(file, 256<<10)
	if !ok {
		return ""
	}
	for _, m := range requireRE.FindAllStringSubmatch(string(src), -1) {
		spec := m[1]
		var rel string
		switch {
		case spec == pkg.Name && pkg.Name != "":
			rel = "."
		case spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../"):
			rel = path.Join(path.Dir(file), spec)
		default:
			continue
		}
		if rel == ".." || strings.HasPrefix(rel, "../") {
			continue
		}
		if rel == "." {
			main := path.Clean(strings.TrimPrefix(pkg.Main, "./"))
			if pkg.Main == "" {
				main = "index.js"
			}
			if main == ".." || strings.HasPrefix(main, "../") || r.resolves(main) {
				continue
			}
			return main
		}
		top, _, _ := strings.Cut(rel, "/")
		if !r.resolves(rel) && (outputDirs[top] || !r.isDir(path.Dir(rel))) {
			return rel
		}
	}
	return ""
}

// exists reports whether rel is a regular file under the repository's root,
// looked up on disk: the inventory leaves out dist, build and node_modules.
func (r *repo) exists(rel string) bool {
	return isFile(filepath.Join(r.root, filepath.FromSlash(rel)))
}

func (r *repo) isDir(rel string) bool {
	fi, err := os.Stat(filepath.Join(r.root, filepath.FromSlash(rel)))
	return err == nil && fi.IsDir()
}

// resolves reports whether node's require finds rel (a path relative to
// the root): the file, with an extension node tries, or a directory's
// index or package.json.
func (r *repo) resolves(rel string) bool {
	for _, suffix := range []string{"", ".js", ".cjs", ".mjs", ".json", ".node", "/index.js", "/package.json"} {
		if r.exists(rel + suffix) {
			return true
		}
	}
	return false
}

// installed reports whether the module called name is in the repository's
// node_modules.
func (r *repo) installed(name string) bool {
	return r.exists(path.Join("node_modules", name, "package.json"))
}

// readFile reads up to max bytes of a file under the root, in the
// inventory or not (a build directory's).
func (r *repo) readFile(rel string, max int64) ([]byte, bool) {
	if data, ok := r.read(rel, max); ok {
		return data, true
	}
	// Never through a symbolic link: nothing outside the root is read.
	p := filepath.Join(r.root, filepath.FromSlash(rel))
	if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	return readLimited(p, max)
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
