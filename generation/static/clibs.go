package static

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/agentnet/agentnet/internal/lazyregexp"
	"github.com/agentnet/agentnet/internal/proc"
)

// A build that links a C library (cgo's "#cgo pkg-config: xkbcommon", a
// Python extension's setup) fails when the library's development files
// are missing; pkg-config says which it could not find. With
// --install-system-deps the generator installs the Debian package that
// provides them and runs the setup once more; without, the failure names
// that package.

// pkgConfigMissingRE matches pkg-config's two ways of saying a package is
// missing.
var pkgConfigMissingRE = lazyregexp.New(`Package '([^']+)'(?:, required by '[^']*')?, not found|Package ([^\s']+) was not found in the pkg-config search path`)

// missingHeaderRE matches a C compiler's missing header: the header's
// directory ("vulkan/vulkan.h") or name ("png.h") names its library.
var missingHeaderRE = lazyregexp.New(`fatal error: ([\w+-]+)(?:/[\w./+-]+)?\.h: No such file or directory`)

// missingPkgConfig returns the C libraries a build's output says were
// not found, in order, each once: pkg-config packages, and the libraries
// of missing headers.
func missingPkgConfig(out string) []string {
	var names []string
	add := func(n string) {
		if n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	for _, m := range pkgConfigMissingRE.FindAllStringSubmatch(out, 32) {
		add(m[1] + m[2])
	}
	for _, m := range missingHeaderRE.FindAllStringSubmatch(out, 32) {
		add(m[1])
	}
	return names
}

// versionSuffixRE is a pkg-config name's API version: "-3.0" of gtk+-3.0.
var versionSuffixRE = lazyregexp.New(`-(\d+)(?:\.\d+)*$`)

// devPackages returns the Debian package names that usually provide
// pkg-config package name's development files, the likeliest first:
// lib<name>-dev, <name>-dev, for a versioned name ("gtk+-3.0") the name
// with its major version (libgtk-3-dev) and without it, then the name less
// its last parts (wayland-client: libwayland-dev).
func devPackages(name string) []string {
	base := strings.ToLower(strings.TrimSuffix(name, "+"))
	var out []string
	add := func(stem string) {
		stem = strings.ReplaceAll(stem, "+", "")
		for _, p := range []string{"lib" + strings.TrimPrefix(stem, "lib") + "-dev", stem + "-dev"} {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	if m := versionSuffixRE.FindStringSubmatchIndex(base); m != nil {
		stem := base[:m[0]]
		add(stem + "-" + base[m[2]:m[3]])
		add(stem + base[m[2]:m[3]])
		add(stem)
	}
	add(base)
	// A family of libraries may share one package: wayland-client's is
	// libwayland-dev.
	for stem := base; strings.Contains(stem, "-"); {
		stem = stem[:strings.LastIndex(stem, "-")]
		add(stem)
	}
	return out
}

// debianDev resolves each missing pkg-config package to the first of its
// devPackages that the Debian archive knows; unresolved names are
// returned apart.
func debianDev(ctx context.Context, names []string, env []string) (pkgs, unknown []string) {
	for _, n := range names {
		found := ""
		for _, p := range devPackages(n) {
			res := proc.Run(ctx, proc.Spec{Argv: []string{"apt-cache", "show", "--no-all-versions", p}, Env: env, Timeout: time.Minute})
			if res.Err == nil && len(res.Stdout) > 0 {
				found = p
				break
			}
		}
		if found == "" {
			unknown = append(unknown, n)
		} else if !slices.Contains(pkgs, found) {
			pkgs = append(pkgs, found)
		}
	}
	return pkgs, unknown
}

// missingLibError is a setup that failed for want of C libraries.
type missingLibError struct {
	err   error
	names []string // the pkg-config packages not found
}

func (e *missingLibError) Error() string { return e.err.Error() }
func (e *missingLibError) Unwrap() error { return e.err }

// missingLibNote says what a build lacking C libraries needs.
func missingLibNote(ctx context.Context, names []string, env []string) string {
	pkgs, unknown := debianDev(ctx, names, env)
	var parts []string
	if len(pkgs) > 0 {
		parts = append(parts, fmt.Sprintf("it needs the C libraries %s (Debian: %s; --install-system-deps installs them)", strings.Join(names, ", "), strings.Join(pkgs, " ")))
	}
	if len(unknown) > 0 {
		parts = append(parts, fmt.Sprintf("no Debian package found for the pkg-config packages %s", strings.Join(unknown, ", ")))
	}
	return strings.Join(parts, "; ")
}

// withCLibs handles a setup that failed for want of C libraries: with
// opts.InstallSystemDeps it installs their Debian packages and runs the
// setup again (retry); else, or when that cannot help, the error says
// what the build needs.
func withCLibs(ctx context.Context, lib *missingLibError, opts Options, logw io.Writer, retry func() error) error {
	// A build stops at the first packages it lacks; each round installs
	// those and finds the next, a few rounds at most.
	tried := map[string]bool{}
	for round := 0; opts.InstallSystemDeps && round < 4; round++ {
		pkgs, _ := debianDev(ctx, lib.names, opts.Env)
		pkgs = slices.DeleteFunc(pkgs, func(p string) bool { return tried[p] })
		rep := opts.apt.install(ctx, pkgs, opts.Env, logw)
		if len(rep.Installed) == 0 {
			break
		}
		for _, p := range rep.Installed {
			tried[p] = true
		}
		err := retry()
		if !errors.As(err, &lib) {
			return err
		}
	}
	if note := missingLibNote(ctx, lib.names, opts.Env); note != "" {
		return fmt.Errorf("%w: %s", lib, note)
	}
	return lib
}
