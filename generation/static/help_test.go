package static

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseHelp(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		text      string
		wantSubs  []string
		wantFlags []string // long|short|type|metavar
		wantArgs  []string
	}{
		{"argparse subcommands", `usage: chem [-h] COMMAND ...

Chemistry calculator.

positional arguments:
  COMMAND
    mass       molar mass of formulas
    composition
               mass percent of each element
    help       show help

options:
  -h, --help   show this help message and exit
`, []string{"mass", "composition", "help"}, nil, nil},
		{"argparse command", `usage: chem batch [-h] [--column NAME] [--decimals N] [-o FILE] FILE.csv

Read a CSV file.

positional arguments:
  FILE.csv              CSV file

options:
  -h, --help            show this help message and exit
  --column NAME         formula column (default: 'formula')
  --decimals N          decimal places (default 3)
  -o FILE, --output FILE
                        write the CSV to FILE
  --json                print JSON
`, nil, []string{"column||string|NAME", "decimals||integer|N", "output|o|string|FILE", "json||boolean|"}, []string{"FILE.csv"}},
		{"go flag defaults", "Usage of tool:\n  -n int\n    \tnumber of requests (default 200)\n  -v\tverbose\n  -url string\n    \tthe URL\n",
			nil, []string{"|n|integer|int", "|v|boolean|", "url||string|string"}, nil},
		{"hand-written", `Usage: csvtool COMMAND [ARGS...] [OPTIONS]

Commands:
  stats FILE COLUMN [--json]                 statistics of a numeric column
  sort FILE COLUMN [--desc] [-o FILE]
                                             rows ordered by COLUMN

Options (all commands):
  -d, --delimiter CHAR   field separator (default ",")
`, []string{"stats", "sort"}, []string{"delimiter|d|string|CHAR"}, nil},
		{"usage positionals", "Usage: fuzzymatch best [flags] QUERY FILE\n\nFlags:\n  -n, --top N    the N best (default 3)\n",
			nil, []string{"top|n|integer|N"}, []string{"QUERY", "FILE"}},
		{"argparse nested subcommands under a titled group", `usage: semver bump [-h] {major,minor} ...

options:
  -h, --help            show this help message and exit

Bump commands:
  {major,minor}
    major               Bump the major part of the version
    minor               Bump the minor part of the version
`, []string{"major", "minor"}, nil, nil},
		{"usage alternatives", "Usage:\n  jsonflat [OPTIONS] [FILE|URL|-]\n\nOptions:\n  -u, --undo   reverse it\n",
			nil, []string{"undo|u|boolean|"}, []string{"FILE"}},
		{"usage phrase", "Usage:\n  loc [flags] [files or directories]\n\nFlags:\n      --wide   wider output\n",
			nil, []string{"wide||boolean|"}, []string{"FILES"}},
		{"usage literal choice", "usage: svc (start|stop) <name>|<id>\n",
			nil, nil, []string{"name"}},
		{"optional values and a lower-case list", "usage: shfmt [flags] [path ...]\n\n  -l[=0], --list[=0]  list files whose formatting differs\n  -w,     --write     write result to file\n",
			nil, []string{"list|l|string|0", "write|w|boolean|"}, []string{"path"}},
		{"a value named by a number word but listed as words", "Usage: semver [options] <version>\n\nOptions:\n-i --increment [<level>]\n        Increment a version. Level can be one of: major, minor, or patch.\n",
			nil, []string{"increment|i|string|level"}, []string{"version"}},
		{"urfave/cli: the synopsis in NAME, global options its own", "NAME:\n   jp - jp [<options>] <expression>\n\nUSAGE:\n   jp [global options] command [command options] [arguments...]\n\n" +
			"VERSION:\n   0.2.1\n\nCOMMANDS:\n   help, h  Shows a list of commands or help for one command\n\nGLOBAL OPTIONS:\n" +
			"   --compact, -c                Produce compact JSON output.\n   --filename value, -f value   Read input JSON from a file instead of stdin.\n   --help, -h                   show help\n",
			[]string{"help"}, []string{"compact|c|boolean|", "filename|f|string|value"}, []string{"expression"}},
		{"click's optional list before a required argument", "Usage: sqlite-utils memory [OPTIONS] [PATHS]... SQL\n", nil, nil, []string{"PATHS", "SQL"}},
		{"a repeated argument", "Usage: semver [options] <version> [<version> [...]]\n", nil, nil, []string{"version"}},
		{"headers without colons", "Usage\n    pup [flags] [selectors] [optional display function]\nVersion\n    0.4.0\nFlags\n" +
			"    -c --color         print result with color\n    -f --file          file to read from\n",
			nil, []string{"color|c|boolean|", "file|f|string|FILE"}, []string{"selectors"}},
		{"options at the margin under titled groups", "Usage: tabulate [options] [FILE ...]\n\nPretty-print tabular data.\n\n" +
			"FILE                      a filename of the file with tabular data;\n                          if \"-\" or missing, read data from stdin.\n\n" +
			"Options:\n\n-h, --help                show this message\n\nINPUT:\n-r, --read FILEFORMAT     parse input FILEs as:\n" +
			"                          csv (comma-separated valued, Excel dialect)\n-s REGEXP, --sep REGEXP   column separator (default: whitespace)\n\n" +
			"FORMAT:\n-1                        use the first row of input data as a table header\n-f FMT, --format FMT      set output table format (default: simple)\n",
			nil, []string{"read|r|string|FILEFORMAT", "sep|s|string|REGEXP", "|1|boolean|", "format|f|string|FMT"}, []string{"FILE"}},
		{"values named by the help alone", "Usage: pup [flags]\n\nFlags:\n    -i --indent        number of spaces to use for indent or character\n" +
			"    -n --number        print number of elements selected\n    -p --plain         don't escape html\n",
			nil, []string{"indent|i|integer|N", "number|n|boolean|", "plain|p|boolean|"}, nil},
		{"capital headers without colons", "Work with GitHub from the command line.\n\nUSAGE\n  gh <command> <subcommand> [flags]\n\n" +
			"CORE COMMANDS\n  auth:        Authenticate gh and git with GitHub\n  browse:      Open the repository in the browser\n\n" +
			"FLAGS\n  --help      Show help for command\n  -R, --repo OWNER/REPO   Select another repository\n",
			[]string{"auth", "browse"}, []string{"repo|R|string|OWNER/REPO"}, nil},
		{"a section title of many words", "usage: pygmentize [-l LEXER] [-S STYLE -f formatter | -L [WHAT ...] | -C] [INPUTFILE]\n\n" +
			"Main operation:\n  -l LEXER      Specify the lexer to use.\n  -f FORMATTER  Specify the formatter to use.\n\n" +
			"Special modes - do not do any highlighting:\n  -S STYLE -f formatter\n                Print style definitions for STYLE.\n  -V            Print the package version.\n" +
			"  -L [WHAT ...]\n                List lexers, formatters, styles or filters.\n  -H NAME TYPE  Print detailed help.\n  -C            Guess and print a lexer name.\n",
			nil, []string{"|l|string|LEXER", "|f|string|FORMATTER", "|S|string|STYLE", "|L|array|WHAT", "|H|array|NAME", "|C|boolean|"}, []string{"INPUTFILE"}},
		{"a required choice of options is no argument; every usage form counts", "Usage:\n" +
			"    age [--encrypt] (-r RECIPIENT | -R PATH)... [--armor] [-o OUTPUT] [INPUT]\n" +
			"    age --decrypt [-i PATH]... [-o OUTPUT] [INPUT]\n\nOptions:\n    -r, --recipient RECIPIENT   Encrypt to the specified RECIPIENT.\n",
			nil, []string{"recipient|r|string|RECIPIENT", "encrypt||boolean|", "armor||boolean|", "|o|string|OUTPUT", "|i|string|PATH"}, []string{"INPUT"}},
		{"an argument only a later usage form shows", "Usage:\n    age-keygen [-pq] [-o OUTPUT]\n    age-keygen -y [-o OUTPUT] [INPUT]\n\n" +
			"Options:\n    -o, --output OUTPUT       Write the result to the file at path OUTPUT.\n",
			nil, []string{"output|o|string|OUTPUT"}, []string{"INPUT"}},
		{"usage forms below a blank line and captions", "jc converts the output of many commands to JSON\n\nUsage:\n\n    Standard syntax:\n\n" +
			"        COMMAND | jc [SLICE] [OPTIONS] PARSER\n\n        cat FILE | jc [SLICE] [OPTIONS] PARSER\n\n    Magic syntax:\n\n" +
			"        jc [SLICE] [OPTIONS] COMMAND\n\nOptions:\n    -p,  --pretty         pretty print output\n",
			nil, []string{"pretty|p|boolean|"}, []string{"SLICE", "PARSER"}},
		{"kong's arguments", "Usage: tool [<query>] [flags]\n\nArguments:\n  [<query>]    Query to run.\n\nFlags:\n  -h, --help    Show context-sensitive help.\n",
			nil, nil, []string{"query"}},
		{"click's switch pair and listed values", "Usage: dotenv run [OPTIONS] [COMMANDLINE]...\n\nOptions:\n" +
			"  -q, --quote [always|never|auto]\n                                  Whether to quote or not the variable values.\n" +
			"  --override / --no-override  Override variables from the environment file\n                              with those from the .env file.\n",
			nil, []string{"quote|q|string|always|never|auto", "override||boolean|"}, []string{"COMMANDLINE"}},
		{"flags only in the synopsis, a lower-case operand (he)", "he v1.2.0 - https://mths.be/he\n\nUsage:\n\n\the [--escape] string\n" +
			"\the [--decode] [--attribute] [--strict] string\n\the [-v | --version]\n\the [-h | --help]\n\nExamples:\n\n\the --escape \\<img\\>\n",
			nil, []string{"escape||boolean|", "decode||boolean|", "attribute||boolean|", "strict||boolean|"}, []string{"string"}},
		{"a help indented as a whole (spark)", "\n    USAGE:\n      spark [-h|--help] VALUE,...\n\n    EXAMPLES:\n      spark 1 5 22 13 53\n      ▁▁▃▂█\n",
			nil, nil, []string{"VALUE"}},
		{"Go flags right below a usage line (tomlv)", "Usage: tomlv toml-file [ toml-file ... ]\n  -json\n    \tOutput parsed document as JSON.\n  -time\n    \tShow how long the parsing took.\n",
			nil, []string{"json||boolean|", "time||boolean|"}, []string{"toml-file"}},
		{"prose after the usage's dash (qr)", "Usage: qr - Convert stdin (or the first argument) to a QR Code.\n\nOptions:\n  --factory FACTORY  Full python path to the image factory class.\n",
			nil, []string{"factory||string|FACTORY"}, nil},
		{"brackets with spaces and a bracketed operand (figlet)", "./figlet: invalid option -- '-'\nUsage: figlet [ -cklnoprstvxDELNRSWX ] [ -d fontdirectory ]\n" +
			"              [ -f fontfile ] [ -w outputwidth ] [ message ]\n",
			nil, []string{"|d|string|fontdirectory", "|f|string|fontfile", "|w|string|outputwidth"}, []string{"message"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := parseHelp(tt.text)
			var subs, flags, args []string
			for _, s := range c.Subs {
				subs = append(subs, s.Name)
			}
			for _, f := range c.Flags {
				flags = append(flags, f.Long+"|"+f.Short+"|"+f.Type+"|"+f.Metavar)
			}
			for _, a := range c.Args {
				args = append(args, a.Name)
			}
			if diff := cmp.Diff(tt.wantSubs, subs); diff != "" {
				t.Errorf("parseHelp() subs (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantFlags, flags); diff != "" {
				t.Errorf("parseHelp() flags (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantArgs, args); diff != "" {
				t.Errorf("parseHelp() args (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFlagDefaults(t *testing.T) {
	t.Parallel()
	c := parseHelp(`usage: fmt [-h] [--encoding ENCODING] [-o FILE] [--width N] [--name NAME] [--lang {py,php}] FILE

options:
  --encoding ENCODING   input encoding (defaults to utf-8)
  -o FILE, --outfile FILE
                        write output to FILE (defaults to stdout)
  --width N             column width [default: 80]
  --name NAME           the name (default is 'main')
  -l {py,php}, --lang {py,php}
                        output a snippet in this language
`)
	got := map[string]any{}
	for _, f := range c.Flags {
		got[f.Long] = f.Default
	}
	want := map[string]any{"encoding": "utf-8", "outfile": nil, "width": int64(80), "name": "main", "lang": nil}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parseHelp() flag defaults (-want +got):\n%s", diff)
	}
	if f := c.flag("lang", ""); f == nil || isOutput(f) {
		t.Errorf("--lang {py,php} is taken for an output file: %+v", f)
	}
	if f := c.flag("outfile", ""); f == nil || !isOutput(f) {
		t.Errorf("--outfile FILE is not taken for an output file: %+v", f)
	}
}

func TestProseChoices(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		help string
		want []string
	}{
		{"Increment a version by the specified level. Level can be one of: major, minor, patch, premajor, preminor, prepatch, prerelease, or release. Default level is 'patch'.",
			[]string{"major", "minor", "patch", "premajor", "preminor", "prepatch", "prerelease", "release"}},
		{"output format; choices are json, yaml and toml", []string{"json", "yaml", "toml"}},
		{"sort order, must be either asc or desc", []string{"asc", "desc"}},
		{`one of "rsv", "csv" or "jsonl"`, []string{"rsv", "csv", "jsonl"}},
		{"Valid values: standard, doublestar, gitignore", []string{"standard", "doublestar", "gitignore"}},
		{`Format of output: "go" or "jsonl"`, []string{"go", "jsonl"}},
		{`Path to the config file: "config.yaml" by default`, nil},
		{"use one of the built-in styles or a file of your own", nil},
		{"either a file or a directory", nil},
		{"the column separator", nil},
	} {
		if got := proseChoices(tc.help); !slices.Equal(got, tc.want) {
			t.Errorf("proseChoices(%q) = %q, want %q", tc.help, got, tc.want)
		}
	}
}

// TestUsageArgOptional checks which positional arguments the usage makes
// optional when it shows several forms or lists them kong's way.
func TestUsageArgOptional(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text string
		want       map[string]bool // argument → optional
	}{
		{"every form has it, bracketed", "Usage:\n    age [--encrypt] (-r RECIPIENT | -R PATH)... [INPUT]\n    age --decrypt [-i PATH]... [INPUT]\n",
			map[string]bool{"INPUT": true}},
		{"one form leaves it out", "Usage:\n\n    COMMAND | jc [OPTIONS] PARSER\n\n    jc [SLICE] [OPTIONS] COMMAND\n",
			map[string]bool{"PARSER": true, "SLICE": true}},
		{"a form without arguments says nothing", "usage: tool FILE\n       tool --version\n", map[string]bool{"FILE": false}},
		{"kong", "Usage: tool <name> [<query>]\n\nArguments:\n  <name>       Name.\n  [<query>]    Query to run.\n",
			map[string]bool{"name": false, "query": true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := map[string]bool{}
			for _, a := range parseHelp(tc.text).Args {
				got[a.Name] = a.Optional
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("parseHelp(%q) args optional (-want +got):\n%s", tc.text, diff)
			}
		})
	}
}

// TestHelpFlagForms checks how a flag's form tells what it takes: a value
// that may be left out, a switch's negative form, a boolean value.
func TestHelpFlagForms(t *testing.T) {
	t.Parallel()
	c := parseHelp("Usage: uglifyjs [files...] [options]\n\nOptions:\n" +
		"  -c, --compress [options]                 Enable compressor/specify compressor options.\n" +
		"  -o, --output <file>                      Output file (default STDOUT).\n" +
		"  --color[=WHEN]                           Colorize the output.\n" +
		"  --override / --no-override               Override variables.\n" +
		"  -e, --export BOOLEAN                     Whether to write the dot file as an executable bash script.\n")
	type form struct {
		Type                    string
		OptionalValue, Attached bool
		Negation                string
	}
	got := map[string]form{}
	for _, f := range c.Flags {
		got[f.Long] = form{f.Type, f.OptionalValue, f.Attached, f.Negation}
	}
	want := map[string]form{
		"compress": {"string", true, false, ""},
		"output":   {"string", false, false, ""},
		"color":    {"string", true, true, ""},
		"override": {"boolean", false, false, "no-override"},
		"export":   {"boolean", false, false, ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parseHelp() flag forms (-want +got):\n%s", diff)
	}
}

// TestHelpProseEndsSection checks that a paragraph at the margin after the
// options describes the program (age-keygen), and that example output is
// no example.
func TestHelpProseEndsSection(t *testing.T) {
	t.Parallel()
	c := parseHelp("Usage:\n    age-keygen [-pq] [-o OUTPUT]\n\nOptions:\n" +
		"    -o, --output OUTPUT       Write the result to the file at path OUTPUT.\n\n" +
		"age-keygen generates a new native X25519 key pair, and outputs it to standard output or to\nthe OUTPUT file.\n\n" +
		"Examples:\n\n    $ age-keygen -o key.txt\n    Public key: age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p\n")
	if want := "age-keygen generates a new native X25519 key pair, and outputs it to standard output or to the OUTPUT file."; c.About != want {
		t.Errorf("parseHelp().About = %q, want %q", c.About, want)
	}
	if want := []string{"age-keygen -o key.txt"}; !slices.Equal(c.Examples, want) {
		t.Errorf("parseHelp().Examples = %q, want %q", c.Examples, want)
	}
	if len(c.Flags) != 1 {
		t.Errorf("parseHelp().Flags = %d flags, want 1", len(c.Flags))
	}
}
