package static

import (
	"slices"
	"testing"
)

// TestLeavesData checks which subcommands become skills under a group
// that reads a file: its listing lists the caller's data and stays; the
// command that runs a program the caller names goes.
func TestLeavesData(t *testing.T) {
	t.Parallel()
	root := parseHelp("Usage: dotenv [OPTIONS] COMMAND [ARGS]...\n\nOptions:\n" +
		"  -f, --file PATH   Location of the .env file, defaults to .env file in current working directory.\n\n" +
		"Commands:\n  get    Retrieve the value for the given key.\n  list   Display all the stored key/value.\n  run    Run command with environment variables present.\n")
	for _, s := range root.Subs {
		switch s.Name {
		case "get":
			s.Args = []*Arg{{Name: "KEY"}}
		case "run":
			s.Args = []*Arg{{Name: "COMMANDLINE", Variadic: true}}
		}
	}
	var got []string
	for _, l := range leaves(&Tool{Name: "dotenv", Root: root}) {
		got = append(got, l.cmd.Name)
	}
	if want := []string{"get", "list"}; !slices.Equal(got, want) {
		t.Errorf("leaves = %v, want %v", got, want)
	}

	// Without an input file, a listing is the tool's own configuration.
	root = parseHelp("Usage: lint [OPTIONS] COMMAND\n\nCommands:\n  check   Check files.\n  rules   List the rules.\n")
	root.Subs[0].Args = []*Arg{{Name: "FILES", Variadic: true}}
	got = nil
	for _, l := range leaves(&Tool{Name: "lint", Root: root}) {
		got = append(got, l.cmd.Name)
	}
	if want := []string{"check"}; !slices.Equal(got, want) {
		t.Errorf("leaves = %v, want %v", got, want)
	}
}
