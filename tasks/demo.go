package tasks

import (
	"archive/zip"
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

//go:generate go run ./internal/mkdemo -src demo -out demo.zip

// demoZip is the demo suite (tasks/demo) as a zip archive. It is an archive
// rather than an embedded directory because the demo's Go repos are modules
// of their own, which go:embed cannot include; TestDemoArchiveUpToDate keeps
// it in step with the directory.
//
//go:embed demo.zip
var demoZip []byte

// DemoSuiteFile is the demo suite's file name inside the demo tree.
const DemoSuiteFile = "suite.yaml"

// DemoFS returns the embedded demo suite tree (suite.yaml, repos/, inputs/, ...).
func DemoFS() fs.FS {
	r, err := zip.NewReader(bytes.NewReader(demoZip), int64(len(demoZip)))
	if err != nil {
		panic(fmt.Sprintf("embedded demo archive is corrupt: %v", err)) // built by go generate
	}
	return r
}

// ExtractDemo writes the embedded demo suite into dir (created if needed) and
// returns the path of its suite file. Files keep their modes, so the demo's
// shell tools stay executable.
func ExtractDemo(dir string) (string, error) {
	r, err := zip.NewReader(bytes.NewReader(demoZip), int64(len(demoZip)))
	if err != nil {
		return "", fmt.Errorf("open embedded demo: %w", err)
	}
	for _, f := range r.File {
		name := path.Clean(f.Name)
		if strings.HasPrefix(name, "../") || path.IsAbs(name) {
			return "", fmt.Errorf("extract demo: bad entry %q", f.Name)
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if f.FileInfo().IsDir() {
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return "", fmt.Errorf("extract demo: %w", err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return "", fmt.Errorf("extract demo: %w", err)
		}
		if err := extractFile(f, dst); err != nil {
			return "", fmt.Errorf("extract demo %s: %w", f.Name, err)
		}
	}
	return filepath.Join(dir, DemoSuiteFile), nil
}

func extractFile(f *zip.File, dst string) error {
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	mode := os.FileMode(0o644)
	if f.Mode()&0o111 != 0 {
		mode = 0o755
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, rc); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
