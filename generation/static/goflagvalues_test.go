package static

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"testing"
)

// TestFlagChoicesReachSkill merges a Go program's help (which lists
// -locale as a plain string) with its source, whose switch on the flag
// closes its values: the skill's parameter is an enum of them, with the
// source's default kept as a value.
func TestFlagChoicesReachSkill(t *testing.T) {
	t.Parallel()
	src := "package main\n\nimport (\n\t\"flag\"\n\t\"log\"\n)\n\nfunc main() {\n" +
		"\tlocale := flag.String(\"locale\", \"\", \"Correct spellings for a locale\")\n" +
		"\tmode := flag.String(\"source\", \"auto\", \"Source mode\")\n\tflag.Parse()\n" +
		"\tswitch *locale {\n\tcase \"\":\n\tcase \"US\", \"UK\":\n\tdefault:\n\t\tlog.Fatalf(\"unknown locale\")\n\t}\n" +
		"\tswitch *mode {\n\tcase \"auto\":\n\tcase \"text\":\n\t}\n}\n"
	af, err := parser.ParseFile(token.NewFileSet(), "main.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	c := goSource([]*ast.File{af})
	help := "Usage of speller:\n  -locale string\n    \tCorrect spellings for a locale\n  -source string\n    \tSource mode (default \"auto\")\n"
	mergeCommand(c, parseHelp(help), false)
	locale, source := c.flag("locale", ""), c.flag("source", "")
	if locale == nil || source == nil {
		t.Fatalf("flags after the merge = %+v", c.Flags)
	}
	if s := flagSchema(locale); !slices.Equal(s["enum"].([]any), []any{"US", "UK"}) {
		t.Errorf("locale schema = %v, want enum [US UK]", s)
	}
	if s := flagSchema(source); s["enum"] != nil || s["default"] != "auto" {
		t.Errorf("source schema = %v, want no enum (its switch does not fail on other values) and default auto", s)
	}
}
