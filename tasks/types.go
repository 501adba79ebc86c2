package tasks

import (
	"encoding/json"
	"fmt"

	"github.com/invopop/jsonschema"
	"go.yaml.in/yaml/v4"

	"github.com/agentnet/agentnet/internal/yamlx"
)

// Suite is a benchmark: repos with their ground-truth skills, and cases.
type Suite struct {
	Version int    `json:"version" jsonschema:"required,enum=1,description=Format version; always 1."`
	Name    string `json:"name" jsonschema:"required,minLength=1,description=Name of the suite."`
	Repos   []Repo `json:"repos" jsonschema:"required,minItems=1"`
	Cases   []Case `json:"tasks" jsonschema:"description=The cases to run: single; chain and commission."`

	// Path is the file the suite was loaded from; Dir its directory, against
	// which relative paths resolve.
	Path string `json:"-"`
	Dir  string `json:"-"`
}

// Repo is a source code repository of the suite.
type Repo struct {
	ID     string  `json:"id" jsonschema:"required,pattern=^[a-z0-9][a-z0-9-]*$"`
	Source string  `json:"source" jsonschema:"required,minLength=1,description=A path relative to the suite file or a git URL with a scheme."`
	Ref    string  `json:"ref,omitempty" jsonschema:"description=A commit or tag (git URLs)."`
	Domain string  `json:"domain,omitempty"`
	Skills []Skill `json:"skills" jsonschema:"required,minItems=1,description=Ground truth: the repo's core and atomic skills."`
}

// Skill is an annotated ground-truth skill of a repo.
type Skill struct {
	ID          string `json:"id" jsonschema:"required,pattern=^[a-z0-9][a-z0-9-]*$"`
	Description string `json:"description" jsonschema:"required,minLength=1"`
}

// CaseType says what kind of case a Case is.
type CaseType string

// The case types.
const (
	Single     CaseType = "single"
	Chain      CaseType = "chain"
	Commission CaseType = "commission"
)

// Indicator is one of the SW-A²-Bench difficulty indicators.
type Indicator string

// The indicators; a single case's tier is the number it carries.
const (
	ConstrainedEnv        Indicator = "constrained_env"
	UncertainOutput       Indicator = "uncertain_output"
	NonstandardProcessing Indicator = "nonstandard_processing"
	DomainExpertise       Indicator = "domain_expertise"
)

// Indicators lists the valid indicators.
var Indicators = []Indicator{ConstrainedEnv, UncertainOutput, NonstandardProcessing, DomainExpertise}

// JSONSchema lists the valid indicators as the schema's enum.
func (Indicator) JSONSchema() *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "string",
		Description: "A difficulty indicator; a single task's tier is how many it carries: easy 0–1, medium 2, hard 3–4."}
	for _, in := range Indicators {
		s.Enum = append(s.Enum, string(in))
	}
	return s
}

// Stage is the stage of a commission.
type Stage string

// The commission stages.
const (
	Creation     Stage = "creation"
	Editing      Stage = "editing"
	Optimization Stage = "optimization"
)

// Case is one entry of the suite's `tasks` list.
type Case struct {
	ID          string      `json:"id" jsonschema:"required,pattern=^[A-Za-z0-9][A-Za-z0-9._-]*$"`
	Type        CaseType    `json:"type" jsonschema:"required,enum=single,enum=chain,enum=commission"`
	Repo        string      `json:"repo,omitempty" jsonschema:"description=single: the repo whose agent must do it (the answer key)."`
	Indicators  []Indicator `json:"indicators,omitempty" jsonschema:"uniqueItems=true"`
	Instruction string      `json:"instruction,omitempty"`
	Input       *Input      `json:"input,omitempty"`
	Steps       []Step      `json:"steps,omitempty" jsonschema:"description=chain: the oracle decomposition; step repos are never shown to the router."`
	Expect      []Check     `json:"expect,omitempty"`
	Rubric      Rubric      `json:"rubric,omitempty"`
	Timeout     Duration    `json:"timeout,omitzero"`

	// Commission fields.
	Stage       Stage            `json:"stage,omitempty" jsonschema:"enum=creation,enum=editing,enum=optimization"`
	Requirement string           `json:"requirement,omitempty"`
	Workspace   string           `json:"workspace,omitempty" jsonschema:"description=editing and optimization: the starting bundle or repo."`
	Cases       *CommissionCases `json:"cases,omitempty"`
	Tests       *HiddenTests     `json:"tests,omitempty"`
	Gates       *Gates           `json:"gates,omitempty"`
	Baseline    *float64         `json:"baseline,omitempty" jsonschema:"minimum=0,maximum=100"`
	Reference   string           `json:"reference,omitempty"`
	Controls    []string         `json:"controls,omitempty"`
}

// Step is one step of a chain.
type Step struct {
	Repo        string   `json:"repo" jsonschema:"required"`
	Instruction string   `json:"instruction" jsonschema:"required,minLength=1"`
	Timeout     Duration `json:"timeout,omitzero"`
}

// Input is what a case (or a chain's first step) is given.
type Input struct {
	Text  string         `json:"text,omitempty"`
	Data  map[string]any `json:"data,omitempty" jsonschema:"description=Structured arguments; sent as an A2A data part."`
	Files []string       `json:"files,omitempty" jsonschema:"description=Paths relative to the suite file; sent as A2A file parts."`
}

// CommissionCases are a commission's development cases (shown to the
// builder) and held-out cases (never shown).
type CommissionCases struct {
	Dev     CaseList `json:"dev,omitzero"`
	Heldout CaseList `json:"heldout" jsonschema:"required"`
}

// CaseList is a list of evaluation cases, written inline or as the path of
// a YAML or JSON file holding the list.
type CaseList struct {
	File  string     // the path as written, when the list came from a file
	Cases []EvalCase // the cases, inline or loaded from File
}

// EvalCase is one development or held-out case of a commission.
type EvalCase struct {
	ID          string   `json:"id" jsonschema:"required,pattern=^[A-Za-z0-9][A-Za-z0-9._-]*$"`
	Instruction string   `json:"instruction" jsonschema:"required,minLength=1"`
	Input       *Input   `json:"input,omitempty"`
	Expect      []Check  `json:"expect,omitempty"`
	Rubric      Rubric   `json:"rubric,omitempty"`
	Timeout     Duration `json:"timeout,omitzero"`
}

// HiddenTests are a commission's hidden acceptance tests: a directory never
// shown to the builder and the command that runs them against a delivery.
type HiddenTests struct {
	Dir     string   `json:"dir" jsonschema:"required,minLength=1"`
	Command []string `json:"command" jsonschema:"required,minItems=1"`
}

// Gates are a delivery's validity gates.
type Gates struct {
	StartupTimeout Duration `json:"startup_timeout,omitzero"`
	CaseTimeout    Duration `json:"case_timeout,omitzero"`
}

// Criterion is one weighted item of a rubric.
type Criterion struct {
	Criterion string  `json:"criterion" jsonschema:"required,minLength=1"`
	Weight    float64 `json:"weight,omitempty" jsonschema:"minimum=0"`
}

// Rubric is what an LLM judge grades against: one sentence, or weighted
// criteria.
type Rubric []Criterion

// Text returns the rubric as prose for a judge prompt.
func (r Rubric) Text() string {
	if len(r) == 1 && r[0].Weight == 0 {
		return r[0].Criterion
	}
	s := ""
	for _, c := range r {
		s += fmt.Sprintf("- %s (weight %g)\n", c.Criterion, c.Weight)
	}
	return s
}

// Weighted reports whether the rubric is a list of criteria to be graded
// one by one (more than one, or any with a weight) rather than one sentence.
func (r Rubric) Weighted() bool {
	if len(r) > 1 {
		return true
	}
	return len(r) == 1 && r[0].Weight > 0
}

// Weights returns each criterion's weight for a weighted mean: the weights
// as written, or all 1 when none is given.
func (r Rubric) Weights() []float64 {
	w := make([]float64, len(r))
	var total float64
	for i, c := range r {
		w[i] = c.Weight
		total += c.Weight
	}
	if total == 0 {
		for i := range w {
			w[i] = 1
		}
	}
	return w
}

// UnmarshalYAMLNode accepts a string or a list of criteria.
func (r *Rubric) UnmarshalYAMLNode(d *yamlx.Decoder, n *yaml.Node, path string) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		*r = Rubric{{Criterion: n.Value}}
		return
	}
	var list []Criterion
	d.Decode(n, reflectValue(&list), path)
	*r = list
}

// MarshalJSON writes a single unweighted criterion back as a string.
func (r Rubric) MarshalJSON() ([]byte, error) {
	if len(r) == 1 && r[0].Weight == 0 {
		return json.Marshal(r[0].Criterion)
	}
	return json.Marshal([]Criterion(r))
}

// JSONSchema describes the two forms of a rubric.
func (Rubric) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Description: "Used by --judge llm: one sentence, or weighted criteria.",
		OneOf: []*jsonschema.Schema{
			{Type: "string", MinLength: ptr(uint64(1))},
			{Type: "array", Items: inlineSchema(&Criterion{})},
		},
	}
}

// UnmarshalYAMLNode accepts a path or an inline list.
func (l *CaseList) UnmarshalYAMLNode(d *yamlx.Decoder, n *yaml.Node, path string) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		l.File = n.Value
		return
	}
	d.Decode(n, reflectValue(&l.Cases), path)
}

// MarshalJSON writes the file path when the list came from a file.
func (l CaseList) MarshalJSON() ([]byte, error) {
	if l.File != "" {
		return json.Marshal(l.File)
	}
	if l.Cases == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(l.Cases)
}

// JSONSchema describes the two forms of a case list.
func (CaseList) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		OneOf: []*jsonschema.Schema{
			{Type: "string", MinLength: ptr(uint64(1)), Description: "A YAML or JSON file holding the list, relative to the suite file; paths inside it are relative to it."},
			{Type: "array", Items: inlineSchema(&EvalCase{})},
		},
	}
}

// Duration is a positive duration written as a Go duration string ("90s", "2m").
type Duration = yamlx.Duration

// inlineSchema reflects v's type into a self-contained schema (no $id, no
// $defs) for embedding in a custom schema.
func inlineSchema(v any) *jsonschema.Schema {
	r := &jsonschema.Reflector{DoNotReference: true, RequiredFromJSONSchemaTags: true, ExpandedStruct: true}
	s := r.Reflect(v)
	s.ID, s.Version = "", ""
	return s
}

func ptr[T any](v T) *T { return &v }
