package tasks

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v4"

	"github.com/agentnet/agentnet/tasks/internal/demoarchive"
)

const demoSuite = "demo/suite.yaml"

func TestDemoSuiteValidates(t *testing.T) {
	t.Parallel()
	s, err := Load(demoSuite)
	if err != nil {
		t.Fatalf("Load(%s):\n%v", demoSuite, err)
	}
	count := map[CaseType]map[Tier]int{}
	skills := 0
	for _, r := range s.Repos {
		skills += len(r.Skills)
		if n := len(r.Skills); n < 2 || n > 4 {
			t.Errorf("repo %s has %d ground-truth skills, want 2–4", r.ID, n)
		}
	}
	for _, c := range s.Cases {
		if count[c.Type] == nil {
			count[c.Type] = map[Tier]int{}
		}
		count[c.Type][c.Tier()]++
	}
	total := func(m map[Tier]int) int { return m[Easy] + m[Medium] + m[Hard] }
	if len(s.Repos) < 8 || skills < 24 || total(count[Single]) < 24 || count[Single][Medium] < 5 ||
		count[Single][Hard] < 3 || total(count[Chain]) < 10 || count[Chain][Easy] == 0 ||
		count[Chain][Medium] == 0 || count[Chain][Hard] == 0 || total(count[Commission]) < 2 {
		t.Errorf("demo suite too small: %d repos, %d skills, tasks %v", len(s.Repos), skills, count)
	}
}

// TestDemoSuiteMatchesSchema validates the demo suite, in its JSON form,
// against the schema generated from the Go types.
func TestDemoSuiteMatchesSchema(t *testing.T) {
	t.Parallel()
	c := jsonschema.NewCompiler()
	var schemaDoc any
	if err := json.Unmarshal(SchemaJSON(), &schemaDoc); err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("suite.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("suite.json")
	if err != nil {
		t.Fatalf("compile suite schema: %v", err)
	}
	for _, file := range []string{demoSuite, "testdata/good/suite.yaml"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		js, _ := json.Marshal(doc)
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s does not match the suite schema: %v", file, err)
		}
	}
	// And the schema is not vacuous: a suite with an unknown key fails it.
	bad, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"version":1,"name":"x","repos":[],"colour":"red"}`))
	if sch.Validate(bad) == nil {
		t.Error("schema accepts an unknown top-level key")
	}
	// The indicators are an enum: a misspelt one fails it.
	badIndicator, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"version":1,"name":"x","repos":[{"id":"r","source":"r","skills":[{"id":"s","description":"d"}]}],
		"tasks":[{"id":"t","type":"single","repo":"r","instruction":"i","expect":[{"contains":"x"}],"indicators":["domain_expertize"]}]}`))
	if sch.Validate(badIndicator) == nil {
		t.Error("schema accepts an unknown indicator")
	}
}

func TestDemoArchiveUpToDate(t *testing.T) {
	t.Parallel()
	want, err := demoarchive.Pack("demo")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, demoZip) {
		t.Fatal("tasks/demo.zip is out of date with tasks/demo: run `go generate ./tasks`")
	}
	dir := t.TempDir()
	suite, err := ExtractDemo(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Load(suite); err != nil {
		t.Fatalf("extracted demo suite does not load: %v", err)
	}
}
