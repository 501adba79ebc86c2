package static

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentnet/agentnet/bundle"
)

// TestInheritOnlyListedFlags checks that a subcommand carries only the
// options its parent's help lists: flags read from a Go program's source
// that its subcommands' flag sets register (-o, --quality) are not the
// root's, and "imgtool info" must not become "imgtool --quality 90 info".
func TestInheritOnlyListedFlags(t *testing.T) {
	t.Parallel()
	root := parseHelp("imgtool - image facts\n\nUsage:\n  imgtool <command> [flags] [arguments]\n\nCommands:\n  info       facts of an image\n")
	root.Flags = []*Flag{{Long: "quality", Type: "integer", Default: 90}, {Short: "o", Type: "string"}}
	info := parseHelp("Usage: imgtool info [--json] IMAGE\n\nFlags:\n  --json   print JSON\n")
	info.Name = "info"
	root.Subs = []*Command{info}
	tool := &Tool{Name: "imgtool", Prog: []string{"imgtool"}, Root: root}
	sk := skillFor(tool, []string{"info"}, info, "", nil, "", nil)
	want := bundle.Command{"imgtool", "info", "--json", "{{json}}", "{{image}}"}
	if diff := cmp.Diff(want, sk.Run); diff != "" {
		t.Errorf("skillFor(info).Run (-want +got):\n%s", diff)
	}
}
