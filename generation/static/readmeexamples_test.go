package static

import (
	"slices"
	"testing"
)

const examplesReadme = "# tabkit\n\nTools for tables.\n\n" +
	"## Loading\n\nTo load a CSV file into a table of a database, run:\n\n```bash\n$ tabkit load shop.db sales sales.csv --csv\n```\n\n" +
	"Options can come first.\n\n```\ntabkit --quiet load shop.db t data.json\n```\n\n" +
	"## Querying\n\nYou can total and sort a CSV file with SQL; the result comes back as JSON:\n\n" +
	"```\ntabkit query data.csv \"select region, sum(total) from data group by region\"\n[{\"region\": \"north\"}]\n```\n" +
	"\nIt reads standard input as a table named stdin:\n\n    $ cat dogs.csv | tabkit query - \"select name from stdin\"\n    [{\"name\": \"Cleo\"}]\n\nThat is all.\n"

// README runs of a subcommand become its examples, each after the
// sentence that leads into its block; other subcommands' runs do not,
// nor do output lines, and the root of a tool with subcommands takes no
// subcommand's run.
func TestReadmeExamples(t *testing.T) {
	subs := []string{"load", "query"}
	got := readmeExamples(examplesReadme, "tabkit", []string{"load"}, subs)
	want := []string{
		"To load a CSV file into a table of a database, run.",
		"Run `tabkit load shop.db sales sales.csv --csv`",
		"Run `tabkit --quiet load shop.db t data.json`",
	}
	if !slices.Equal(got, want) {
		t.Errorf("load: %q, want %q", got, want)
	}
	got = readmeExamples(examplesReadme, "tabkit", []string{"query"}, subs)
	want = []string{
		"You can total and sort a CSV file with SQL; the result comes back as JSON.",
		"Run `tabkit query data.csv \"select region, sum(total) from data group by region\"`",
		"It reads standard input as a table named stdin.",
		"Run `cat dogs.csv | tabkit query - \"select name from stdin\"`",
	}
	if !slices.Equal(got, want) {
		t.Errorf("query: %q, want %q", got, want)
	}
	if got := readmeExamples(examplesReadme, "tabkit", nil, subs); len(got) != 0 {
		t.Errorf("root: %q, want none", got)
	}
}
