// Command fuzzymatch does fuzzy string matching from the command line:
// Levenshtein edit distance and similarity ratio of two strings, the
// closest lines of a file to a query, and clustering of near-duplicate
// lines (typos, spacing and case variants).
//
// Usage:
//
//	fuzzymatch distance [flags] A B
//	fuzzymatch best [flags] QUERY FILE
//	fuzzymatch dedupe [flags] FILE
//
// Run "fuzzymatch <command> --help" for the flags of each command.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"
)

const (
	progName = "fuzzymatch"
	version  = "1.0.0"
	tagline  = "fuzzy string matching: edit distance, closest matches, near-duplicates"
)

var commands = []*command{distanceCmd, bestCmd, dedupeCmd}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

var distanceCmd = &command{
	name:     "distance",
	synopsis: "A B",
	summary:  "Levenshtein edit distance and similarity ratio of two strings",
	about: `
Print the Levenshtein distance between two strings (the least number of
single-character insertions, deletions and substitutions that turn A into B)
and their similarity ratio, 1 - distance / length of the longer string,
a number from 0 (nothing in common) to 1 (identical). Characters are Unicode
code points. The comparison is exact unless --ignore-case is given.`,
	args: `
A  the first string (quote it if it contains spaces)
B  the second string`,
	examples: `
fuzzymatch distance kitten sitting
fuzzymatch distance --ops "Jon Smith" "John Smyth"
fuzzymatch distance -i --json "ACME Corp" "Acme Corp."`,
	minArgs: 2, maxArgs: 2,
	setup: func(fs *flag.FlagSet) func([]string, io.Writer) error {
		var ignoreCase, ops, asJSON bool
		fs.BoolVar(&ignoreCase, "i", false, "compare case-insensitively")
		fs.BoolVar(&ignoreCase, "ignore-case", false, "compare case-insensitively")
		fs.BoolVar(&ops, "ops", false, "also list the edit operations that turn A into B")
		fs.BoolVar(&asJSON, "json", false, "print a JSON object instead of text")
		return func(args []string, w io.Writer) error {
			a, b := args[0], args[1]
			if ignoreCase {
				a, b = strings.ToLower(a), strings.ToLower(b)
			}
			d, r := Distance(a, b), Ratio(a, b)
			var script []Op
			if ops {
				for _, op := range EditScript(a, b) {
					if op.Kind != "keep" {
						script = append(script, op)
					}
				}
			}
			if asJSON {
				type jsonOp struct {
					Op   string `json:"op"`
					Pos  int    `json:"pos"`
					From string `json:"from,omitempty"`
					To   string `json:"to,omitempty"`
				}
				out := struct {
					A        string   `json:"a"`
					B        string   `json:"b"`
					Distance int      `json:"distance"`
					Ratio    float64  `json:"ratio"`
					Ops      []jsonOp `json:"ops,omitempty"`
				}{A: args[0], B: args[1], Distance: d, Ratio: round4(r)}
				for _, op := range script {
					j := jsonOp{Op: op.Kind, Pos: op.PosA}
					if op.Kind == "ins" {
						j.Pos = op.PosB
					}
					if op.From != 0 {
						j.From = string(op.From)
					}
					if op.To != 0 {
						j.To = string(op.To)
					}
					out.Ops = append(out.Ops, j)
				}
				return writeJSON(w, out)
			}
			fmt.Fprintf(w, "distance: %d\nratio: %.4f\n", d, r)
			if ops {
				fmt.Fprintln(w, "operations:")
				if len(script) == 0 {
					fmt.Fprintln(w, "  none (the strings are equal)")
				}
				for _, op := range script {
					switch op.Kind {
					case "sub":
						fmt.Fprintf(w, "  substitute %q -> %q at %d\n", op.From, op.To, op.PosA)
					case "del":
						fmt.Fprintf(w, "  delete %q at %d\n", op.From, op.PosA)
					case "ins":
						fmt.Fprintf(w, "  insert %q at %d\n", op.To, op.PosB)
					}
				}
			}
			return nil
		}
	},
}

var bestCmd = &command{
	name:     "best",
	synopsis: "QUERY FILE",
	summary:  "closest lines of a file to a query string, with scores",
	about: `
Score every non-blank line of FILE against QUERY and print the closest ones,
best first, as "SCORE<TAB>LINE". The score is the similarity ratio
(1 - Levenshtein distance / length of the longer string). Before comparing,
white space is collapsed and case is ignored; --exact compares the raw
text. With --column, FILE is read as CSV with a header row and the values
of that column are matched instead of whole lines.`,
	args: `
QUERY  the string to look up, e.g. a misspelt name
FILE   a text file with one candidate per line, or a CSV file (see --column)`,
	examples: `
fuzzymatch best "Sna Fransisco" cities.txt
fuzzymatch best -n 5 --min 0.6 "jonh smith" customers.txt
fuzzymatch best --column name --row "wireles headphons" catalog.csv`,
	minArgs: 2, maxArgs: 2,
	setup: func(fs *flag.FlagSet) func([]string, io.Writer) error {
		var n int
		var minScore float64
		var column string
		var exact, row, asJSON bool
		fs.IntVar(&n, "n", 3, "print the `N` best matches (0 for all)")
		fs.IntVar(&n, "top", 3, "print the `N` best matches (0 for all)")
		fs.Float64Var(&minScore, "min", 0, "only print matches scoring at least `SCORE` (0..1)")
		fs.StringVar(&column, "column", "", "read FILE as CSV and match the values of column `NAME` (header name or 1-based index)")
		fs.BoolVar(&exact, "exact", false, "compare the raw text (keep case and spacing)")
		fs.BoolVar(&row, "row", false, "with --column, print the whole CSV row of each match")
		fs.BoolVar(&asJSON, "json", false, "print a JSON array of {text, line, distance, score}")
		return func(args []string, w io.Writer) error {
			if n < 0 {
				return usagef("-n must be 0 or more")
			}
			if minScore < 0 || minScore > 1 {
				return usagef("--min must be between 0 and 1")
			}
			cands, err := LoadCandidates(args[1], column, !exact, !exact)
			if err != nil {
				return fmt.Errorf("%s: %v", args[1], err)
			}
			query := args[0]
			if !exact {
				query = Normalize(query, true)
			}
			matches := Best(query, cands, n, minScore)
			show := func(m Match) string {
				if row {
					return m.Row
				}
				return m.Text
			}
			if asJSON {
				type jsonMatch struct {
					Text     string  `json:"text"`
					Line     int     `json:"line"`
					Distance int     `json:"distance"`
					Score    float64 `json:"score"`
				}
				out := []jsonMatch{}
				for _, m := range matches {
					out = append(out, jsonMatch{Text: show(m), Line: m.Line, Distance: m.Distance, Score: round4(m.Score)})
				}
				return writeJSON(w, out)
			}
			if len(matches) == 0 {
				fmt.Fprintln(w, "no matches")
			}
			for _, m := range matches {
				fmt.Fprintf(w, "%.4f\t%s\n", m.Score, show(m))
			}
			return nil
		}
	},
}

var dedupeCmd = &command{
	name:     "dedupe",
	synopsis: "FILE",
	summary:  "cluster near-duplicate lines and print one representative per cluster",
	about: `
Group the non-blank lines of FILE that are near-duplicates of each other
(typos, spacing, case) and print one line per group, in order of first
appearance, as "SIZE<TAB>REPRESENTATIVE". Two lines belong together when
their similarity ratio (1 - Levenshtein distance / longer length) is at
least the threshold, after collapsing white space and ignoring case (unless
--exact); grouping is transitive. The representative is the most frequent
spelling in the group (the earliest one on a tie); SIZE counts all lines in
the group, exact repeats included.`,
	args: `
FILE  a text file with one entry per line, or a CSV file (see --column)`,
	examples: `
fuzzymatch dedupe names.txt
fuzzymatch dedupe --threshold 0.8 --members companies.txt
fuzzymatch dedupe --summary names.txt
fuzzymatch dedupe --plain names.txt > unique.txt
fuzzymatch dedupe --column customer --sort size orders.csv`,
	minArgs: 1, maxArgs: 1,
	setup: func(fs *flag.FlagSet) func([]string, io.Writer) error {
		var threshold float64
		var column, order string
		var exact, plain, members, summary, asJSON bool
		fs.Float64Var(&threshold, "threshold", 0.85, "least similarity `RATIO` (0..1] for two lines to be duplicates")
		fs.Float64Var(&threshold, "t", 0.85, "least similarity `RATIO` (0..1] for two lines to be duplicates")
		fs.StringVar(&column, "column", "", "read FILE as CSV and dedupe the values of column `NAME` (header name or 1-based index)")
		fs.BoolVar(&exact, "exact", false, "compare the raw text (keep case and spacing)")
		fs.BoolVar(&plain, "plain", false, "print only the representatives, one per line")
		fs.BoolVar(&members, "members", false, "list every spelling of each group under it")
		fs.BoolVar(&summary, "summary", false, "end with a line \"N entries in M clusters\"")
		fs.StringVar(&order, "sort", "first", "order of the groups, `ORDER` is first (first appearance) or size (largest first)")
		fs.BoolVar(&asJSON, "json", false, "print a JSON array of {representative, size, variants}")
		return func(args []string, w io.Writer) error {
			if threshold <= 0 || threshold > 1 {
				return usagef("--threshold must be in (0, 1]")
			}
			if order != "first" && order != "size" {
				return usagef("--sort must be first or size")
			}
			cands, err := LoadCandidates(args[0], column, !exact, !exact)
			if err != nil {
				return fmt.Errorf("%s: %v", args[0], err)
			}
			clusters := Dedupe(cands, threshold)
			if order == "size" {
				sortBySize(clusters)
			}
			if asJSON {
				if clusters == nil {
					clusters = []Cluster{}
				}
				return writeJSON(w, clusters)
			}
			for _, c := range clusters {
				if plain {
					fmt.Fprintln(w, c.Representative)
				} else {
					fmt.Fprintf(w, "%d\t%s\n", c.Size, c.Representative)
				}
				if members {
					for _, v := range c.Variants {
						fmt.Fprintf(w, "\t  %s (%d)\n", v.Text, v.Count)
					}
				}
			}
			if summary {
				fmt.Fprintf(w, "%d entries in %d clusters\n", len(cands), len(clusters))
			}
			return nil
		}
	},
}

// sortBySize orders clusters largest first, keeping the order of first
// appearance among clusters of equal size.
func sortBySize(cs []Cluster) {
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].Size > cs[j].Size })
}
