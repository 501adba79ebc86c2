package static

import (
	"slices"

	"github.com/agentnet/agentnet/bundle"
)

// Tool is one entry point of a repository: a program that can be run, with
// the commands it offers.
type Tool struct {
	Name     string   // the program's name ("chemcalc")
	Kind     string   // go, python, node, shell, make
	Source   string   // where it was found, relative to the repo ("cmd/tool", "pyproject.toml")
	Prog     []string // argv prefix that runs it, relative to the repo ("./x", ".agentnet/bin/x")
	Setup    [][]string
	Check    []string // a command that proves the tool runs (usually Prog --help)
	Root     *Command // the tool itself; subcommands hang below
	Doc      string   // a doc comment or docstring of the entry point
	Keywords []string // package keywords
	Summary  string   // one-line package description (pyproject, package.json)
	// Missing lists imports the tool needs that the interpreter cannot find.
	Missing []Missing
	// Flat is set when Root's "subcommands" are really alternatives of one
	// program (Makefile targets): each becomes a skill without Root's flags.
	Flat bool
	// Skills, when set, are the tool's skills, composed from a library's
	// API (Root is then empty); Files are the wrapper files they run,
	// written into the bundle directory (paths relative to it).
	Skills []bundle.Skill
	Files  map[string][]byte
	// LeftOut says which names of a library's API gave no skill and why.
	LeftOut []string
	// Loose marks a script found by its __main__ guard rather than
	// declared as an entry point: in a library's repository it is usually
	// maintenance, and the library's API wins.
	Loose bool
}

// Missing is a module an entry point imports that is not installed.
type Missing struct {
	Module string `json:"module"`
	Debian string `json:"debian,omitempty"` // the Debian package that provides it, when known
}

// Command is a command of a tool: the tool itself or a subcommand.
type Command struct {
	Name     string   // subcommand name; "" for the root
	Summary  string   // one line, as listed by the parent's help
	About    string   // the longer description of its own help
	Usage    string   // the usage line
	Forms    []string // every form of the usage, the first one Usage
	Flags    []*Flag
	Args     []*Arg
	Examples []string
	Subs     []*Command
	// Hidden marks commands that are not capabilities (help, version,
	// completion).
	Hidden bool
	// Help is the text the program printed for its --help, when probed.
	Help string
	// dropped are the names (with dashes) of the options a help listed
	// and the parse left out (help, version), so that a usage's "[-V]"
	// does not bring one back.
	dropped []string
}

// Flag is an option of a command.
type Flag struct {
	Long     string // without dashes; "" when there is only a short name
	Short    string // without the dash
	Dashes   string // "--" or "-" before Long (Go flag accepts both; some tools want one)
	Metavar  string // "" for a switch
	Help     string
	Type     string // string, integer, number, boolean, array
	Item     string // the item type of an array
	Default  any
	Choices  []string
	Required bool
	// OptionalValue is set when the value may be left out: the flag alone
	// is a switch ("--compress [options]", "--color[=WHEN]"). Attached is
	// set when a value must then be joined to it with "=" (getopt's
	// optional arguments: "--color=always", never "--color always").
	OptionalValue, Attached bool
	// Negation is the long name that turns a switch off ("no-override"
	// of "--override / --no-override", "no-color" of "--[no-]color").
	Negation string
	// Typed is set when the type comes from source code, not a guess from
	// the help text.
	Typed bool
	// Output is set when the source opens the option's value for writing
	// (argparse.FileType("w"), click.File("w")): a file the run writes.
	Output bool
	// Name is the parameter's name when the source gives one (argparse's
	// dest); Aliases are the option's other names, with their dashes
	// ("-w", "--line-width"), which name the same parameter.
	Name    string
	Aliases []string
}

// Arg is a positional argument of a command.
type Arg struct {
	Name     string // metavar or dest, as written ("FILE", "formula")
	Help     string
	Type     string // string, integer, number
	Optional bool
	Variadic bool // takes several values
	Choices  []string
	Default  any
}

// find returns the subcommand called name, or nil.
func (c *Command) find(name string) *Command {
	for _, s := range c.Subs {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// flag returns the flag with the given long (or short) name, or nil. A
// flag is also found by its aliases.
func (c *Command) flag(long, short string) *Flag {
	for _, f := range c.Flags {
		if long != "" && f.Long == long {
			return f
		}
	}
	if short != "" {
		for _, f := range c.Flags {
			if f.Short == short {
				return f
			}
		}
	}
	for _, f := range c.Flags {
		if long != "" && (slices.Contains(f.Aliases, "--"+long) || slices.Contains(f.Aliases, "-"+long)) ||
			short != "" && slices.Contains(f.Aliases, "-"+short) {
			return f
		}
	}
	return nil
}
