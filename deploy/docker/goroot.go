package docker

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/docker/docker/api/types/mount"

	"github.com/agentnet/agentnet/internal/proc"
)

// goRoot is a Go installation of this machine, which the jobs that run its
// go command see read-only at its own path.
type goRoot struct {
	dir  string // GOROOT, as `go env GOROOT` tells
	real string // dir with its symbolic links resolved
	// binds are read-only binds of dir and of what the symbolic links in
	// it lead to outside it (Debian's GOROOT links to /usr/share).
	binds []mount.Mount
	files map[string]bool // the bind targets that are files
}

// isGoCommand reports whether the program at host is a go command.
func isGoCommand(host string) bool {
	if filepath.Base(host) == "go" {
		return true
	}
	real, err := filepath.EvalSymlinks(host)
	return err == nil && filepath.Base(real) == "go"
}

// goRoot returns the Go installation of the go command at goBin, asked of
// it once while the Jobs is open.
func (j *Jobs) goRoot(ctx context.Context, goBin string) (*goRoot, error) {
	j.mu.Lock()
	g := j.goroots[goBin]
	j.mu.Unlock()
	if g != nil {
		return g, nil
	}
	g, err := findGoRoot(ctx, goBin, j.cfg.Env, os.Getuid() == 0)
	if err != nil {
		return nil, err
	}
	j.mu.Lock()
	j.goroots[goBin] = g
	j.mu.Unlock()
	return g, nil
}

// findGoRoot asks the go command at goBin (with the environment env) for
// its GOROOT and lists the binds that show it in a container. With
// forNobody, the job's user is nobody, and every file of the installation
// must be readable by all.
func findGoRoot(ctx context.Context, goBin string, env []string, forNobody bool) (*goRoot, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, goBin, "env", "GOROOT")
	// Out of any module, and with no toolchain switch, the answer is this
	// go command's own.
	cmd.Dir = "/"
	cmd.Env = append(withoutEnv(env, "GOTOOLCHAIN", "GOFLAGS"), "GOTOOLCHAIN=local")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s env GOROOT: %w%s", goBin, err, proc.Tail([]byte(stderr.String()), 300))
	}
	dir := strings.TrimSpace(string(out))
	if !filepath.IsAbs(dir) {
		return nil, fmt.Errorf("%s env GOROOT: %q is not an absolute path", goBin, dir)
	}
	dir = filepath.Clean(dir)
	if dir == "/" || dir == "/tmp" {
		return nil, fmt.Errorf("%s env GOROOT: %s cannot be mounted in a job", goBin, dir)
	}
	if fi, err := os.Stat(filepath.Join(dir, "src", "runtime")); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%s env GOROOT: %s holds no Go source tree", goBin, dir)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, fmt.Errorf("GOROOT %s: %w", dir, err)
	}
	g := &goRoot{dir: dir, real: real, files: map[string]bool{}}
	g.binds = append(g.binds, mount.Mount{Type: mount.TypeBind, Source: real, Target: dir, ReadOnly: true})
	outside := map[string]string{} // container path → this machine's file
	if err := walkGoRoot(real, dir, forNobody, outside); err != nil {
		return nil, err
	}
	targets := make([]string, 0, len(outside))
	for t := range outside {
		targets = append(targets, t)
	}
	sort.Strings(targets)
	for i, t := range targets {
		if i > 0 && within(t, targets[:i]) {
			continue
		}
		// What a link leads to is checked like the installation itself;
		// the links in it are not followed further.
		if err := walkGoRoot(outside[t], t, forNobody, nil); err != nil {
			return nil, err
		}
		if fi, err := os.Stat(outside[t]); err == nil && !fi.IsDir() {
			g.files[t] = true
		}
		g.binds = append(g.binds, mount.Mount{Type: mount.TypeBind, Source: outside[t], Target: t, ReadOnly: true})
	}
	return g, nil
}

// walkGoRoot walks the tree at host, which a job sees at path: with
// forNobody, every directory and file must be readable by all; the
// symbolic links that lead out of path (resolved as the job would) go to
// outside when it is not nil, dangling ones left out.
func walkGoRoot(host, path string, forNobody bool, outside map[string]string) error {
	return filepath.WalkDir(host, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("Go installation %s: %w", path, err)
		}
		rel, _ := filepath.Rel(host, p)
		in := filepath.Join(path, rel)
		if forNobody {
			info, err := d.Info()
			if err != nil {
				return fmt.Errorf("Go installation %s: %w", path, err)
			}
			need := fs.FileMode(0o004)
			if info.IsDir() {
				need = 0o005
			}
			if info.Mode()&fs.ModeSymlink == 0 && info.Mode().Perm()&need != need {
				return fmt.Errorf("Go installation %s: %s is not readable by the job's user (nobody); make the installation readable by all", path, in)
			}
		}
		if outside == nil || d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		target, err := os.Readlink(p)
		if err != nil {
			return fmt.Errorf("Go installation %s: %w", path, err)
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(in), target)
		}
		target = filepath.Clean(target)
		if target == path || strings.HasPrefix(target, path+"/") || target == "/" || target == "/tmp" {
			return nil
		}
		if src, err := filepath.EvalSymlinks(p); err == nil {
			outside[target] = src
		}
		return nil
	})
}

// within reports whether p lies in one of the directories dirs.
func within(p string, dirs []string) bool {
	for _, d := range dirs {
		if strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// goEnv adds to env what the go command needs in a job, unless env sets it:
// GOROOT; its module and build caches under the container's /tmp, the only
// place the job's user may write; no module proxy and no toolchain
// download, since a job reaches nothing beyond an agent; and cgo off
// unless the image holds gcc.
func goEnv(env []string, goroot string, gcc bool) []string {
	defaults := []string{
		"GOROOT=" + goroot,
		"GOPATH=/tmp/go",
		"GOMODCACHE=/tmp/go/pkg/mod",
		"GOCACHE=/tmp/go-build",
		"GOTOOLCHAIN=local",
		"GOPROXY=off",
	}
	if !gcc {
		defaults = append(defaults, "CGO_ENABLED=0")
	}
	set := map[string]bool{}
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		set[k] = true
	}
	out := make([]string, 0, len(env)+len(defaults))
	for _, kv := range defaults {
		if k, _, _ := strings.Cut(kv, "="); !set[k] {
			out = append(out, kv)
		}
	}
	return append(out, env...)
}

// withoutEnv returns env without the variables keys.
func withoutEnv(env []string, keys ...string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(keys, k) {
			out = append(out, kv)
		}
	}
	return out
}

// GoModuleError reports that the go command of a job failed for want of a
// module: a job reaches no module proxy (GOPROXY=off) and starts with an
// empty module cache, so the modules that Go code or its tests need beyond
// the standard library must be vendored beside its go.mod (go mod vendor).
type GoModuleError struct {
	// Line is what the go command said about it.
	Line string
}

func (e *GoModuleError) Error() string {
	return "go could not get a module it needs (" + e.Line + "): a job has no network and GOPROXY=off, " +
		"so modules beyond the standard library must be required in go.mod and vendored beside it (go mod vendor)"
}

// goModuleSigns are what the go command says when a module it needs is not
// there and may not be downloaded.
var goModuleSigns = []string{
	"module lookup disabled by GOPROXY=off",
	"missing go.sum entry",
	"no required module provides package",
	"cannot find module providing package",
}

// goModuleTrouble returns the first line of a go command's output (its
// stderr, then its stdout, read as go test -json events when it is JSON)
// that tells of a module it could not get, or "".
func goModuleTrouble(stdout, stderr []byte) string {
	for _, out := range [][]byte{stderr, stdout} {
		for line := range strings.Lines(string(out)) {
			var ev struct{ Output string }
			if json.Unmarshal([]byte(line), &ev) == nil && ev.Output != "" {
				line = ev.Output
			}
			for _, sign := range goModuleSigns {
				if strings.Contains(line, sign) {
					line = strings.TrimSpace(line)
					if len(line) > 300 {
						line = line[:300] + "…"
					}
					return line
				}
			}
		}
	}
	return ""
}
