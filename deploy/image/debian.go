package image

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentnet/agentnet/bundle"
)

// A bundle's system_packages are the Debian packages its skills need. The
// images are made of this machine's files, with no package manager inside
// and no network during the build, so a package comes into the image as
// this machine has it installed: the files dpkg lists for it (directories
// come as the parents of its files), each symbolic link with its target,
// and the shared libraries its programs and libraries load, as ldd finds
// them. A package the machine lacks is an error that says how to install
// it (apt-get install, or agentnet generate --install-system-deps).

// AddPackages adds the files of the installed Debian packages pkgs and the
// shared libraries they load.
func (tc *Toolchain) AddPackages(r *Rootfs, pkgs []string) error {
	var elfs []string
	for _, p := range pkgs {
		if !bundle.IsDebianPackage(p) {
			return fmt.Errorf("system package %q: not a Debian package name", p)
		}
		files, err := packageFiles(p)
		if err != nil {
			return err
		}
		for _, f := range files {
			fi, err := os.Lstat(f)
			target, terr := os.Stat(f)
			if err != nil || terr != nil || fi.IsDir() {
				// A diverted or removed file, a link to nothing, or a
				// directory: the package's files bring their parents.
				continue
			}
			if fi.Mode()&os.ModeSymlink != 0 && target.IsDir() {
				// A link to a directory (a doc directory shared with
				// another package) comes alone; the directory's files
				// come with their own packages.
				if dir, err := filepath.EvalSymlinks(filepath.Dir(f)); err == nil && dir == filepath.Dir(f) {
					if link, err := os.Readlink(f); err == nil {
						r.Links[f] = link
					}
				}
				continue
			}
			if err := r.addPath(f, nil); err != nil {
				return fmt.Errorf("system package %s: %w", p, err)
			}
			if fi.Mode().IsRegular() && isELF(f) {
				elfs = append(elfs, f)
			}
		}
	}
	if err := tc.AddLibs(r, elfs...); err != nil {
		return fmt.Errorf("system packages %s: %w", strings.Join(pkgs, " "), err)
	}
	return nil
}

// packageFiles lists the files of the installed package p as dpkg knows
// them.
func packageFiles(p string) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	status, err := exec.CommandContext(ctx, "dpkg-query", "-W", "-f=${db:Status-Status}\n", p).Output()
	if err != nil || !bytes.HasPrefix(status, []byte("installed\n")) {
		if _, lerr := exec.LookPath("dpkg-query"); lerr != nil {
			return nil, fmt.Errorf("system package %s: this machine has no dpkg-query, so the package's files cannot be found", p)
		}
		return nil, fmt.Errorf("system package %s is not installed on this machine, so it cannot be copied into the image (apt-get install --no-install-recommends %s, or agentnet generate --install-system-deps)", p, p)
	}
	out, err := exec.CommandContext(ctx, "dpkg-query", "-L", p).Output()
	if err != nil {
		return nil, fmt.Errorf("system package %s: dpkg-query -L: %w", p, err)
	}
	var files []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		// "diverted by" and "package diverts others to" lines are notes,
		// not files.
		if f := sc.Text(); filepath.IsAbs(f) && f != "/." && !strings.Contains(f, ": ") {
			files = append(files, f)
		}
	}
	return files, nil
}

// isELF reports whether the file p is an ELF object.
func isELF(p string) bool {
	head, err := readHead(p)
	return err == nil && bytes.HasPrefix(head, []byte("\x7fELF"))
}
