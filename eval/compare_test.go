package eval

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/tasks"
)

// writeRun writes a run directory holding results r and, when cfg is not
// nil, its config.json.
func writeRun(t *testing.T, r *Results, cfg *RunConfig) string {
	t.Helper()
	dir := t.TempDir()
	if err := writeJSONFile(filepath.Join(dir, "results.json"), r); err != nil {
		t.Fatal(err)
	}
	if cfg != nil {
		if err := writeJSONFile(filepath.Join(dir, "config.json"), cfg); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// compareResults is a run of two repos and single and chain tasks, passing
// the first pass of each kind.
func compareResults(singlePass, chainPass int) *Results {
	r := &Results{Version: ResultsVersion, Suite: "s"}
	for _, id := range []string{"a", "b"} {
		r.Repos = append(r.Repos, RepoResult{ID: id, Generated: true, Attempts: []AttemptResult{{N: 1, OK: true}},
			Skills: []SkillText{{ID: "x"}, {ID: "y"}},
			Match:  &SkillMatch{Supported: []string{"g1", ""}, Covered: map[string]string{"g1": "x"}}})
	}
	for i := 0; i < 10; i++ {
		r.Tasks = append(r.Tasks, TaskResult{ID: "single-" + string(rune('a'+i)), Type: tasks.Single, Tier: tasks.Easy, Repo: "a",
			Pass: i < singlePass, Status: map[bool]string{true: StatusPassed, false: StatusFailed}[i < singlePass]})
	}
	for i := 0; i < 4; i++ {
		ok := i < chainPass
		r.Tasks = append(r.Tasks, TaskResult{ID: "chain-" + string(rune('a'+i)), Type: tasks.Chain, Tier: tasks.Medium,
			Pass: ok, OrchOK: &ok, Status: map[bool]string{true: StatusPassed, false: StatusFailed}[ok]})
	}
	Summarize(r, 1)
	return r
}

func TestCompare(t *testing.T) {
	t.Parallel()
	a := writeRun(t, compareResults(5, 1), &RunConfig{Generator: "static", Router: "bm25", Judge: "rules"})
	b := writeRun(t, compareResults(8, 3), &RunConfig{Generator: "llm", Router: "llm", Judge: "llm", Model: "m1"})
	c := writeRun(t, compareResults(0, 0), nil)
	var runs []*Run
	for _, dir := range []string{a, b, c} {
		r, err := LoadRun(dir)
		if err != nil {
			t.Fatalf("LoadRun(%s) error = %v", dir, err)
		}
		runs = append(runs, r)
	}
	if got, want := runs[1].Label(), "llm × llm × llm (m1)"; got != want {
		t.Errorf("Label() = %q, want %q", got, want)
	}
	if got, want := runs[2].Label(), filepath.Base(c); got != want {
		t.Errorf("Label() of a run without config.json = %q, want its directory %q", got, want)
	}
	cmp := Compare(runs...)
	if len(cmp.Tables) != 4 {
		t.Fatalf("Compare() has %d tables, want the paper's 4", len(cmp.Tables))
	}
	find := func(metric string) Row {
		for _, tb := range cmp.Tables {
			for _, r := range tb.Rows {
				if r.Metric == metric {
					return r
				}
			}
		}
		t.Fatalf("no row %q", metric)
		return Row{}
	}
	easy := find("SR easy")
	if easy.Cells[0].Count != (Count{5, 10}) || easy.Cells[1].Count != (Count{8, 10}) || easy.Cells[2].Count != (Count{0, 10}) {
		t.Errorf("SR easy cells = %+v, want 5/10, 8/10, 0/10", easy.Cells)
	}
	if got := easy.Cells[0].Text(); got != "50.0% [23.7–76.3]" {
		t.Errorf("SR easy of run 1 = %q, want the rate and its Wilson interval", got)
	}
	if got := easy.Diff(1); got != "+30.0 pp" {
		t.Errorf("SR easy Δ 2−1 = %q, want +30.0 pp", got)
	}
	if got := find("SR hard").Diff(1); got != "–" {
		t.Errorf("SR hard (no tasks) Δ = %q, want –", got)
	}
	if got := find("Exec SR medium").Cells[1].Count; got != (Count{3, 4}) {
		t.Errorf("Exec SR medium of run 2 = %+v, want 3/4", got)
	}
	if got := find("precision").Cells[0].Count; got != (Count{2, 4}) {
		t.Errorf("pooled precision = %+v, want 2/4", got)
	}

	var text bytes.Buffer
	if err := WriteComparison(&text, cmp); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"static × bm25 × rules", "llm × llm × llm (m1)", "Δ 2−1", "Δ 3−1", "80.0% [49.0–94.3]", "-50.0 pp", "Table 4."} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("comparison text lacks %q:\n%s", want, text.String())
		}
	}
	var html bytes.Buffer
	if err := WriteComparisonHTML(&html, cmp); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"llm × llm × llm (m1)", "80.0% <span class=\"ci\">[49.0–94.3] 8/10</span>", `class="up">&#43;30.0 pp</td>`, "Table 3."} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("comparison HTML lacks %q", want)
		}
	}
	data, err := json.Marshal(cmp)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Runs   []struct{ Label string }
		Tables []struct {
			Rows []struct {
				Metric string
				Cells  []struct {
					K, N *int
					CI   *Interval `json:"ci95"`
				}
				Diffs []string
			}
		}
	}
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	row := back.Tables[1].Rows[0]
	if len(back.Runs) != 3 || row.Metric != "SR easy" || *row.Cells[1].K != 8 || row.Cells[1].CI == nil || len(row.Diffs) != 2 {
		t.Errorf("comparison JSON = %s", data)
	}
	if _, err := LoadRun(t.TempDir()); err == nil {
		t.Error("LoadRun(empty directory) = nil error, want one")
	}
	os.WriteFile(filepath.Join(c, "config.json"), []byte("{"), 0o644)
	if _, err := LoadRun(c); err == nil {
		t.Error("LoadRun(broken config.json) = nil error, want one")
	}
}
