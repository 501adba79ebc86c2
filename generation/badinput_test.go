package generation_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/generation"
)

const usageScript = `#!/bin/sh
# wc-lines: count the lines of a file.
case $1 in -h|--help) echo "Usage: wc-lines FILE"; echo; echo "Count the lines of FILE."; exit 0;; esac
wc -l < "$1"
`

// TestBadInput feeds the generator repositories it cannot, or can only
// partly, use: each ends in a clear attempt record (a failure with its
// reason, or a bundle), never a crash, and nothing is written outside the
// output directory.
func TestBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		files      map[string]string // path → content ("->target" makes a symlink)
		repo       string            // instead of files: a repo argument
		wantOK     bool
		wantStage  string
		wantReason string
	}{
		{name: "empty repo", files: map[string]string{}, wantStage: "generate", wantReason: "empty"},
		{name: "no entry points", files: map[string]string{"README.md": "# notes\n\nJust notes.\n", "data.csv": "a,b\n1,2\n"},
			wantStage: "generate", wantReason: "no entry points found"},
		{name: "binary only", files: map[string]string{"blob.bin": "\x00\x01\x02\x7fELF\x00", "image.dat": "\x00\x00\xff"},
			wantStage: "generate", wantReason: "only binary files"},
		{name: "git URL that does not exist", repo: "file:///nonexistent/agentnet/repo.git", wantStage: "source", wantReason: "clone"},
		{name: "build fails", files: map[string]string{"go.mod": "module example.org/broken\n\ngo 1.22\n",
			"main.go": "package main\n\nfunc main() { undefinedFunction() }\n"}, wantStage: "generate", wantReason: "setup failed"},
		{name: "README of 50 MiB", files: map[string]string{"wc-lines": usageScript, "README.md": "# wc-lines\n\nCounts lines.\n" + strings.Repeat("filler text ", 50<<20/12)},
			wantOK: true},
		{name: "symlinks outside the repo", files: map[string]string{"wc-lines": usageScript, "escape": "->OUTSIDE", "passwd": "->/etc/passwd", "inside": "->wc-lines"},
			wantOK: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			base := t.TempDir()
			outside := filepath.Join(base, "outside")
			os.MkdirAll(outside, 0o755)
			os.WriteFile(filepath.Join(outside, "keep.txt"), []byte("untouched"), 0o644)
			repo := tt.repo
			if repo == "" {
				repo = filepath.Join(base, "repo")
				os.MkdirAll(repo, 0o755)
				for name, content := range tt.files {
					p := filepath.Join(repo, name)
					if target, ok := strings.CutPrefix(content, "->"); ok {
						if target == "OUTSIDE" {
							target = outside
						}
						if err := os.Symlink(target, p); err != nil {
							t.Fatal(err)
						}
						continue
					}
					if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
						t.Fatal(err)
					}
				}
			}
			before := snapshot(t, base)
			out := filepath.Join(base, "out")
			rep, err := generation.Run(t.Context(), generation.Config{Repo: repo, Out: out, Env: os.Environ()})
			if err != nil {
				t.Fatalf("Run() error = %v, want a report", err)
			}
			a := rep.Attempts[len(rep.Attempts)-1]
			if a.OK != tt.wantOK {
				t.Fatalf("attempt ok = %v (stage %s: %s), want %v", a.OK, a.Stage, a.Reason, tt.wantOK)
			}
			if !tt.wantOK && (a.Stage != tt.wantStage || !strings.Contains(a.Reason, tt.wantReason)) {
				t.Errorf("attempt failed at %s: %q, want stage %s and a reason with %q", a.Stage, a.Reason, tt.wantStage, tt.wantReason)
			}
			// Nothing outside the output directory changed.
			after := snapshot(t, base)
			for p, v := range before {
				if after[p] != v {
					t.Errorf("%s changed outside the output directory", p)
				}
			}
			for p := range after {
				if _, ok := before[p]; !ok && !strings.HasPrefix(p, "out") {
					t.Errorf("%s was created outside the output directory", p)
				}
			}
			if tt.name == "symlinks outside the repo" {
				for _, l := range []string{"escape", "passwd"} {
					if _, err := os.Lstat(filepath.Join(out, "repo", l)); err == nil {
						t.Errorf("link %s to outside the repo was copied into the bundle", l)
					}
				}
				if _, err := os.Lstat(filepath.Join(out, "repo", "inside")); err != nil {
					t.Errorf("link inside the repo was not kept: %v", err)
				}
			}
		})
	}
}

// snapshot maps every path under dir (except out/) to its size and
// content hash-ish prefix, without following links.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return nil // gains the out directory
		}
		if rel == "out" && d.IsDir() {
			return filepath.SkipDir
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		v := fi.Mode().String() + " " + fi.ModTime().String()
		if d.Type().IsRegular() && fi.Size() < 1<<20 {
			data, _ := os.ReadFile(p)
			v += " " + string(bytes.TrimSpace(data))
		}
		m[rel] = v
		return nil
	})
	return m
}
