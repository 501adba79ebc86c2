package eval

import (
	"encoding/json"
	"time"

	"github.com/invopop/jsonschema"

	"github.com/agentnet/agentnet/tasks"
)

// ResultsVersion is the version of the results.json format.
const ResultsVersion = 1

// Trial statuses.
const (
	StatusPassed     = "passed"      // judged and passed
	StatusFailed     = "failed"      // judged and failed (a wrong answer, or the agent failed the task)
	StatusError      = "error"       // the agent could not be reached or broke the protocol: counts as a failure
	StatusGated      = "gated"       // commission: a validity gate failed (startup, crash, timeout): scores 0
	StatusInfraError = "infra_error" // the testbed's own fault: excluded from every rate, never a 0
	StatusSkipped    = "skipped"     // not run because a prerequisite failed (its repo has no agent): counts as a failure
	StatusScored     = "scored"      // commission case: judged, with a score 0–100
)

// Results is the content of a run's results.json (docs/results.md). Fields
// are only ever added to it: a reader of an older results.json finds the
// newer fields absent (Config and Provenance are nil there).
type Results struct {
	Version int    `json:"version"`
	Suite   string `json:"suite"`
	// Config is the configuration that decided the results (as in
	// config.json).
	Config *RunConfig `json:"config,omitempty"`
	// Provenance says which agentnet made the run, when and where.
	Provenance *Provenance  `json:"provenance,omitempty"`
	Summary    Summary      `json:"summary"`
	Repos      []RepoResult `json:"repos"`
	Tasks      []TaskResult `json:"tasks"`
}

// Provenance records which agentnet made a run, when, on which host and
// with which models. It is kept in config.json and copied into
// results.json and report.html; it never decides a result.
type Provenance struct {
	Agentnet string `json:"agentnet" jsonschema:"description=The agentnet version that started the run."`
	Commit   string `json:"commit,omitempty" jsonschema:"description=The VCS commit agentnet was built from; absent when unknown."`
	Modified bool   `json:"modified,omitempty" jsonschema:"description=The build had uncommitted changes."`
	Host     string `json:"host" jsonschema:"description=The host name of the machine that ran it."`
	// Started and Finished are UTC, to the second; Finished is absent until
	// the run has written its results.
	Started  time.Time  `json:"started"`
	Finished *time.Time `json:"finished,omitempty"`
	// Resumed lists the times the run was continued with --resume.
	Resumed []Resumption `json:"resumed,omitempty"`
	// Models names the model behind each model-backed choice (generator,
	// router, judge); absent when none used a model.
	Models map[string]string `json:"models,omitempty"`
	// SuiteDigest is "sha256:HEX" over the suite file and every file under
	// the paths it names (docs/results.md), taken when the run started.
	SuiteDigest string `json:"suite_digest"`
}

// Resumption is one continuation of a run.
type Resumption struct {
	At       time.Time `json:"at"`
	Agentnet string    `json:"agentnet"`
	Commit   string    `json:"commit,omitempty"`
	Host     string    `json:"host"`
	// SuiteDigest is the suite's digest when the run was resumed; a
	// difference from the first one means the suite's files changed.
	SuiteDigest string `json:"suite_digest,omitempty"`
}

// Summary holds the paper-style aggregate numbers; percentages are 0–100.
type Summary struct {
	Generation GenerationSummary `json:"generation"`
	Single     TierRates         `json:"single"`
	Skills     SkillSummary      `json:"skills"`
	Chains     ChainSummary      `json:"chains"`
	Commission CommissionSummary `json:"commission"`
}

// GenerationSummary is Table 1: generation.
type GenerationSummary struct {
	Repos         int      `json:"repos"`
	Attempts      int      `json:"attempts"`
	K             int      `json:"k"`
	PassAt1       float64  `json:"pass_at_1"`
	PassAtK       float64  `json:"pass_at_k"`
	Tries         *float64 `json:"tries" jsonschema:"nullable"`           // null when no repo generated
	TokensPerRepo *float64 `json:"tokens_per_repo" jsonschema:"nullable"` // null when unknown
}

// SkillSummary is Table 3: skill precision and recall.
type SkillSummary struct {
	AvgPrecision float64 `json:"avg_precision"`
	AvgRecall    float64 `json:"avg_recall"`
}

// ChainSummary is Table 4: orchestration and execution success of chains.
type ChainSummary struct {
	OrchSR TierRates `json:"orch_sr"`
	ExecSR TierRates `json:"exec_sr"`
	// Routing scores the router step by step; absent when no chain step
	// was routed (and in results written before it was measured).
	Routing *RoutingSummary `json:"routing,omitempty"`
}

// RoutingSummary scores routing per chain step, by the tier of the step's
// chain; each rate's n counts steps (docs/results.md).
type RoutingSummary struct {
	// Accuracy is the share of routed steps whose message reached the
	// expected repo's agent.
	Accuracy TierRates `json:"accuracy"`
	// RecallAt1 and RecallAt3 are the shares of steps whose expected repo's
	// agent is among the router's first one or three ranked candidates.
	RecallAt1 TierRates `json:"recall_at_1"`
	RecallAt3 TierRates `json:"recall_at_3"`
}

// CommissionSummary aggregates commission tasks; means are null when there
// is nothing to average.
type CommissionSummary struct {
	N            int      `json:"n"`
	Result       *float64 `json:"result" jsonschema:"nullable"`
	DevResult    *float64 `json:"dev_result" jsonschema:"nullable"`
	GateFailures int      `json:"gate_failures"`
	GapClosure   *float64 `json:"gap_closure" jsonschema:"nullable"`
}

// RepoResult is one repo's generation record.
type RepoResult struct {
	ID        string          `json:"id"`
	Domain    string          `json:"domain,omitempty"`
	Attempts  []AttemptResult `json:"attempts"`
	Generated bool            `json:"generated"`          // some attempt passed the gate
	Bundle    string          `json:"bundle,omitempty"`   // the bundle deployed (run-relative)
	Skills    []SkillText     `json:"skills"`             // skills of the deployed bundle
	Match     *SkillMatch     `json:"match,omitempty"`    // against the ground truth
	Precision float64         `json:"precision"`          // 0–100
	Recall    float64         `json:"recall"`             // 0–100
	Endpoint  string          `json:"endpoint,omitempty"` // where the agent was served
}

// AttemptResult is one generation attempt.
type AttemptResult struct {
	N          int    `json:"n"`
	OK         bool   `json:"ok"`
	Reason     string `json:"reason,omitempty"`
	DurationMS int64  `json:"duration_ms"`
	TokensIn   *int64 `json:"tokens_in" jsonschema:"nullable"`  // null when unknown
	TokensOut  *int64 `json:"tokens_out" jsonschema:"nullable"` // null when unknown
	Dir        string `json:"dir,omitempty"`
}

// TaskResult is one task's outcome.
type TaskResult struct {
	ID         string            `json:"id"`
	Type       tasks.CaseType    `json:"type"`
	Tier       tasks.Tier        `json:"tier"`
	Repo       string            `json:"repo,omitempty"`
	Status     string            `json:"status"`
	Pass       bool              `json:"pass"`
	OrchOK     *bool             `json:"orch_ok,omitempty" jsonschema:"nullable"` // chains: every step went to its repo's agent
	Reason     string            `json:"reason,omitempty"`
	DurationMS int64             `json:"duration_ms"`
	Checks     []tasks.Result    `json:"checks,omitempty"`
	Output     string            `json:"output,omitempty"` // the final text output (clipped)
	Artifacts  []string          `json:"artifacts,omitempty"`
	Steps      []StepResult      `json:"steps,omitempty"`
	Trace      string            `json:"trace,omitempty"` // run-relative path of the JSON-lines trace
	Tries      int               `json:"tries,omitempty"` // infra retries used
	Commission *CommissionResult `json:"commission,omitempty"`
	TokensIn   int               `json:"tokens_in,omitempty"`
	TokensOut  int               `json:"tokens_out,omitempty"`
}

// StepResult is one step of a chain.
type StepResult struct {
	Index      int      `json:"index"`
	Expected   string   `json:"expected"` // the step's repo (answer key)
	Routed     string   `json:"routed"`   // the repo whose agent really got the step ("" when none)
	Score      float64  `json:"score,omitempty"`
	Reason     string   `json:"reason,omitempty"`
	Outcome    string   `json:"outcome"` // the step's outcome: ok, no_agent, agent_failed, empty_answer, skipped, ...
	DurationMS int64    `json:"duration_ms"`
	Artifacts  []string `json:"artifacts,omitempty"`
	// Ranking is the router's ranking of the agents it found fit for the
	// step, best first (at most ten); a router that does not rank gives its
	// choice alone, "no suitable agent" none.
	Ranking []RankedRepo `json:"ranking,omitempty"`
}

// RankedRepo is one agent of a router's ranking.
type RankedRepo struct {
	Repo  string  `json:"repo"`  // the repo whose agent it is ("" when none of the suite's)
	Agent string  `json:"agent"` // the agent's card name
	Score float64 `json:"score"` // the router's score; higher is better
}

// CommissionResult is a commission task's outcome.
type CommissionResult struct {
	Stage       tasks.Stage  `json:"stage"`
	Result      *float64     `json:"result" jsonschema:"nullable"`     // mean held-out score, 0–100
	DevResult   *float64     `json:"dev_result" jsonschema:"nullable"` // mean dev score, 0–100
	Gap         *float64     `json:"gap" jsonschema:"nullable"`        // dev_result − result
	Baseline    *float64     `json:"baseline,omitempty" jsonschema:"nullable"`
	GapClosure  *float64     `json:"gap_closure,omitempty" jsonschema:"nullable"`
	TestsPassed *float64     `json:"tests_passed,omitempty" jsonschema:"nullable"` // share of hidden tests passed, 0–100
	Reward      *float64     `json:"reward,omitempty" jsonschema:"nullable"`       // 1 when every hidden test passed
	Delivery    string       `json:"delivery,omitempty"`                           // frozen delivery (run-relative)
	DeliverySHA string       `json:"delivery_sha256,omitempty"`
	Tests       *TestsResult `json:"tests,omitempty"`       // the hidden acceptance tests' run
	Submissions []Submission `json:"submissions,omitempty"` // the builder's submissions, in order
	Cases       []CaseResult `json:"cases"`
	// Validation is the task's own check (its reference must pass, its
	// controls must fail): never a builder's score.
	Validation *Validation `json:"validation,omitempty"`
}

// Outcomes of a commission's hidden acceptance tests.
const (
	TestsPassed       = "passed"        // every test passed: reward 1
	TestsFailed       = "failed"        // judged and failed; the share passed is kept
	TestsTimeout      = "timeout"       // the tests ran out of time and were killed
	TestsNoSubmission = "no_submission" // there was no delivery to test
	TestsError        = "error"         // the test command could not run (the testbed's fault)
)

// TestsResult is one run of a commission's hidden acceptance tests.
type TestsResult struct {
	Outcome string   `json:"outcome"`
	Passed  int      `json:"passed"`
	Total   int      `json:"total"`
	Format  string   `json:"format,omitempty"` // how the counts were read: go-test-json, junit, tap, unittest, exit-status
	Failed  []string `json:"failed,omitempty"` // names of the failed tests
	Detail  string   `json:"detail,omitempty"`
	Log     string   `json:"log,omitempty"` // run-relative path of the test command's output
}

// Submission is one of a builder's submissions, evaluated on the
// development cases only.
type Submission struct {
	N          int      `json:"n"`
	Accepted   bool     `json:"accepted"` // a bundle that deployed: a candidate for the frozen delivery
	DevResult  *float64 `json:"dev_result" jsonschema:"nullable"`
	Reason     string   `json:"reason,omitempty"`
	SHA256     string   `json:"sha256,omitempty"`
	DurationMS int64    `json:"duration_ms"`
	TokensIn   *int64   `json:"tokens_in" jsonschema:"nullable"`  // null when unknown
	TokensOut  *int64   `json:"tokens_out" jsonschema:"nullable"` // null when unknown
}

// Validation is a commission's task validation: its reference delivery and
// its controls evaluated on every case and hidden test.
type Validation struct {
	Sound      bool            `json:"sound"` // the reference passes and every control fails
	Deliveries []DeliveryCheck `json:"deliveries"`
}

// DeliveryCheck is one reference or control delivery of a task validation.
type DeliveryCheck struct {
	Role       string       `json:"role"` // reference or control
	Path       string       `json:"path"` // as the suite names it
	DevPassed  int          `json:"dev_passed"`
	DevTotal   int          `json:"dev_total"`
	HeldPassed int          `json:"heldout_passed"`
	HeldTotal  int          `json:"heldout_total"`
	Tests      *TestsResult `json:"tests,omitempty"`
	Passes     bool         `json:"passes"` // every case and test passed
	OK         bool         `json:"ok"`     // as the role wants: a reference passes, a control fails
	Reason     string       `json:"reason,omitempty"`
	Cases      []CaseResult `json:"cases"`
}

// CaseResult is one dev or held-out case of a commission.
type CaseResult struct {
	ID     string         `json:"id"`
	Split  string         `json:"split"` // dev or heldout
	Status string         `json:"status"`
	Score  float64        `json:"score"`
	Reason string         `json:"reason,omitempty"`
	Checks []tasks.Result `json:"checks,omitempty"`
	// Rubric is the llm judge's grade of each weighted criterion.
	Rubric []CriterionGrade `json:"rubric,omitempty"`
}

// ResultsSchema returns the JSON Schema of results.json.
func ResultsSchema() *jsonschema.Schema {
	r := &jsonschema.Reflector{}
	s := r.Reflect(&Results{})
	s.ID = "https://agentnet.dev/schema/results.json"
	s.Title = "agentnet results"
	return s
}

// ResultsSchemaJSON returns ResultsSchema indented as JSON.
func ResultsSchemaJSON() []byte {
	b, err := json.MarshalIndent(ResultsSchema(), "", "  ")
	if err != nil {
		panic(err) // built from static types
	}
	return append(b, '\n')
}
