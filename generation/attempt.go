package generation

import (
	"time"
)

// Attempt is the record of one generation attempt, written as
// .agentnet/attempts/N/attempt.json in the output directory.
type Attempt struct {
	N         int    `json:"n"`
	Generator string `json:"generator"`
	OK        bool   `json:"ok"`
	// Stage is where a failed attempt stopped: source, generate, load,
	// setup, check, deploy, card, skills, call.
	Stage  string `json:"stage,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Duration is the attempt's wall time in seconds.
	Duration float64         `json:"duration_s"`
	Tokens   Tokens          `json:"tokens"`
	Skills   []string        `json:"skills,omitempty"`
	Missing  []MissingModule `json:"missing,omitempty"`
	Notes    []string        `json:"notes,omitempty"`
	// Dropped are the skills the gate called and left out because they
	// cannot run, each with its reason.
	Dropped []Dropped `json:"dropped,omitempty"`
	// Log is the attempt's log file, relative to the output directory.
	Log string `json:"log"`
	// Started is when the attempt began (UTC).
	Started time.Time `json:"started"`
}

// Report is the outcome of Run: every attempt, in order.
type Report struct {
	Repo      string    `json:"repo"`
	Out       string    `json:"out"`
	Generator string    `json:"generator"`
	Attempts  []Attempt `json:"attempts"`
	// Chosen is the attempt whose bundle is in Out (the first that passed),
	// or 0.
	Chosen int `json:"chosen"`
}

// OK reports whether some attempt passed the gate.
func (r *Report) OK() bool { return r.Chosen > 0 }

// Why says why no attempt passed: the last attempt's stage and reason
// ("" when one passed).
func (r *Report) Why() string {
	if r.OK() {
		return ""
	}
	if n := len(r.Attempts); n > 0 && r.Attempts[n-1].Why() != "" {
		return r.Attempts[n-1].Why()
	}
	return "no attempt passed the gate"
}

// Why is the attempt's stage and reason as one line: "build: exit 1".
func (a Attempt) Why() string {
	switch {
	case a.Stage == "":
		return a.Reason
	case a.Reason == "":
		return a.Stage
	}
	return a.Stage + ": " + a.Reason
}

// Successes counts the attempts that passed (the c of pass@k).
func (r *Report) Successes() int {
	n := 0
	for _, a := range r.Attempts {
		if a.OK {
			n++
		}
	}
	return n
}

// Tries is the number of the first successful attempt, or 0.
func (r *Report) Tries() int {
	for _, a := range r.Attempts {
		if a.OK {
			return a.N
		}
	}
	return 0
}
