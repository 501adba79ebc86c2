package static

import (
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
