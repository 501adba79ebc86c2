package static

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/proc"
)

// The bundle's system_packages record the Debian packages its skills need,
// so that an image built for the agent holds them (deploy/image): those
// apt-get installed during the generation (--install-system-deps: C
// libraries' development files, Python modules, Node dependencies) and
// those the Python environment and the Node tools were found to use (the
// packages of Debian's dist-packages and /usr/share/nodejs), each when this
// machine has it installed.

// aptLog records the Debian packages a generation installed with apt-get
// or found its tools using. A nil log installs without recording.
type aptLog struct {
	mu   sync.Mutex
	pkgs []string
}

// install installs pkgs (aptInstall) and records what was installed.
func (l *aptLog) install(ctx context.Context, pkgs []string, env []string, logw io.Writer) *AptReport {
	rep := aptInstall(ctx, pkgs, env, logw)
	l.uses(rep.Installed)
	return rep
}

// uses records packages the tools use.
func (l *aptLog) uses(pkgs []string) {
	if l != nil {
		l.mu.Lock()
		l.pkgs = append(l.pkgs, pkgs...)
		l.mu.Unlock()
	}
}

// systemPackages returns the bundle's system packages: the packages
// recorded during the generation and those of the Python environment,
// sorted, each once, and only those installed on this machine.
func systemPackages(ctx context.Context, opts Options, py *PythonEnv) []string {
	var cands []string
	if opts.apt != nil {
		opts.apt.mu.Lock()
		cands = append(cands, opts.apt.pkgs...)
		opts.apt.mu.Unlock()
	}
	if py != nil {
		cands = append(cands, py.Debian...)
	}
	cands = slices.DeleteFunc(cands, func(p string) bool { return !bundle.IsDebianPackage(p) })
	cands = slices.Compact(slices.Sorted(slices.Values(cands)))
	if len(cands) == 0 {
		return nil
	}
	installed := installedPackages(ctx, cands, opts.Env)
	return slices.DeleteFunc(cands, func(p string) bool { return !installed[p] })
}

// installedPackages asks dpkg which of pkgs are installed.
func installedPackages(ctx context.Context, pkgs []string, env []string) map[string]bool {
	// dpkg-query exits 1 when it knows some name not; it still lists the
	// others.
	argv := append([]string{"dpkg-query", "-W", "-f=${Package} ${db:Status-Status}\\n", "--"}, pkgs...)
	res := proc.Run(ctx, proc.Spec{Argv: argv, Env: env, Timeout: time.Minute})
	out := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(res.Stdout))
	for sc.Scan() {
		if name, status, ok := strings.Cut(sc.Text(), " "); ok && status == "installed" {
			out[name] = true
		}
	}
	return out
}
