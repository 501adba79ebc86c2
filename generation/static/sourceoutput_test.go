package static

import (
	"testing"

	"github.com/agentnet/agentnet/bundle"
)

// TestSourceOutputFlag merges an option the source opens for writing
// (argparse.FileType("w")) under a name that does not say so with the
// help's listing of it: the skill's parameter is a file the run writes,
// while the option the source reads stays a plain value.
func TestSourceOutputFlag(t *testing.T) {
	t.Parallel()
	src := &Command{Flags: []*Flag{
		{Long: "report", Type: "string", Typed: true, Output: true, Metavar: "FILE"},
		{Long: "scale", Type: "number", Typed: true, Default: 1.0},
	}}
	help := "usage: summer [-h] [--report REPORT] [--scale SCALE] numbers\n\noptions:\n" +
		"  -h, --help       show this help message and exit\n" +
		"  --report REPORT  a summary of the sums\n" +
		"  --scale SCALE    multiply each number\n"
	mergeCommand(src, parseHelp(help), true)
	if s := flagSchema(src.flag("report", "")); s["format"] != bundle.FormatOutput {
		t.Errorf("report schema = %v, want format %s", s, bundle.FormatOutput)
	}
	if s := flagSchema(src.flag("scale", "")); s["format"] != nil || s["type"] != "number" || s["default"] != 1.0 {
		t.Errorf("scale schema = %v, want a number defaulting to 1", s)
	}
}
