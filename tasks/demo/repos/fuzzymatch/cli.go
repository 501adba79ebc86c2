package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// command is one subcommand of the tool.
type command struct {
	name     string // subcommand name
	synopsis string // arguments after the flags, e.g. "QUERY FILE"
	summary  string // one-line description for the command list
	about    string // longer description printed by --help
	args     string // one line per positional argument
	examples string // example invocations
	minArgs  int    // fewest positional arguments
	maxArgs  int    // most positional arguments, -1 for no limit
	// setup registers the command's flags on fs and returns the function
	// that runs the command once the flags are parsed.
	setup func(fs *flag.FlagSet) func(args []string, stdout io.Writer) error
}

// usageError is an error in how the tool was called (exit status 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// run executes the tool with args (without the program name) and returns
// the exit status: 0 on success, 1 on a runtime error, 2 on a usage error.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		names := make([]string, len(commands))
		for i, c := range commands {
			names[i] = c.name
		}
		fmt.Fprintf(stderr, "%s: missing command, one of: %s (run '%s --help' for details)\n",
			progName, strings.Join(names, ", "), progName)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help":
		printMainUsage(stdout)
		return 0
	case "help":
		if len(args) == 1 {
			printMainUsage(stdout)
			return 0
		}
		cmd := lookup(args[1])
		if cmd == nil {
			fmt.Fprintf(stderr, "%s: unknown command %q (run '%s --help' for a list)\n", progName, args[1], progName)
			return 2
		}
		fs := flag.NewFlagSet(progName+" "+cmd.name, flag.ContinueOnError)
		cmd.setup(fs)
		printCommandUsage(stdout, cmd, fs)
		return 0
	case "-version", "--version", "version":
		fmt.Fprintf(stdout, "%s %s\n", progName, version)
		return 0
	}
	cmd := lookup(args[0])
	if cmd == nil {
		fmt.Fprintf(stderr, "%s: unknown command %q (run '%s --help' for a list)\n", progName, args[0], progName)
		return 2
	}
	fs := flag.NewFlagSet(progName+" "+cmd.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	runCmd := cmd.setup(fs)
	pos, err := parseInterspersed(fs, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		printCommandUsage(stdout, cmd, fs)
		return 0
	}
	if err == nil && (len(pos) < cmd.minArgs || (cmd.maxArgs >= 0 && len(pos) > cmd.maxArgs)) {
		if cmd.synopsis == "" {
			err = fmt.Errorf("expected no arguments, got %d", len(pos))
		} else {
			err = fmt.Errorf("expected arguments %s, got %d", cmd.synopsis, len(pos))
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s %s: %v (see '%s %s --help')\n", progName, cmd.name, err, progName, cmd.name)
		return 2
	}
	if err := runCmd(pos, stdout); err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "%s %s: %v (see '%s %s --help')\n", progName, cmd.name, err, progName, cmd.name)
			return 2
		}
		fmt.Fprintf(stderr, "%s %s: %v\n", progName, cmd.name, err)
		return 1
	}
	return 0
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// parseInterspersed parses flags that may appear before, between or after
// the positional arguments, which it returns in order. Everything after a
// lone "--" is positional.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func printMainUsage(w io.Writer) {
	fmt.Fprintf(w, "%s - %s\n\nUsage:\n  %s <command> [flags] [arguments]\n\nCommands:\n", progName, tagline, progName)
	width := 0
	for _, c := range commands {
		width = max(width, len(c.name))
	}
	for _, c := range commands {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun '%s <command> --help' for the flags and arguments of a command.\n", progName)
}

func printCommandUsage(w io.Writer, c *command, fs *flag.FlagSet) {
	synopsis := strings.TrimSpace(fmt.Sprintf("%s %s [flags] %s", progName, c.name, c.synopsis))
	fmt.Fprintf(w, "Usage: %s\n\n%s\n", synopsis, strings.TrimSpace(c.about))
	if c.args != "" {
		fmt.Fprintf(w, "\nArguments:\n%s\n", indent(c.args))
	}
	fmt.Fprintf(w, "\nFlags:\n")
	printFlags(w, fs)
	if c.examples != "" {
		fmt.Fprintf(w, "\nExamples:\n%s\n", indent(c.examples))
	}
}

func indent(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		lines[i] = "  " + strings.TrimSpace(l)
	}
	return strings.Join(lines, "\n")
}

// printFlags lists the flags of fs, merging aliases (flags that share one
// variable, such as -n and --top) into a single entry.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	type entry struct {
		names []string
		flag  *flag.Flag
	}
	var entries []*entry
	fs.VisitAll(func(f *flag.Flag) {
		for _, e := range entries {
			if e.flag.Value == f.Value {
				e.names = append(e.names, f.Name)
				return
			}
		}
		entries = append(entries, &entry{names: []string{f.Name}, flag: f})
	})
	// Order entries by their long name, so -H, --height sorts under h.
	longName := func(e *entry) string {
		long := e.names[0]
		for _, n := range e.names {
			if len(n) > len(long) {
				long = n
			}
		}
		return strings.ToLower(long)
	}
	sort.SliceStable(entries, func(i, j int) bool { return longName(entries[i]) < longName(entries[j]) })
	left := make([]string, len(entries), len(entries)+1)
	usage := make([]string, len(entries), len(entries)+1)
	width := len("-h, --help")
	for i, e := range entries {
		sort.Slice(e.names, func(a, b int) bool {
			if len(e.names[a]) == 1 != (len(e.names[b]) == 1) {
				return len(e.names[a]) == 1
			}
			return e.names[a] < e.names[b]
		})
		parts := make([]string, len(e.names))
		for j, n := range e.names {
			if len(n) == 1 {
				parts[j] = "-" + n
			} else {
				parts[j] = "--" + n
			}
		}
		left[i] = strings.Join(parts, ", ")
		if placeholder, _ := flag.UnquoteUsage(e.flag); placeholder != "" {
			left[i] += " " + placeholder
		}
		width = max(width, len(left[i]))
		_, usage[i] = flag.UnquoteUsage(e.flag)
		if d := e.flag.DefValue; d != "" && d != "0" && d != "false" {
			usage[i] += fmt.Sprintf(" (default %s)", d)
		}
	}
	left = append(left, "-h, --help")
	usage = append(usage, "show this help")
	for i := range left {
		fmt.Fprintf(w, "  %-*s  %s\n", width, left[i], usage[i])
	}
}
