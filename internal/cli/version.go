package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/agentnet/agentnet/bench"
)

// buildInfo is what the binary knows of its own build: the version (see
// Version) and the VCS commit that go build stamped into it, when it did.
type buildInfo struct {
	Version    string `json:"version"`
	Commit     string `json:"commit,omitempty"`      // VCS revision; absent when not stamped (go test, -buildvcs=false)
	CommitTime string `json:"commit_time,omitempty"` // RFC 3339
	Modified   bool   `json:"modified,omitempty"`    // built from a tree with uncommitted changes
	Go         string `json:"go"`
}

// readBuildInfo reads the running binary's build information.
func readBuildInfo() buildInfo {
	bi, _ := debug.ReadBuildInfo()
	return buildInfoFrom(version(), bi)
}

// buildInfoFrom reads the VCS settings of bi (nil when the binary has none).
func buildInfoFrom(version string, bi *debug.BuildInfo) buildInfo {
	b := buildInfo{Version: version, Go: runtime.Version()}
	if bi == nil {
		return b
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Commit = s.Value
		case "vcs.time":
			b.CommitTime = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// bench returns the build as a run records it.
func (b buildInfo) bench() bench.Build {
	return bench.Build{Version: b.Version, Commit: b.Commit, Modified: b.Modified}
}

// String is the one-line form `agentnet version` prints.
func (b buildInfo) String() string {
	s := "agentnet " + b.Version
	switch {
	case b.Commit == "":
		s += " (commit unknown"
	default:
		s += " (commit " + b.Commit
		if b.CommitTime != "" {
			s += " of " + b.CommitTime
		}
		if b.Modified {
			s += ", modified"
		}
	}
	return s + ", " + b.Go + ")"
}

func newVersionCmd(env *Env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print agentnet's version and the commit it was built from",
		Long: `Version prints the agentnet version and the VCS commit the binary was built
from (with its time, and whether the tree had uncommitted changes), as go build
stamped them; a binary built without VCS information says "commit unknown".
Runs record the same in their provenance.`,
		Example: "  agentnet version\n  agentnet version --json",
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			b := readBuildInfo()
			if asJSON {
				return writeJSON(env.Stdout, b)
			}
			_, err := fmt.Fprintln(env.Stdout, b)
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the build information as JSON")
	return cmd
}
