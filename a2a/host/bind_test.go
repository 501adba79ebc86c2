package host

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentnet/agentnet/bundle"
)

// The bundles below are shaped like those generated from real command-line
// tools and libraries: a code counter with a positional list of paths among
// many flags, some of them files (an ignore list, a configuration, an
// output); a semantic-version tool whose commands take version strings;
// number formatting functions whose parameters carry one-letter names.
const bindBundle = `version: 1
name: shapes
description: Skills shaped like real repositories' commands.
skills:
  - id: count
    name: count
    description: Count lines of code in files or directories.
    params:
      type: object
      properties:
        by_file: {type: boolean, description: Display output for every file.}
        config: {type: string, format: path, description: Load this file as the global config source.}
        exclude_dir: {type: array, items: {type: string}, description: Directories to exclude.}
        files: {type: array, format: path, items: {type: string, format: path}}
        format: {type: string, default: tabular, description: Set output format.}
        ignore_file:
          type: array
          format: path
          items: {type: string, format: path}
          description: Path to an additional gitignore-format ignore file, applied from the scan root.
        output: {type: string, format: path, description: "Output filename (default stdout)."}
        workers: {type: integer, default: 8, description: Number of workers.}
    run: [counter, --by-file, "{{by_file}}", --config, "{{config}}", --exclude-dir, "{{exclude_dir}}",
      --format, "{{format}}", --ignore-file, "{{ignore_file}}", --output, "{{output}}", --workers, "{{workers}}", "{{files}}"]
  - id: count-loose
    name: count loose
    description: The same counter where the generator did not mark the positional paths as files.
    params:
      type: object
      properties:
        ignore_file: {type: array, format: path, items: {type: string, format: path}}
        paths: {type: array, items: {type: string}}
    run: [counter, --ignore-file, "{{ignore_file}}", "{{paths}}"]
  - id: sheets
    name: sheets
    description: Convert every sheet of a workbook, a delimiter line between sheets.
    params:
      type: object
      properties:
        file: {type: string, format: path}
        sheetdelimiter: {type: string, default: "--------", description: "Sheet delimiter (default: '--------')."}
        delimiter: {type: string, default: ",", description: Column delimiter.}
      required: [file]
    run: [sheets, --sheetdelimiter, "{{sheetdelimiter}}", --delimiter, "{{delimiter}}", "{{file}}"]
  - id: lint
    name: lint
    description: A skill whose only file parameter is a configuration.
    params:
      type: object
      properties: {config: {type: string, format: path}}
    run: [linter, --config, "{{config}}"]
  - id: convert
    name: convert
    description: Convert a document.
    params:
      type: object
      properties:
        dest: {type: string, format: path, description: The converted file.}
        source: {type: string, format: path, description: The document to convert.}
      required: [source, dest]
    run: [converter, "{{source}}", "{{dest}}"]
  - id: sink
    name: sink
    description: Write a report.
    params:
      type: object
      properties: {report: {type: string, format: path, description: "A file name: the file is written in the task's work directory and returned."}}
    run: [reporter, --report, "{{report}}"]
  - id: dump
    name: dump
    description: A positional input with a file flag that sorts before it.
    params:
      type: object
      properties:
        baseline: {type: string, format: path, description: A previous dump to compare with.}
        file: {type: string, format: path}
    run: [dumper, --baseline, "{{baseline}}", "{{file}}"]
  - id: check
    name: check
    description: Checks if a string is a valid semver version.
    params: {type: object, properties: {version: {type: string, description: Version to check.}}, required: [version]}
    run: [semver, check, "{{version}}"]
  - id: compare
    name: compare
    description: Compare two versions.
    params:
      type: object
      properties: {version1: {type: string, description: First version.}, version2: {type: string, description: Second version.}}
      required: [version1, version2]
    run: [semver, compare, "{{version1}}", "{{version2}}"]
  - id: nextver
    name: nextver
    description: Determines the next version.
    params:
      type: object
      properties:
        part: {type: string, description: "One of 'major', 'minor', 'patch', or 'prerelease'."}
        version: {type: string, description: Version to raise.}
      required: [version, part]
    run: [semver, nextver, "{{version}}", "{{part}}"]
  - id: iban
    name: iban
    description: Validate an account number.
    params:
      type: object
      properties: {number: {type: string, pattern: "^[A-Z]{2}[0-9]{2}( ?[A-Z0-9]{4}){2,7}( ?[A-Z0-9]{1,4})?$"}}
      required: [number]
    run: [iban, check, "{{number}}"]
  - id: fetch
    name: fetch
    description: Fetch a page's title.
    params: {type: object, properties: {url: {type: string}}, required: [url]}
    run: [fetch, "{{url}}"]
  - id: search
    name: search
    description: Search for a term.
    params: {type: object, properties: {query: {type: string}}, required: [query]}
    run: [search, "{{query}}"]
  - id: ordinal
    name: ordinal
    description: Gives you the input number in a rank/ordinal format.
    params: {type: object, properties: {x: {type: integer}, width: {type: integer}}, required: [x]}
    run: [humanize, ordinal, "--x={{x}}", "--width={{width}}"]
  - id: si
    name: si
    description: Returns a string with SI formatting.
    params: {type: object, properties: {input: {type: number}, unit: {type: string}}, required: [input, unit]}
    run: [humanize, si, "--input={{input}}", "--unit={{unit}}"]
  - id: crossover
    name: crossover
    description: Backtest a moving-average crossover.
    params:
      type: object
      properties:
        cash: {type: integer, default: 10000}
        fast: {type: integer}
        slow: {type: integer}
        step: {type: integer, default: 1}
      required: [fast, slow]
    run: [backtest, --cash, "{{cash}}", --fast, "{{fast}}", --slow, "{{slow}}", --step, "{{step}}"]
  - id: slug
    name: slug
    description: Make a URL slug of a text.
    params:
      type: object
      properties:
        input_string: {type: array, items: {type: string}, description: Text to slugify.}
        separator: {type: string, description: Separator between words.}
        stopwords: {type: array, items: {type: string}}
        max_length: {type: integer, default: 0}
    run: [slugify, --separator, "{{separator}}", --stopwords, "{{stopwords}}", --max-length, "{{max_length}}", "{{input_string}}"]
  - id: thumb
    name: thumb
    description: Resize an image.
    params:
      type: object
      properties:
        width: {type: integer}
        height: {type: integer}
        quality: {type: integer, default: 90}
    run: [thumb, --width, "{{width}}", --height, "{{height}}", --quality, "{{quality}}"]
  - id: tables
    name: tables
    description: Print a table of a page as CSV.
    params:
      type: object
      properties:
        index: {type: integer, default: 1, description: "Which table, 1-based (default 1)."}
        sheet: {type: integer}
    run: [tables, --index, "{{index}}", --sheet, "{{sheet}}"]
  - id: sortver
    name: sortver
    description: Print valid versions sorted by precedence.
    params:
      type: object
      properties:
        range: {type: string, description: Print versions that match the specified range.}
        increment: {type: string, enum: [major, minor, patch]}
        version: {type: array, items: {type: string}, minItems: 1}
      required: [version]
    run: [semver, --range, "{{range}}", --increment, "{{increment}}", "{{version}}"]
  - id: humanize
    name: humanize
    description: Converts an integer to a string containing commas every three digits.
    params:
      type: object
      properties:
        value: {type: string, description: Integer or float to convert.}
        ndigits: {type: integer, description: Digits of precision for rounding after the decimal point.}
      required: [value]
    run: [intcomma, --value, "{{value}}", --ndigits, "{{ndigits}}"]
  - id: jp
    name: jp
    description: Evaluate a JMESPath expression on JSON.
    params:
      type: object
      properties:
        expr_file: {type: string, format: path, description: Read JMESPath expression from the specified file.}
        filename: {type: string, format: path, description: Read input JSON from a file instead of stdin.}
        expression: {type: string}
    run: [jp, --expr-file, "{{expr_file}}", --filename, "{{filename}}", "{{expression}}"]
  - id: scanjson
    name: scanjson
    description: Scan a file for secrets.
    params:
      type: object
      properties:
        file: {type: string, format: path}
        json: {type: boolean, description: print JSON}
        csv: {type: boolean, description: print CSV}
      required: [file]
    run: [scan, --json, "{{json}}", --csv, "{{csv}}", "{{file}}"]
  - id: flat
    name: flat
    description: Turn JSON into one assignment per line.
    params:
      type: object
      properties:
        file: {type: string, format: path}
        stream: {type: boolean, description: Treat each line of input as a separate JSON object.}
        reverse: {type: boolean, description: Turn assignments back into JSON.}
        json: {type: boolean, description: Represent the assignments as a JSON stream.}
        values: {type: boolean, description: Print just the values of provided assignments.}
    run: [flat, --stream, "{{stream}}", --reverse, "{{reverse}}", --json, "{{json}}", --values, "{{values}}", "{{file}}"]
  - id: load
    name: load
    description: Insert rows into a database table.
    params:
      type: object
      properties:
        file: {type: string, format: path}
        csv: {type: boolean, description: Expect CSV input.}
        tsv: {type: boolean, description: Expect TSV input.}
    run: [load, --csv, "{{csv}}", --tsv, "{{tsv}}", "{{file}}"]
  - id: encode
    name: encode
    description: Pack object o and return packed bytes.
    params:
      type: object
      properties:
        o: {type: string, x-role: input-text}
        level: {type: string, x-role: setting}
      required: [o]
    run: [encode, --o, "{{o}}", --level, "{{level}}"]
  - id: pages
    name: pages
    description: Extract text from PDF files.
    params:
      type: object
      properties:
        file: {type: string, format: path}
        page_numbers: {type: array, items: {type: integer}, x-role: setting, description: A list of page numbers to parse.}
        maxpages: {type: integer, x-role: setting, description: The maximum number of pages to parse.}
    run: [pages, --page-numbers, "{{page_numbers}}", --maxpages, "{{maxpages}}", "{{file}}"]
`

func TestBind(t *testing.T) {
	t.Parallel()
	b, err := bundle.Parse("agent.yaml", []byte(bindBundle))
	if err != nil {
		t.Fatalf("bundle.Parse() error = %v", err)
	}
	// In want, a string "@name" (alone or in a list) is the path of the
	// attached file name in the work directory.
	tests := []struct {
		name   string
		skill  string
		text   string
		files  []string
		want   map[string]any
		absent []string
	}{
		// Files.
		{"one file to the positional list, not the ignore file", "count", "Count the lines of code in this file.",
			[]string{"main.go"}, map[string]any{"files": []any{"@main.go"}}, []string{"ignore_file", "config", "output"}},
		{"several files to the positional list", "count", "How much code is here?",
			[]string{"a.go", "b.py", "c.js"}, map[string]any{"files": []any{"@a.go", "@b.py", "@c.js"}}, []string{"ignore_file", "config", "output"}},
		{"an ignore file by its name", "count", "Count the code.",
			[]string{"main.go", "sccignore"}, map[string]any{"files": []any{"@main.go"}, "ignore_file": []any{"@sccignore"}}, []string{"config"}},
		{"a config file by its name", "count", "Count the code.",
			[]string{"main.go", "app-config.yaml"}, map[string]any{"files": []any{"@main.go"}, "config": "@app-config.yaml"}, []string{"ignore_file"}},
		{"an ignore file the text names", "count", "Count main.go and use rules.txt as the ignore list.",
			[]string{"main.go", "rules.txt"}, map[string]any{"files": []any{"@main.go"}, "ignore_file": []any{"@rules.txt"}}, []string{"config"}},
		{"the only file goes to the input whatever its name", "count", "Count the lines in this file.",
			[]string{"config.go"}, map[string]any{"files": []any{"@config.go"}}, []string{"config", "ignore_file"}},
		{"positional paths without format path", "count-loose", "Count the lines of code.",
			[]string{"main.go"}, map[string]any{"paths": []any{"@main.go"}}, []string{"ignore_file"}},
		{"a default that would read as an option is left to the tool", "sheets", "Convert every sheet of this workbook.",
			[]string{"book.xlsx"}, map[string]any{"file": "@book.xlsx", "delimiter": ","}, []string{"sheetdelimiter"}},
		{"a side file when nothing else takes files", "lint", "Lint with these settings.",
			[]string{"rules.toml"}, map[string]any{"config": "@rules.toml"}, nil},
		{"never an input into the output", "convert", "Convert this document.",
			[]string{"report.md"}, map[string]any{"source": "@report.md"}, []string{"dest"}},
		{"never into a file the skill writes", "sink", "Summarise this.",
			[]string{"data.csv"}, nil, []string{"report"}},
		{"positional before a flag that sorts first", "dump", "Dump this file.",
			[]string{"now.json"}, map[string]any{"file": "@now.json"}, []string{"baseline"}},
		{"a second file to the next input", "dump", "Compare the dump with the baseline.",
			[]string{"now.json", "then.json"}, map[string]any{"file": "@now.json", "baseline": "@then.json"}, nil},

		// Text.
		{"the one positional list of strings beside optional flags", "slug", "Crème Brûlée & Rock n Roll", nil,
			map[string]any{"input_string": []any{"Crème Brûlée & Rock n Roll"}}, []string{"separator", "stopwords"}},
		{"a quoted phrase into the positional list", "slug", `Make a slug of "Rock & Roll".`, nil,
			map[string]any{"input_string": []any{"Rock & Roll"}}, []string{"separator", "stopwords"}},

		{"the plain file parameter before one holding something else", "jp", "Evaluate `foo.bar[1]` on the attached JSON.",
			[]string{"doc.json"}, map[string]any{"filename": "@doc.json", "expression": "foo.bar[1]"}, []string{"expr_file"}},

		{"a format switch the text asks for", "scanjson", "Scan the attached settings.json and reply with the JSON report only.",
			[]string{"settings.json"}, map[string]any{"json": true, "file": "@settings.json"}, []string{"csv"}},
		{"a format switch stays off when only a file name says it", "scanjson", "Scan the attached settings.json.",
			[]string{"settings.json"}, map[string]any{"file": "@settings.json"}, []string{"json", "csv"}},

		{"a switch whose help the text restates", "flat", "Each line of the attached log is a separate JSON object; flatten them all.",
			[]string{"log.ndjson"}, map[string]any{"file": "@log.ndjson", "stream": true}, []string{"reverse", "json"}},
		{"a switch whose help the text restates, in two sentences", "flat", "The attached file lists assignments. Turn it back into the JSON document.",
			[]string{"flat.txt"}, map[string]any{"file": "@flat.txt", "reverse": true}, []string{"stream"}},
		{"a switch named for many, said in the plural", "flat", "Print only the values of the attached file.",
			[]string{"doc.json"}, map[string]any{"file": "@doc.json", "values": true}, nil},
		{"a switch named for many, said of one", "flat", "Flatten the attached file into one line per value with its full path.",
			[]string{"doc.json"}, map[string]any{"file": "@doc.json"}, []string{"values"}},
		{"one word of a switch's help sets nothing", "flat", "Flatten the attached JSON object.",
			[]string{"doc.json"}, map[string]any{"file": "@doc.json"}, []string{"stream", "reverse", "json"}},
		{"a restated help after a negation sets nothing", "flat", "Flatten the attached file, without treating each line as a separate JSON object.",
			[]string{"doc.json"}, map[string]any{"file": "@doc.json"}, []string{"stream", "reverse", "json"}},
		{"a format switch that reads a format, for a file in it", "load", "Load the attached rows.",
			[]string{"rows.csv"}, map[string]any{"file": "@rows.csv", "csv": true}, []string{"tsv"}},
		{"a format switch that reads a format stays off for another", "load", "Load the attached rows.",
			[]string{"rows.txt"}, map[string]any{"file": "@rows.txt"}, []string{"csv", "tsv"}},

		{"a place named by its ordinal into a list of numbers named for the thing", "pages", "I only need the second page of the attached minutes, as plain text.",
			[]string{"minutes.pdf"}, map[string]any{"file": "@minutes.pdf", "page_numbers": []any{int64(2)}}, []string{"maxpages"}},

		{"an attached text file no parameter takes is the text of a skill that takes text", "encode", "Encode the attached configuration.",
			[]string{"conf.json"}, map[string]any{"o": "x\n"}, []string{"level"}},

		// Tokens of a kind.
		{"the one listed value the text names into an optional setting", "sortver", "Increment 1.2.3 by a minor level.", nil,
			map[string]any{"version": []any{"1.2.3"}, "increment": "minor"}, nil},
		{"a value word before a noun of something else is no value", "sortver", "Put these versions in minor order: 1.10.0 1.2.3.", nil,
			map[string]any{"version": []any{"1.10.0", "1.2.3"}}, []string{"increment"}},
		{"a value word at the end of its clause is the value", "sortver", "Take 1.2.3 up one step, to minor.", nil,
			map[string]any{"version": []any{"1.2.3"}, "increment": "minor"}, nil},
		{"two listed values leave the setting alone", "sortver", "Is 1.2.3 a major or a minor release?", nil,
			map[string]any{"version": []any{"1.2.3"}}, []string{"increment"}},
		{"every version into a required list of versions", "sortver", "Sort these versions: 1.10.0 1.2.3 and 1.9.0-rc.1.", nil,
			map[string]any{"version": []any{"1.10.0", "1.2.3", "1.9.0-rc.1"}}, []string{"range"}},
		{"a version out of a question", "check", "Is 1.2.3-beta a valid version?", nil,
			map[string]any{"version": "1.2.3-beta"}, nil},
		{"a quoted phrase wins", "check", `Is "1.2.3-beta.1" valid? Compare with 1.0.0.`, nil,
			map[string]any{"version": "1.2.3-beta.1"}, nil},
		{"two versions for one parameter keep the text", "check", "Is 1.2.3 newer than 1.2.4?", nil,
			map[string]any{"version": "Is 1.2.3 newer than 1.2.4?"}, nil},
		{"versions in order to two version parameters", "compare", "Which is greater, 1.10.0 or 1.9.3?", nil,
			map[string]any{"version1": "1.10.0", "version2": "1.9.3"}, nil},
		{"versions quoted and not, in order", "compare", `Compare "2.0.0" with 10.0.0.`, nil,
			map[string]any{"version1": "2.0.0", "version2": "10.0.0"}, nil},
		{"a version and one of the listed choices", "nextver", "What comes after 2.0.0-rc.1 in a minor release?", nil,
			map[string]any{"version": "2.0.0-rc.1", "part": "minor"}, nil},
		{"a match of the declared pattern", "iban", "Is GB82WEST12345698765432 valid, and which bank is it?", nil,
			map[string]any{"number": "GB82WEST12345698765432"}, nil},
		{"a pattern match with spaces", "iban", "Is GB82 WEST 1234 5698 7654 32 a valid IBAN?", nil,
			map[string]any{"number": "GB82 WEST 1234 5698 7654 32"}, nil},
		{"a URL", "fetch", "What is the title of https://example.org/a/b?c=1.", nil,
			map[string]any{"url": "https://example.org/a/b?c=1"}, nil},
		{"a query is never the whole instruction", "search", "Find 1.2.3 in the catalogue", nil,
			map[string]any{}, []string{"query"}},
		{"a query takes the phrase quoted", "search", `Find "1.2.3" in the catalogue`, nil,
			map[string]any{"query": "1.2.3"}, nil},

		{"a string said to hold a number takes the number", "humanize", "Write 1234567 with commas.", nil,
			map[string]any{"value": "1234567"}, nil},
		{"a string said to hold a number keeps the text without one", "humanize", "Write a million with commas.", nil,
			map[string]any{"value": "Write a million with commas."}, nil},

		// Numbers.
		{"a bare number", "ordinal", "193", nil, map[string]any{"x": int64(193)}, nil},
		{"the number in a question", "ordinal", "What is the ordinal of 193?", nil, map[string]any{"x": int64(193)}, nil},
		{"a number written as a word", "ordinal", "What is the ordinal of twelve?", nil, map[string]any{"x": int64(12)}, nil},
		{"a number another parameter names goes to it", "ordinal", "Give the ordinal of 193 with width 8.", nil,
			map[string]any{"x": int64(193), "width": int64(8)}, nil},
		{"an optional number by the adjective of its measure", "thumb", "Make it 64 pixels wide, keeping its proportions.", nil,
			map[string]any{"width": int64(64)}, []string{"height"}},
		{"the second table to the index whose description names tables", "tables", "Extract the waypoints table (the second table on the page) as CSV.", nil,
			map[string]any{"index": int64(2)}, nil},
		{"the 3rd sheet to a parameter named for sheets", "tables", "Convert the 3rd sheet.", nil,
			map[string]any{"sheet": int64(3)}, nil},
		{"a second of time is no position", "tables", "Wait a second, then convert the table.", nil,
			map[string]any{"index": 1}, []string{"sheet"}},
		{"optional numbers nobody names stay unset", "thumb", "Make a thumbnail of 2 photos.", nil,
			nil, []string{"width", "height"}},
		{"two numbers are ambiguous", "ordinal", "What are the ordinals of 3 and 5?", nil, nil, []string{"x"}},
		{"an integer parameter refuses a fraction", "ordinal", "What is the ordinal of 2.5?", nil, nil, []string{"x"}},
		{"a number parameter with thousands separators", "si", "Format 2,200,000 in the unit B.", nil,
			map[string]any{"input": 2200000.0}, nil},
		{"numbers next to the parameters' names", "crossover", "Backtest with slow 20 and fast 5, starting with cash 25000.", nil,
			map[string]any{"fast": int64(5), "slow": int64(20)}, nil},
		{"a name's number and the one left", "crossover", "Backtest with fast=5 against 30.", nil,
			map[string]any{"fast": int64(5), "slow": int64(30)}, nil},
		{"no names and two numbers leave both unset", "crossover", "Backtest a 5 and 20 day crossover.", nil,
			nil, []string{"fast", "slow"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sk := b.Skill(tc.skill)
			if sk == nil {
				t.Fatalf("no skill %q", tc.skill)
			}
			work := t.TempDir()
			for _, f := range tc.files {
				if err := os.WriteFile(filepath.Join(work, f), []byte("x\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			args, err := bind(sk, work, &request{text: tc.text}, tc.files, nil)
			if err != nil {
				t.Fatalf("bind() error = %v", err)
			}
			got, want := map[string]any{}, map[string]any{}
			for k, w := range tc.want {
				got[k], want[k] = args[k], inWork(work, w)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("bind(%s, %q, %v) mismatch (-want +got):\n%s", tc.skill, tc.text, tc.files, diff)
			}
			for _, k := range tc.absent {
				if v, ok := args[k]; ok {
					t.Errorf("bind(%s, %q, %v)[%s] = %v, want unset", tc.skill, tc.text, tc.files, k, v)
				}
			}
		})
	}
}

// inWork replaces "@name" by the path of name in the work directory.
func inWork(work string, v any) any {
	switch t := v.(type) {
	case string:
		if name, ok := strings.CutPrefix(t, "@"); ok {
			return filepath.Join(work, name)
		}
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = inWork(work, x)
		}
		return out
	}
	return v
}

func TestKindTokens(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		prop map[string]any
		text string
		want []string
	}{
		{"date_format", map[string]any{"type": "string"}, "Format 2024-06-24 as %d/%m.", nil},
		{"target", map[string]any{"type": "string", "description": "Date format string."}, "Format 2024-06-24 as %d/%m.", nil},
		{"base_url", map[string]any{"type": "string"}, "Resolve the links against https://a.example/docs/.", []string{"https://a.example/docs/"}},
		{"v", map[string]any{"type": "string", "description": "The version to install."}, "Install 2.31.0 and 2.31.1 now.", []string{"2.31.0", "2.31.1"}},
		{"version2", map[string]any{"type": "string"}, "Is v1.0 older?", []string{"v1.0"}},
		{"when", map[string]any{"type": "string", "format": "date"}, "It is due on 2024-06-24.", []string{"2024-06-24"}},
		{"contact", map[string]any{"type": "string", "format": "email"}, "Mail bob@example.org, please.", []string{"bob@example.org"}},
		{"mode", map[string]any{"type": "string", "enum": []any{"fast", "slow"}}, "Run it in FAST mode.", []string{"fast"}},
		{"part", map[string]any{"type": "string", "description": `Change case, CHOICE is one of "upper", "lower", "capitalize".`}, "Make the keywords upper case.", []string{"upper"}},
		{"code", map[string]any{"type": "string", "pattern": "^[A-Z]{3}$"}, "Convert 12 EUR to USD.", []string{"EUR", "USD"}},
		{"code", map[string]any{"type": "string", "pattern": "^(?=[A-Z])[A-Z]{3}$"}, "Convert 12 EUR.", nil}, // not RE2: no kind
		{"query", map[string]any{"type": "string"}, "Find https://a.example/ and 1.2.3.", nil},
	} {
		sk := &bundle.Skill{Params: map[string]any{"type": "object", "properties": map[string]any{tc.name: tc.prop}}}
		p := sk.ParamList()[0]
		if got := kindTokens(sk, p, tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("kindTokens(%s %v, %q) = %q, want %q", tc.name, tc.prop, tc.text, got, tc.want)
		}
	}
}

// A data part's fields bind by name, in another inflection too, and a
// list the names do not place goes to the skill's one list of values —
// never the instruction's words into it.
func TestBindData(t *testing.T) {
	t.Parallel()
	b, err := bundle.Parse("agent.yaml", []byte(`version: 1
name: chart
description: d
skills:
  - id: bars
    name: bars
    description: Draw a bar chart of numbers.
    params:
      type: object
      properties:
        value: {type: array, items: {type: string}, minItems: 1}
        title_text: {type: string, description: A title.}
      required: [value]
    run: [bars, --title, "{{title_text}}", "{{value}}"]
`))
	if err != nil {
		t.Fatal(err)
	}
	sk := b.Skill("bars")
	for _, tc := range []struct {
		name string
		data map[string]any
		want map[string]any
	}{
		{"a plural field names the parameter", map[string]any{"values": []any{3.0, 7.0}, "title_texts": "x"},
			map[string]any{"value": []any{"3", "7"}, "title_text": "x"}},
		{"the one list left goes to the one list parameter", map[string]any{"counts": []any{1.0, 2.5}},
			map[string]any{"value": []any{"1", "2.5"}}},
		{"a number for a string is its text", map[string]any{"value": []any{"a"}, "title_text": 2024.0},
			map[string]any{"value": []any{"a"}, "title_text": "2024"}},
		{"the exact name", map[string]any{"value": []any{"a"}, "title_text": "t"},
			map[string]any{"value": []any{"a"}, "title_text": "t"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args, err := bind(sk, t.TempDir(), &request{text: "Draw a chart of this week's counts.", instruction: "Draw a chart of this week's counts.", data: tc.data}, nil, nil)
			if err != nil {
				t.Fatalf("bind() error = %v", err)
			}
			got := map[string]any{}
			for k := range tc.want {
				got[k] = args[k]
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// A data field binds by meaning, not only by its exact name: a unit or
// other qualifier after the parameter's words, a synonym, and the one
// field left for the one required parameter left; a list for a string
// parameter is its items comma separated.
func TestBindDataByMeaning(t *testing.T) {
	t.Parallel()
	b, err := bundle.Parse("agent.yaml", []byte(`version: 1
name: geo
description: d
skills:
  - id: dest
    name: dest
    description: Where a walk ends.
    params:
      type: object
      properties:
        point: {type: string, x-role: input-text}
        bearing: {type: string, x-role: input-text}
        distance: {type: string, x-role: setting}
        origin: {type: string, x-role: setting}
        args: {type: array, x-role: setting}
      required: [point, bearing]
    run: [dest, "{{point}}", "{{bearing}}", --distance, "{{distance}}", --origin, "{{origin}}", "--args={{args}}"]
`))
	if err != nil {
		t.Fatal(err)
	}
	sk := b.Skill("dest")
	for _, tc := range []struct {
		name string
		data map[string]any
		want map[string]any
	}{
		{"a unit after the name, the one field left", map[string]any{"where": []any{69.5, 18.9}, "distance_km": 100.0, "bearing": 45.0},
			map[string]any{"point": "69.5,18.9", "distance": "100", "bearing": "45", "origin": nil, "args": nil}},
		{"a synonym", map[string]any{"point": "1,2", "bearing": 3.0, "start": "home"},
			map[string]any{"point": "1,2", "bearing": "3", "origin": "home"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args, err := bind(sk, t.TempDir(), &request{text: "Where do I end up?", instruction: "Where do I end up?", data: tc.data}, nil, nil)
			if err != nil {
				t.Fatalf("bind() error = %v", err)
			}
			got := map[string]any{}
			for k := range tc.want {
				got[k] = args[k]
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// Fields no parameter is named for give a function's one required list of
// arguments every value, in the order the instruction mentions them.
func TestBindDataArguments(t *testing.T) {
	t.Parallel()
	b, err := bundle.Parse("agent.yaml", []byte(`version: 1
name: geo
description: d
skills:
  - id: distance
    name: distance
    description: Calculate the distance between points.
    params:
      type: object
      properties:
        args: {type: array, x-role: setting}
        unit: {type: string, x-role: setting}
      required: [args]
    run: [distance, "--args={{args}}", --unit, "{{unit}}"]
`))
	if err != nil {
		t.Fatal(err)
	}
	text := "How far is it from Oslo (59.9, 10.7) to Bergen (60.4, 5.3)?"
	data := map[string]any{"to": []any{60.4, 5.3}, "from": []any{59.9, 10.7}, "unit": "km"}
	args, err := bind(b.Skill("distance"), t.TempDir(), &request{text: text, instruction: text, data: data}, nil, nil)
	if err != nil {
		t.Fatalf("bind() error = %v", err)
	}
	want := map[string]any{"args": []any{[]any{59.9, 10.7}, []any{60.4, 5.3}}, "unit": "km"}
	if diff := cmp.Diff(want, args); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	data = map[string]any{"to": []any{60.4, 5.3}, "from": []any{59.9, 10.7}}
	text = "How far is it between these two points, to and from?"
	args, err = bind(b.Skill("distance"), t.TempDir(), &request{text: text, instruction: text, data: data}, nil, nil)
	if err != nil {
		t.Fatalf("bind() error = %v", err)
	}
	if diff := cmp.Diff([]any{[]any{60.4, 5.3}, []any{59.9, 10.7}}, args["args"]); diff != "" {
		t.Errorf("mention order: mismatch (-want +got):\n%s", diff)
	}
	text = "How many miles is it from Sydney (-33.87, 151.21) to Auckland (-36.85, 174.76)?"
	args, err = bind(b.Skill("distance"), t.TempDir(), &request{text: text, instruction: text}, nil, nil)
	if err != nil {
		t.Fatalf("bind() error = %v", err)
	}
	if diff := cmp.Diff([]any{[]any{-33.87, 151.21}, []any{-36.85, 174.76}}, args["args"]); diff != "" {
		t.Errorf("tuples in the text: mismatch (-want +got):\n%s", diff)
	}
}

// "A table named sales" names the table; a file parameter or a number is
// never set this way, and two names leave the parameter alone.
func TestBindCalled(t *testing.T) {
	t.Parallel()
	b, err := bundle.Parse("agent.yaml", []byte(`version: 1
name: db
description: d
skills:
  - id: load
    name: load
    description: Load rows from a file into a table.
    params:
      type: object
      properties:
        rows: {type: string, format: path}
        table: {type: string, x-role: selector}
        batch_size: {type: integer}
      required: [rows, table]
    run: [load, --batch-size, "{{batch_size}}", "{{rows}}", "{{table}}"]
`))
	if err != nil {
		t.Fatal(err)
	}
	sk := b.Skill("load")
	for _, tc := range []struct {
		text string
		want any
	}{
		{"Load the attached rows.csv as a table named sales.", "sales"},
		{"Put it into a new table called Boat_Trips, please.", "Boat_Trips"},
		{"Load it into a table named sales or a table named orders.", nil},
		{"Load the attached rows.csv.", nil},
	} {
		work := t.TempDir()
		if err := os.WriteFile(filepath.Join(work, "rows.csv"), []byte("a\n1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		args, _ := bind(sk, work, &request{text: tc.text, instruction: tc.text}, []string{"rows.csv"}, nil)
		if got := args["table"]; got != tc.want && !(tc.want == nil && got == nil) {
			t.Errorf("%q: table = %v, want %v", tc.text, got, tc.want)
		}
		if _, ok := args["batch_size"]; ok {
			t.Errorf("%q: batch_size set", tc.text)
		}
	}
}

// A toolkit's command whose one column option has a default: the
// attached table's column that the instruction names goes to it, and a
// table column nobody names leaves the default.
const columnsBundle = `version: 1
name: tabkit
description: Tables.
skills:
  - id: freq
    name: freq
    description: Frequencies of selected fields.
    stdin: "{{input}}"
    params:
      type: object
      properties:
        input: {type: string, format: path}
        fields: {type: string, default: "1", description: "Select these fields as the key. e.g -f 1,2 or -f columnA,columnB."}
        delimiter: {type: string, default: ",", description: Delimiting character.}
    run: [tabkit, freq, --fields, "{{fields}}", --delimiter, "{{delimiter}}"]
  - id: join
    name: join
    description: Join two tables by a key.
    params:
      type: object
      properties:
        files: {type: array, items: {type: string, format: path}, format: path}
        fields: {type: string, description: Key fields of the first file.}
        right_fields: {type: string, description: Key fields of the second file.}
    run: [tabkit, join, --fields, "{{fields}}", --right-fields, "{{right_fields}}", "{{files}}"]
`

func TestBindColumns(t *testing.T) {
	t.Parallel()
	b, err := bundle.Parse("agent.yaml", []byte(columnsBundle))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		skill, text string
		want        any
	}{
		{"freq", "Show the frequency of each city in this CSV.", "city"},
		{"freq", "Count how often each home town appears.", "home_town"},
		{"freq", "Show the frequencies in this table.", "1"},
		{"join", "Join these tables on city.", nil},
	} {
		work := t.TempDir()
		csv := "name,city,home_town\nada,Oslo,Bergen\n"
		if err := os.WriteFile(filepath.Join(work, "people.csv"), []byte(csv), 0o644); err != nil {
			t.Fatal(err)
		}
		args, err := bind(b.Skill(tc.skill), work, &request{text: tc.text}, []string{"people.csv"}, nil)
		if err != nil {
			t.Fatalf("%s: bind() error = %v", tc.text, err)
		}
		if got := args["fields"]; got != tc.want {
			t.Errorf("%s: fields = %v, want %v", tc.text, got, tc.want)
		}
	}
}
