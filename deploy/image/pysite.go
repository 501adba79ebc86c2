package image

import (
	"bufio"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/agentnet/agentnet/internal/lazyregexp"
)

// Python environments in images. A bundle's trees (the bundle directory and
// its repo, copied into the agent image) may hold virtual environments, whose
// interpreter is a link to, or a copy of, an interpreter of this machine
// named by pyvenv.cfg's home; and its code imports third-party packages from
// the site directories of the interpreters (Debian's dist-packages, say).
// Both go into the base image at their host paths, so that the venvs'
// links and pyvenv.cfg resolve there: the interpreter with its standard
// library, and of the site directories exactly the packages the bundle's
// Python files import, with what those import in turn, their metadata and
// the shared libraries of their extension modules.

// Bounds of the import scan: a larger file is not read, and a tree stops
// being walked after so many Python files.
const (
	maxImportScan = 1 << 20
	maxScanFiles  = 50000
)

var (
	importRE    = lazyregexp.New(`(?m)^[ \t]*(?:from[ \t]+([A-Za-z_][A-Za-z0-9_]*)[A-Za-z0-9_.]*[ \t]+import\b|import[ \t]+([A-Za-z_][A-Za-z0-9_., \t]*))`)
	dynImportRE = lazyregexp.New(`(?:import_module|__import__)\(\s*["']([A-Za-z_][A-Za-z0-9_]*)`)
	identRE     = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]*`)
)

// skipWalk lists directories a walk for Python files and venvs skips.
var skipWalk = map[string]bool{".git": true, ".hg": true, ".svn": true, "node_modules": true, "__pycache__": true}

// buildOnly lists Python files that run only when the repo is built or
// tested on this machine, never in the container: their imports (setuptools,
// pytest) stay out.
var buildOnly = map[string]bool{"setup.py": true, "conftest.py": true}

// pyTree is what a walk of a bundle's trees found.
type pyTree struct {
	files []string // Python source files
	venvs []string // directories holding a pyvenv.cfg
}

// walkPython lists the Python files and the virtual environments under the
// directories roots.
func walkPython(roots ...string) (*pyTree, error) {
	t := &pyTree{}
	for _, root := range roots {
		n := 0
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == root {
					return err
				}
				return nil // an unreadable corner is no reason to fail the image
			}
			if d.IsDir() {
				if skipWalk[d.Name()] && p != root {
					return filepath.SkipDir
				}
				if fi, err := os.Stat(filepath.Join(p, "pyvenv.cfg")); err == nil && fi.Mode().IsRegular() {
					t.venvs = append(t.venvs, p)
				}
				return nil
			}
			if strings.HasSuffix(p, ".py") && d.Type().IsRegular() && !buildOnly[d.Name()] && n < maxScanFiles {
				n++
				t.files = append(t.files, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("look for Python code in %s: %w", root, err)
		}
	}
	return t, nil
}

// addVenv adds the interpreter the virtual environment at dir runs on: the
// host interpreter its bin/python links to, or for a venv made with copies,
// the one in pyvenv.cfg's home; and that home directory, which the venv's
// interpreter reads to find its standard library.
func (tc *Toolchain) addVenv(r *Rootfs, dir string) error {
	cfg := readPyvenvCfg(filepath.Join(dir, "pyvenv.cfg"))
	var py string
	for _, name := range []string{"python", "python3"} {
		if _, err := os.Lstat(filepath.Join(dir, "bin", name)); err == nil {
			py = filepath.Join(dir, "bin", name)
			break
		}
	}
	if py == "" {
		return fmt.Errorf("virtual environment %s: no bin/python", dir)
	}
	real, err := filepath.EvalSymlinks(py)
	if err != nil {
		return fmt.Errorf("virtual environment %s: its interpreter is not on this machine: %w", dir, err)
	}
	home := cfg["home"]
	if strings.HasPrefix(real, dir+"/") {
		// A copy: the interpreter of the same version in home is its base.
		real = ""
		if home != "" {
			for _, name := range pythonNames(cfg["version"]) {
				if p, err := filepath.EvalSymlinks(filepath.Join(home, name)); err == nil {
					real = p
					break
				}
			}
		}
		if real == "" {
			return fmt.Errorf("virtual environment %s: no base interpreter in its home %q", dir, home)
		}
	}
	if err := r.addLinkChain(py, dir); err != nil {
		return fmt.Errorf("virtual environment %s: %w", dir, err)
	}
	if err := tc.AddProgram(r, real); err != nil {
		return fmt.Errorf("virtual environment %s: %w", dir, err)
	}
	if home != "" && filepath.IsAbs(home) {
		if fi, err := os.Stat(home); err == nil && fi.IsDir() {
			// The directory alone (and the links on the way to it), not
			// everything in it.
			if err := r.addPath(home, func(string) bool { return true }); err != nil {
				return fmt.Errorf("virtual environment %s: %w", dir, err)
			}
		}
	}
	return nil
}

// pythonNames lists the interpreter names to try for a version ("3.11.2"):
// python3.11, python3, python.
func pythonNames(version string) []string {
	parts := strings.Split(version, ".")
	var out []string
	if len(parts) >= 2 {
		out = append(out, "python"+parts[0]+"."+parts[1])
	}
	return append(out, "python3", "python")
}

// readPyvenvCfg reads the key = value lines of a pyvenv.cfg.
func readPyvenvCfg(p string) map[string]string {
	out := map[string]string{}
	data, err := os.ReadFile(p)
	if err != nil {
		return out
	}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, "=")
		if ok {
			out[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return out
}

// addPythonPackages adds, for each Python interpreter in the image, the
// packages of its site directories that the Python files import (and the
// commands' argv, for python -c CODE and python -m MODULE), directly or
// through each other: each package's directory or module file, its
// distribution's metadata, and the shared libraries its extension modules
// load. Nothing is executed: imports are read from the source text, so a
// conditional import counts too.
func (tc *Toolchain) addPythonPackages(r *Rootfs, files []string, argvs ...[]string) error {
	if len(r.pythons) == 0 {
		return nil
	}
	imports := map[string]bool{}
	for _, f := range files {
		scanImports(f, imports)
	}
	for _, argv := range argvs {
		for i, a := range argv {
			importsOf([]byte(a), imports)
			if a == "-m" && i+1 < len(argv) {
				if id := identRE.FindString(argv[i+1]); id != "" {
					imports[id] = true
				}
			}
		}
	}
	var sites []string
	for _, exe := range slices.Sorted(maps.Keys(r.pythons)) {
		for _, s := range r.pythons[exe].sites {
			if !slices.Contains(sites, s) {
				sites = append(sites, s)
			}
		}
	}
	if len(sites) == 0 || len(imports) == 0 {
		return nil
	}
	todo := slices.Sorted(maps.Keys(imports))
	seen := map[string]bool{}
	found := map[string]bool{}
	var exts []string
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		if seen[name] {
			continue
		}
		seen[name] = true
		paths := locateModule(sites, name)
		if len(paths) == 0 {
			continue // the standard library, the bundle's own code, or absent
		}
		found[name] = true
		more := map[string]bool{}
		for _, p := range paths {
			if err := r.addPath(p, nil); err != nil {
				return fmt.Errorf("python package %s: %w", name, err)
			}
			filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
				switch {
				case err != nil:
				case d.IsDir() && d.Name() == "__pycache__":
					return filepath.SkipDir
				case strings.HasSuffix(q, ".py"):
					scanImports(q, more)
				case strings.HasSuffix(q, ".so") || strings.Contains(d.Name(), ".so."):
					exts = append(exts, q)
				}
				return nil
			})
		}
		for _, m := range slices.Sorted(maps.Keys(more)) {
			if !seen[m] {
				todo = append(todo, m)
			}
		}
	}
	for _, s := range sites {
		for _, meta := range distMetadata(s, found) {
			if err := r.addPath(meta, nil); err != nil {
				return fmt.Errorf("python package metadata %s: %w", meta, err)
			}
		}
	}
	return tc.addExtensionLibs(r, exts)
}

// addExtensionLibs adds the shared libraries of extension modules. A module
// whose library is missing on this machine does not import here either: it
// is left as it is rather than failing the image.
func (tc *Toolchain) addExtensionLibs(r *Rootfs, exts []string) error {
	sort.Strings(exts)
	exts = compact(exts)
	if len(exts) == 0 {
		return nil
	}
	if err := tc.AddLibs(r, exts...); err == nil {
		return nil
	}
	for _, e := range exts {
		_ = tc.AddLibs(r, e)
	}
	return nil
}

// locateModule finds the top-level module name in the site directories as
// the import system would: a package directory, a module file or an
// extension module in the first directory that has one; a namespace package
// (a directory without __init__.py) gathers its portions from all of them.
func locateModule(sites []string, name string) []string {
	var out []string
	for _, s := range sites {
		base := filepath.Join(s, name)
		var hits []string
		regular := false
		if fi, err := os.Stat(base); err == nil && fi.IsDir() {
			hits = append(hits, base)
			if _, err := os.Stat(filepath.Join(base, "__init__.py")); err == nil {
				regular = true
			}
		}
		for _, f := range []string{base + ".py", base + ".so"} {
			if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() {
				hits, regular = append(hits, f), true
			}
		}
		if exts, _ := filepath.Glob(base + ".*.so"); len(exts) > 0 {
			hits, regular = append(hits, exts...), true
		}
		out = append(out, hits...)
		if regular {
			break
		}
	}
	return out
}

// distMetadata lists the distribution metadata (*.dist-info, *.egg-info)
// in the site directory that belongs to one of the top-level modules found:
// importlib.metadata reads it for versions and entry points.
func distMetadata(site string, found map[string]bool) []string {
	entries, err := os.ReadDir(site)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		if !strings.HasSuffix(n, ".dist-info") && !strings.HasSuffix(n, ".egg-info") {
			continue
		}
		p := filepath.Join(site, n)
		for _, m := range topLevel(p) {
			if found[m] {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// topLevel returns the top-level modules of a distribution: its
// top_level.txt, else the first components of its RECORD, else its
// normalised name.
func topLevel(meta string) []string {
	if data, err := os.ReadFile(filepath.Join(meta, "top_level.txt")); err == nil {
		return strings.Fields(string(data))
	}
	var out []string
	if f, err := os.Open(filepath.Join(meta, "RECORD")); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			first, _, _ := strings.Cut(sc.Text(), "/")
			first, _, _ = strings.Cut(first, ",")
			first = strings.TrimSuffix(first, ".py")
			if m := identRE.FindString(first); m != "" && m == first && !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
		f.Close()
	}
	if len(out) == 0 {
		name, _, _ := strings.Cut(filepath.Base(meta), "-")
		out = append(out, strings.ReplaceAll(strings.ToLower(name), "-", "_"), name)
	}
	return out
}

// scanImports adds the top-level modules the Python file p imports to
// names: import and from statements at any indentation, and
// importlib.import_module or __import__ of a literal name. Relative imports
// name the file's own package and are left out.
func scanImports(p string, names map[string]bool) {
	fi, err := os.Stat(p)
	if err != nil || fi.Size() > maxImportScan {
		return
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return
	}
	importsOf(data, names)
}

// importsOf adds the top-level modules the Python source text imports.
func importsOf(data []byte, names map[string]bool) {
	for _, m := range importRE.Regexp().FindAllSubmatch(data, -1) {
		if len(m[1]) > 0 {
			names[string(m[1])] = true
			continue
		}
		list := string(m[2])
		for _, part := range strings.Split(list, ",") {
			if id := identRE.FindString(strings.TrimSpace(part)); id != "" && id != "as" {
				names[id] = true
			}
		}
	}
	for _, m := range dynImportRE.Regexp().FindAllSubmatch(data, -1) {
		names[string(m[1])] = true
	}
}
