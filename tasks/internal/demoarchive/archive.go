// Package demoarchive packs a directory into a deterministic zip archive:
// entries sorted, timestamps fixed, modes reduced to 0644/0755, build
// leftovers skipped. The same bytes come out for the same tree, so the
// embedded demo archive can be checked against its source directory.
package demoarchive

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// skipped are names of build and cache leftovers never packed.
var skipped = map[string]bool{
	"__pycache__": true, ".pytest_cache": true, "node_modules": true, ".agentnet": true, ".git": true,
}

// Skip reports whether a file or directory name is left out of the archive.
func Skip(name string) bool {
	return skipped[name] || strings.HasSuffix(name, ".pyc") || strings.HasSuffix(name, ".test")
}

// Pack returns the archive of the tree at dir.
func Pack(dir string) ([]byte, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir && Skip(d.Name()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			files = append(files, p)
		} else if !d.IsDir() {
			return fmt.Errorf("%s: only regular files can be packed", p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk %s: %w", dir, err)
	}
	sort.Strings(files)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	stamp := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, p := range files {
		rel, _ := filepath.Rel(dir, p)
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		mode := fs.FileMode(0o644)
		if fi.Mode()&0o111 != 0 {
			mode = 0o755
		}
		h := &zip.FileHeader{Name: filepath.ToSlash(rel), Method: zip.Deflate, Modified: stamp}
		h.SetMode(mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
