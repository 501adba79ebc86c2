package static

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/agentnet/agentnet/internal/proc"
)

// AptReport is what installing system packages did.
type AptReport struct {
	Installed []string `json:"installed,omitempty"` // installed now, or already there
	Unknown   []string `json:"unknown,omitempty"`   // no such package in the configured archives
	Error     string   `json:"error,omitempty"`     // why apt-get failed
}

// lockWait makes apt-get wait for the package database while another
// apt-get or dpkg holds it (another generation, the system's own updates)
// rather than fail at once.
const lockWait = "-oDPkg::Lock::Timeout=600"

// aptInstall installs Debian packages with apt-get (as the --install-system-deps
// option asks): packages the archive does not know are reported, not tried;
// when none is known the package lists are refreshed once with apt-get update.
func aptInstall(ctx context.Context, pkgs []string, env []string, logw io.Writer) *AptReport {
	rep := &AptReport{}
	pkgs = slices.Compact(slices.Sorted(slices.Values(pkgs)))
	if len(pkgs) == 0 {
		return rep
	}
	env = append(append([]string{}, env...), "DEBIAN_FRONTEND=noninteractive")
	run := func(timeout time.Duration, argv ...string) *proc.Result {
		fmt.Fprintf(logw, "$ %s\n", strings.Join(argv, " "))
		return proc.Run(ctx, proc.Spec{Argv: argv, Env: env, Timeout: timeout, Tee: logw})
	}
	known := func() (yes, no []string) {
		for _, p := range pkgs {
			res := proc.Run(ctx, proc.Spec{Argv: []string{"apt-cache", "show", "--no-all-versions", p}, Env: env, Timeout: time.Minute})
			if res.Err == nil && len(res.Stdout) > 0 {
				yes = append(yes, p)
			} else {
				no = append(no, p)
			}
		}
		return yes, no
	}
	yes, no := known()
	if len(no) > 0 {
		if res := run(10*time.Minute, "apt-get", lockWait, "update"); res.Err != nil {
			rep.Error = fmt.Sprintf("apt-get update: %v", res.Err)
		} else {
			yes, no = known()
		}
	}
	rep.Unknown = no
	if len(yes) == 0 {
		return rep
	}
	argv := append([]string{"apt-get", lockWait, "install", "-y", "--no-install-recommends"}, yes...)
	if res := run(20*time.Minute, argv...); res.Err != nil {
		rep.Error = fmt.Sprintf("%s: %v", strings.Join(argv, " "), res.Err)
		return rep
	}
	rep.Installed = yes
	return rep
}
