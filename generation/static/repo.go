package static

import (
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Limits of the inventory: a repository larger than this is read in part.
const (
	maxFiles    = 20000
	maxReadSize = 4 << 20
)

// repo is the inventory of a repository: its regular files (slash paths
// relative to the root, sorted), read lazily and in bounded amounts.
// Symbolic links are never followed, so nothing outside the root is read.
type repo struct {
	root  string
	name  string
	files []string
	set   map[string]bool
	exec  map[string]bool // files with an executable bit
	// links maps each symbolic link of the inventory's directories to
	// the slash path its target names (relative to the root; "" for one
	// outside it). Links are recorded, never followed.
	links map[string]string
	// leftOut says which entry points the analysis left out and why, for
	// the attempt record.
	leftOut []string
}

// skippedDirs are never entered.
var skippedDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, ".agentnet": true, "node_modules": true, "vendor": true,
	"__pycache__": true, ".venv": true, "venv": true, ".tox": true, ".mypy_cache": true, ".pytest_cache": true,
	"dist": true, "build": true, "site-packages": true, ".idea": true, ".vscode": true, "target": true,
}

func scan(root, name string) (*repo, error) {
	r := &repo{root: root, name: name, set: map[string]bool{}, exec: map[string]bool{}, links: map[string]string{}}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if p != root && (skippedDirs[d.Name()] || strings.HasSuffix(d.Name(), ".egg-info")) {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if target, err := os.Readlink(p); err == nil && len(r.links) < maxFiles {
				r.links[rel] = linkTarget(rel, filepath.ToSlash(target))
			}
			return nil // never followed
		}
		if !d.Type().IsRegular() {
			return nil // devices, sockets
		}
		if len(r.files) >= maxFiles {
			return fs.SkipAll
		}
		r.files = append(r.files, rel)
		r.set[rel] = true
		if fi, err := d.Info(); err == nil && fi.Mode()&0o111 != 0 {
			r.exec[rel] = true
		}
		return nil
	})
	slices.Sort(r.files)
	return r, err
}

// linkTarget resolves a link's target (as written) against the link's
// directory: a slash path relative to the root, or "" when it leaves the
// root or is absolute.
func linkTarget(link, target string) string {
	if path.IsAbs(target) {
		return ""
	}
	p := path.Join(path.Dir(link), target)
	if p == ".." || strings.HasPrefix(p, "../") {
		return ""
	}
	return p
}

// linkedTo counts the symbolic links that name the file rel.
func (r *repo) linkedTo(rel string) int {
	n := 0
	for _, target := range r.links {
		if target == rel {
			n++
		}
	}
	return n
}

func (r *repo) has(rel string) bool { return r.set[rel] }

func (r *repo) hasExt(ext string) bool {
	return slices.ContainsFunc(r.files, func(f string) bool { return strings.HasSuffix(f, ext) })
}

// read returns up to max bytes of a file of the inventory.
func (r *repo) read(rel string, max int64) ([]byte, bool) {
	if !r.set[rel] {
		return nil, false
	}
	return readLimited(filepath.Join(r.root, filepath.FromSlash(rel)), max)
}

// readLimited reads up to max bytes (and never more than maxReadSize) of
// the file at p.
func readLimited(p string, max int64) ([]byte, bool) {
	f, err := os.Open(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, min(max, maxReadSize)))
	return data, err == nil
}

// topLevel lists the files directly in dir ("" for the root).
func (r *repo) topLevel(dir string) []string {
	var out []string
	for _, f := range r.files {
		if path.Dir(f) == dir || (dir == "" && !strings.Contains(f, "/")) {
			out = append(out, f)
		}
	}
	return out
}
