package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentnet/agentnet/tasks"
)

func i64(v int64) *int64 { return &v }
func bptr(b bool) *bool  { return &b }
func fptr(f float64) *float64 {
	return &f
}

// sampleResults is a small run whose summary is computed by hand below.
func sampleResults() *Results {
	return &Results{
		Version: ResultsVersion, Suite: "sample",
		Repos: []RepoResult{
			{ID: "a", Generated: true, Precision: 100, Recall: 50, Attempts: []AttemptResult{
				{N: 1, OK: true, TokensIn: i64(0), TokensOut: i64(0)},
				{N: 2, OK: false, TokensIn: i64(0), TokensOut: i64(0)},
			}},
			{ID: "b", Generated: true, Precision: 50, Recall: 100, Attempts: []AttemptResult{
				{N: 1, OK: false, TokensIn: i64(0), TokensOut: i64(0)},
				{N: 2, OK: true, TokensIn: i64(0), TokensOut: i64(0)},
			}},
		},
		Tasks: []TaskResult{
			{ID: "s1", Type: tasks.Single, Tier: tasks.Easy, Status: StatusPassed, Pass: true},
			{ID: "s2", Type: tasks.Single, Tier: tasks.Easy, Status: StatusFailed},
			{ID: "s3", Type: tasks.Single, Tier: tasks.Hard, Status: StatusPassed, Pass: true},
			{ID: "s4", Type: tasks.Single, Tier: tasks.Hard, Status: StatusInfraError}, // excluded
			{ID: "c1", Type: tasks.Chain, Tier: tasks.Easy, Status: StatusPassed, Pass: true, OrchOK: bptr(true),
				Steps: []StepResult{
					{Index: 1, Expected: "a", Routed: "a", Outcome: "ok", Ranking: []RankedRepo{{Repo: "a", Agent: "a", Score: 2.5}, {Repo: "b", Agent: "b", Score: 1}}},
					{Index: 2, Expected: "b", Routed: "a", Outcome: "ok", Ranking: []RankedRepo{{Repo: "a", Agent: "a", Score: 3}, {Repo: "", Agent: "x", Score: 2}, {Repo: "b", Agent: "b", Score: 1}}},
					{Index: 3, Expected: "b", Outcome: "skipped"},
				}},
			{ID: "c2", Type: tasks.Chain, Tier: tasks.Easy, Status: StatusPassed, Pass: true, OrchOK: bptr(false)}, // right answer, wrong route
			{ID: "c3", Type: tasks.Chain, Tier: tasks.Medium, Status: StatusFailed, OrchOK: bptr(true)},
			{ID: "k1", Type: tasks.Commission, Tier: tasks.Easy, Status: StatusFailed, Commission: &CommissionResult{
				Stage: tasks.Optimization, Result: fptr(70), DevResult: fptr(90), GapClosure: fptr(50),
				Cases: []CaseResult{{ID: "h1", Split: "heldout", Status: StatusGated}, {ID: "h2", Split: "heldout", Status: "scored", Score: 100}}}},
		},
	}
}

func TestSummarize(t *testing.T) {
	t.Parallel()
	r := sampleResults()
	Summarize(r, 2)
	zero := 0.0
	want := Summary{
		// pass@1: (1/2 + 1/2)/2 = 50 %; pass@2: both repos succeeded once in 2 → 100 %;
		// tries: (1 + 2)/2 = 1.5; tokens known and 0.
		Generation: GenerationSummary{Repos: 2, Attempts: 4, K: 2, PassAt1: 50, PassAtK: 100, Tries: fptr(1.5), TokensPerRepo: &zero},
		Single:     TierRates{Easy: Rate{2, 50}, Hard: Rate{1, 100}, Overall: Rate{3, 66.67}},
		Skills:     SkillSummary{AvgPrecision: 75, AvgRecall: 75},
		Chains: ChainSummary{
			OrchSR: TierRates{Easy: Rate{2, 50}, Medium: Rate{1, 100}, Overall: Rate{3, 66.67}},
			ExecSR: TierRates{Easy: Rate{2, 50}, Medium: Rate{1, 0}, Overall: Rate{3, 33.33}},
			// c1: step 1 right and ranked first, step 2 wrong and ranked third, step 3 never routed.
			Routing: &RoutingSummary{
				Accuracy:  TierRates{Easy: Rate{2, 50}, Overall: Rate{2, 50}},
				RecallAt1: TierRates{Easy: Rate{2, 50}, Overall: Rate{2, 50}},
				RecallAt3: TierRates{Easy: Rate{2, 100}, Overall: Rate{2, 100}},
			},
		},
		Commission: CommissionSummary{N: 1, Result: fptr(70), DevResult: fptr(90), GateFailures: 1, GapClosure: fptr(50)},
	}
	if diff := cmp.Diff(want, r.Summary); diff != "" {
		t.Errorf("Summarize (-want +got):\n%s", diff)
	}
}

func TestStoreResume(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "run")
	cfg := RunConfig{Suite: "sample", SuiteSHA256: "abc", Generator: "static", Attempts: 1, Runtime: "process", Router: "bm25", Judge: "rules"}
	s, err := Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Create(dir, cfg); err == nil || !strings.Contains(err.Error(), "--resume") {
		t.Errorf("Create over an existing run = %v", err)
	}
	if err := s.SaveTask(TaskResult{ID: "done", Type: tasks.Single, Status: StatusPassed, Pass: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveTask(TaskResult{ID: "flaky", Type: tasks.Single, Status: StatusInfraError}); err != nil {
		t.Fatal(err)
	}
	r, err := Resume(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Task("done"); !ok {
		t.Error("a recorded task is not done after resume")
	}
	if _, ok := r.Task("flaky"); ok {
		t.Error("an infra error counts as done: it would never be retried")
	}
	if _, ok := r.Task("missing"); ok {
		t.Error("a task never run is done")
	}
	changed := cfg
	changed.Router = "llm"
	_, err = Resume(dir, changed)
	var mm *ConfigMismatchError
	if !errors.As(err, &mm) || !strings.Contains(err.Error(), "router: bm25 → llm") {
		t.Errorf("Resume with another router = %v", err)
	}
	if _, err := Resume(filepath.Join(t.TempDir(), "nothing"), cfg); err == nil {
		t.Error("Resume of an empty directory succeeded")
	}
}

func TestResultsMatchSchemaAndRender(t *testing.T) {
	t.Parallel()
	r := sampleResults()
	Summarize(r, 2)
	dir := t.TempDir()
	s, err := Create(dir, RunConfig{Suite: "sample"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.WriteResults(r); err != nil {
		t.Fatal(err)
	}
	back, err := LoadResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r, back); diff != "" {
		t.Errorf("results.json round trip (-wrote +read):\n%s", diff)
	}

	c := jsonschema.NewCompiler()
	var doc any
	if err := json.Unmarshal(ResultsSchemaJSON(), &doc); err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("results.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("results.json")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "results.json"))
	inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err := sch.Validate(inst); err != nil {
		t.Errorf("results.json does not match its schema: %v", err)
	}

	html, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	for _, want := range []string{"<svg", "c1", "Table 1", "66.7%", "Table 5. Routing per chain step", "<th>Recall@3</th>"} {
		if !bytes.Contains(html, []byte(want)) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	for _, banned := range []string{"http://", "https://", "<script src", "<link "} {
		if bytes.Contains(html, []byte(banned)) {
			t.Errorf("report.html is not self-contained: it holds %q", banned)
		}
	}
	var text bytes.Buffer
	if err := WriteTables(&text, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Pass@k (k=2)", "Table 4", "66.7%", "1 task(s) ended in an infrastructure error",
		"Table 5. Routing per chain step", "overall      2     50.0%       2     50.0%    100.0%"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("tables lack %q:\n%s", want, text.String())
		}
	}
}
