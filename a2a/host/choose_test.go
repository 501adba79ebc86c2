package host

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentnet/agentnet/bundle"
)

// TestBindGrade: a file of the type a parameter takes (a .csv, typed
// "text/csv; charset=utf-8" by its name) binds cleanly; one of another
// type does not.
func TestBindGrade(t *testing.T) {
	t.Parallel()
	b, err := bundle.Parse("agent.yaml", []byte(`version: 1
name: rows
description: d
skills:
  - id: batch
    name: batch
    description: Add a total column to a table.
    params:
      type: object
      properties:
        file: {type: string, format: path, x-role: input-file, description: Read a CSV file with a header row.}
      required: [file]
    run: [batch, "{{file}}"]
`))
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	for _, f := range []string{"rows.csv", "photo.png"} {
		if err := os.WriteFile(filepath.Join(work, f), []byte("a,b\n1,2\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	req := &request{text: "Add a total.", instruction: "Add a total."}
	if g := bindGrade(b.Skill("batch"), work, req, []string{"rows.csv"}); g != 2 {
		t.Errorf("bindGrade(rows.csv) = %d, want 2", g)
	}
	if g := bindGrade(b.Skill("batch"), work, req, []string{"photo.png"}); g != 0 {
		t.Errorf("bindGrade(photo.png) = %d, want 0", g)
	}
}

// TestBindFirstUnderstood: of an agent's skills, the one whose query the
// rules write from the instruction's words over the attached table is run,
// though it shares no word with the instruction and another binds cleanly;
// of two that do, the one whose examples load a file of the attached kind
// (its query skill "against a database" takes the CSV its examples load).
func TestBindFirstUnderstood(t *testing.T) {
	t.Parallel()
	b, err := bundle.Parse("agent.yaml", []byte(`version: 1
name: tables
description: d
skills:
  - id: import
    name: import
    description: Import the rows of a sales log into a table.
    params:
      type: object
      properties:
        file: {type: string, format: path, x-role: input-file}
      required: [file]
    run: [tables, import, "{{file}}"]
  - id: query
    name: query
    description: Run an SQL query against a database file.
    params:
      type: object
      properties:
        db: {type: string, format: path, x-role: input-file}
        sql: {type: string, x-role: query}
      required: [db, sql]
    run: [tables, query, "{{db}}", "{{sql}}"]
  - id: memory
    name: memory
    description: Run an SQL query against an in-memory database.
    examples: ['Run tables memory dogs.csv "select * from t"']
    params:
      type: object
      properties:
        paths: {type: array, items: {type: string}, format: path, x-role: input-file}
        sql: {type: string, x-role: query}
      required: [sql]
    run: [tables, memory, "{{paths}}", "{{sql}}"]
`))
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "log.csv"), []byte("shop,amount\na,2\nb,3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	text := "From this sales log, add up the amount of each shop, biggest first."
	req := &request{text: text, instruction: text}
	ch := choice{skill: b.Skill("import"), by: "bm25", next: []*bundle.Skill{b.Skill("query")}}
	got := bindFirst(ch, b.Skills, work, req, []string{"log.csv"})
	if got.skill.ID != "memory" {
		t.Errorf("bindFirst() chose %s (by %s), want memory", got.skill.ID, got.by)
	}
	// JSON records: the skill whose examples say it loads JSON.
	both, err := bundle.Parse("agent.yaml", []byte(`version: 1
name: tables
description: d
skills:
  - id: query
    name: query
    description: Run an SQL query and print its results.
    params:
      type: object
      properties:
        file: {type: string, format: path, x-role: input-file}
        sql: {type: string, x-role: query}
      required: [file, sql]
    run: [tables, query, "{{file}}", "{{sql}}"]
  - id: memory
    name: memory
    description: Run an SQL query over data loaded in memory.
    examples: [It loads CSV or JSON data and runs SQL queries against it.]
    params:
      type: object
      properties:
        paths: {type: array, items: {type: string}, format: path, x-role: input-file}
        sql: {type: string, x-role: query}
      required: [sql]
    run: [tables, memory, "{{paths}}", "{{sql}}"]
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "log.json"), []byte(`[{"shop": "a", "amount": 2}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	chj := choice{skill: both.Skill("query"), by: "bm25", next: []*bundle.Skill{both.Skill("memory")}}
	if got := bindFirst(chj, both.Skills, work, req, []string{"log.json"}); got.skill.ID != "memory" {
		t.Errorf("bindFirst(JSON records) chose %s, want memory, whose examples load JSON", got.skill.ID)
	}
	text = "Import the rows of this sales log."
	req = &request{text: text, instruction: text}
	if got := bindFirst(ch, b.Skills, work, req, []string{"log.csv"}); got.skill.ID != "import" {
		t.Errorf("bindFirst() on an instruction with no aggregate chose %s, want import", got.skill.ID)
	}
}

// TestBindFirstData: a data part's fields say what the skill takes: the
// skill whose parameters they name goes before one BM25 ranked first for
// a word the instruction shares with its description.
func TestBindFirstData(t *testing.T) {
	t.Parallel()
	b, err := bundle.Parse("agent.yaml", []byte(`version: 1
name: geo
description: d
skills:
  - id: point
    name: point
    description: A point with latitude and longitude, parsed from a string.
    params:
      type: object
      properties:
        string: {type: string, x-role: input-text}
      required: [string]
    run: [geo, point, "{{string}}"]
  - id: dest
    name: dest
    description: Destination reached from a start.
    params:
      type: object
      properties:
        point: {type: string, x-role: input-text}
        bearing: {type: string, x-role: input-text}
        distance: {type: string, x-role: setting}
      required: [point, bearing]
    run: [geo, dest, "{{point}}", "{{bearing}}", "{{distance}}"]
`))
	if err != nil {
		t.Fatal(err)
	}
	text := "A boat sails 100 km on a bearing of 45 degrees from this point. What latitude and longitude does it reach?"
	req := &request{text: text, instruction: text, data: map[string]any{"start": []any{69.6, 18.9}, "distance_km": 100.0, "bearing": 45.0}}
	ch := choice{skill: b.Skill("point"), by: "bm25", next: []*bundle.Skill{b.Skill("dest")}}
	got := bindFirst(ch, b.Skills, t.TempDir(), req, nil)
	if got.skill.ID != "dest" {
		t.Errorf("bindFirst() chose %s (by %s), want dest", got.skill.ID, got.by)
	}
	req.data = nil
	if got := bindFirst(ch, b.Skills, t.TempDir(), req, nil); got.skill.ID != "point" {
		t.Errorf("without data, bindFirst() chose %s (by %s), want point", got.skill.ID, got.by)
	}
}

// TestBindFirstTyped: when BM25's first skill does not take the message,
// of the others that do, the one whose file parameter names the attached
// file's media type is run before one that takes any file, whatever
// their order, and though BM25 did not rank it.
func TestBindFirstTyped(t *testing.T) {
	t.Parallel()
	b, err := bundle.Parse("agent.yaml", []byte(`version: 1
name: codec
description: d
skills:
  - id: tag
    name: tag
    description: Make a tag of a code and data.
    params:
      type: object
      properties:
        code: {type: integer}
        data: {type: string, x-role: input-text}
      required: [code, data]
    run: [codec, tag, "{{code}}", "{{data}}"]
  - id: reader
    name: reader
    description: Read every item of a packed file.
    params:
      type: object
      properties:
        file: {type: string, format: path, x-role: input-file}
      required: [file]
    run: [codec, read, "{{file}}"]
  - id: pack
    name: pack
    description: Pack a value.
    params:
      type: object
      properties:
        value: {type: string, format: path, x-role: input-file, x-accepts: [application/json]}
      required: [value]
    run: [codec, pack, "{{value}}"]
`))
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "conf.json"), []byte(`{"a": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	text := "Encode the attached configuration."
	req := &request{text: text, instruction: text}
	ch := choice{skill: b.Skill("tag"), by: "bm25", next: []*bundle.Skill{b.Skill("reader"), b.Skill("pack")}}
	if got := bindFirst(ch, b.Skills, work, req, []string{"conf.json"}); got.skill.ID != "pack" {
		t.Errorf("bindFirst() chose %s (by %s), want pack, whose parameter takes JSON", got.skill.ID, got.by)
	}
	// pack shares no word with the instruction, so BM25 did not rank it.
	ch.next = ch.next[:1]
	if got := bindFirst(ch, b.Skills, work, req, []string{"conf.json"}); got.skill.ID != "pack" {
		t.Errorf("bindFirst() without pack ranked chose %s (by %s), want pack, whose parameter takes JSON", got.skill.ID, got.by)
	}
}
