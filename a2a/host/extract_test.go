package host

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentnet/agentnet/bundle"
)

func TestExtract(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "orders.csv"), []byte("id,ship_to,unit price\n1,\"Portland, OR\",3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []string{"orders.csv"}
	for _, tc := range []struct {
		name, text string
		p          bundle.Param
		want       string
	}{
		{"column named in the text", "What is the mean unit price of these orders?", bundle.Param{Name: "column", Type: "string"}, "unit price"},
		{"column by underscore name", "Which rows have ship_to Portland?", bundle.Param{Name: "col", Type: "string"}, "ship_to"},
		{"quoted phrase", `Find the entry closest to "magnesium sulphate".`, bundle.Param{Name: "query", Type: "string"}, "magnesium sulphate"},
		{"phrase in typographic quotes", "Find the entry closest to “magnesium sulphate”.", bundle.Param{Name: "query", Type: "string"}, "magnesium sulphate"},
		{"phrase in backquotes", "Find the entry closest to `magnesium sulphate`.", bundle.Param{Name: "query", Type: "string"}, "magnesium sulphate"},
		{"two quoted phrases are ambiguous", `Compare "a" with "b".`, bundle.Param{Name: "query", Type: "string"}, ""},
		{"seconds marks quote nothing", `Go from 40°26'46" N to 79°58'56" W.`, bundle.Param{Name: "query", Type: "string"}, ""},
		{"a phrase after a seconds mark", `At 40°26'46" find "magnesium sulphate".`, bundle.Param{Name: "query", Type: "string"}, "magnesium sulphate"},
		{"a quoted number closes after its digit", `Find "1.2.3" here.`, bundle.Param{Name: "query", Type: "string"}, "1.2.3"},
		{"no column for a non-column parameter", "the unit price", bundle.Param{Name: "query", Type: "string"}, ""},
	} {
		if got := pick(&bundle.Skill{}, tc.p, tc.text, work, files); got != tc.want {
			t.Errorf("%s: pick(%s, %q) = %q, want %q", tc.name, tc.p.Name, tc.text, got, tc.want)
		}
	}
	for _, tc := range []struct {
		text string
		p    bundle.Param
		want int
		ok   bool
	}{
		{"List the three most frequent words.", bundle.Param{Name: "n", Type: "integer"}, 3, true},
		{"Show the top 5 rows.", bundle.Param{Name: "limit", Type: "integer"}, 5, true},
		{"Between 3 and 5 words.", bundle.Param{Name: "n", Type: "integer"}, 0, false},
		{"List the three most frequent words.", bundle.Param{Name: "width", Type: "integer"}, 0, false},
	} {
		got, ok := countIn(tc.text, tc.p)
		if got != tc.want || ok != tc.ok {
			t.Errorf("countIn(%q, %s) = %d, %v; want %d, %v", tc.text, tc.p.Name, got, ok, tc.want, tc.ok)
		}
	}
	sk := &bundle.Skill{Run: []string{"tool", "links", "{{file}}", "--base", "{{base}}", "--mode={{mode}}", "{{text}}"}}
	for name, want := range map[string]bool{"file": true, "base": false, "mode": false, "text": true, "absent": false} {
		if got := positional(sk, name); got != want {
			t.Errorf("positional(%s) = %v, want %v", name, got, want)
		}
	}
}

func TestNamedOutput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text  string
		files []string
		want  string
	}{
		{"Make a thumbnail 64 pixels wide, save it as thumb.png, and tell me its size.", []string{"sunset.png"}, "thumb.png"},
		{"Save the table as a CSV file named compounds.csv, one row per compound.", nil, "compounds.csv"},
		{"Make a copy named deploy.redacted.sh in which every credential is replaced.", []string{"deploy.sh"}, "deploy.redacted.sh"},
		{"Write the result to `out.json`.", nil, "out.json"},
		{"Encode the attached configuration and save it as sensor.msgpack.", []string{"sensor.json"}, "sensor.msgpack"},
		{"Save the points as stops.geojson for the map.", nil, "stops.geojson"},
		{"Compare old.txt to new.txt.", []string{"old.txt", "new.txt"}, ""},
		{"Send the report to example.org.", nil, ""},
		{"Save it as a.csv or as b.csv.", nil, ""},
		{"Save it as ../../etc/passwd.txt", nil, ""},
		{"How many lines does it have?", nil, ""},
	} {
		if got := namedOutput(tc.text, tc.files); got != tc.want {
			t.Errorf("namedOutput(%q, %v) = %q, want %q", tc.text, tc.files, got, tc.want)
		}
	}
}

func TestHeaderMention(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	for name, content := range map[string]string{
		"masses.csv":  "Name,Formula,Shelf,molar_mass\nWater,H2O,A1,18.015\n",
		"q3.csv":      "Q3 2024\n120.5\n98\n",
		"notes.txt":   "Q4 2024\n",
		"regions.tsv": "region\tsales\nnorth\t12\n",
	} {
		if err := os.WriteFile(filepath.Join(work, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		text  string
		files []string
		want  string
	}{
		{"Sort the compounds by molar mass in descending order.", []string{"masses.csv"}, "molar_mass"},
		{"Sort by molar_mass.", []string{"masses.csv"}, "molar_mass"},
		{"Compute the count and mean of the Q3 2024 column.", []string{"q3.csv"}, "Q3 2024"},
		{"Compute the mean of the Q4 2024 column.", []string{"notes.txt"}, ""},
		{"Total sales per region.", []string{"regions.tsv"}, "region"},
		{"Which shelf holds water?", []string{"masses.csv"}, "Shelf"},
	} {
		if got := headerMention(tc.text, work, tc.files); got != tc.want {
			t.Errorf("headerMention(%q, %v) = %q, want %q", tc.text, tc.files, got, tc.want)
		}
	}
}

func TestSafeName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		".env":              ".env",
		"a/b/.bashrc":       ".bashrc",
		"../../etc/passwd":  "passwd",
		"..":                "fallback",
		".":                 "fallback",
		"...":               "fallback",
		`C:\Users\x\r.txt`:  "r.txt",
		"my report (1).pdf": "my_report_1_.pdf",
	} {
		if got := safeName(in, "fallback"); got != want {
			t.Errorf("safeName(%q) = %q, want %q", in, got, want)
		}
	}
}
