package static

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMergeFlagsUnion checks that the flags an exactly read source gives
// and the help's parse missed are kept, after the help's, and that the
// source's types win.
func TestMergeFlagsUnion(t *testing.T) {
	t.Parallel()
	src := &Command{Flags: []*Flag{
		{Short: "l", Metavar: "LEXER", Type: "string", Typed: true},
		{Short: "S", Metavar: "STYLE", Type: "string", Typed: true},
		{Short: "a", Metavar: "ARG", Type: "string", Typed: true},
		{Long: "override", Type: "string", Default: true, Typed: true},
		{Long: "version", Type: "boolean", Typed: true},
	}}
	h := parseHelp("Usage: tool [OPTIONS]\n\nOptions:\n  -l LEXER      Specify the lexer to use.\n" +
		"  --override / --no-override  Override variables.\n  --json        Output as JSON.\n")
	mergeCommand(src, h, true)
	var got []string
	for _, f := range src.Flags {
		got = append(got, f.Long+"|"+f.Short+"|"+f.Type)
	}
	want := []string{"|l|string", "override||boolean", "json||boolean", "|S|string", "|a|string"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mergeCommand() flags (-want +got):\n%s", diff)
	}
}
