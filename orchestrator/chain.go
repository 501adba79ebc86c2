package orchestrator

import (
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/a2a/proxy"
)

// Chain is what the runner executes: the oracle decomposition of a suite's
// chain (or a single case as a chain of one step) and its input.
type Chain struct {
	ID    string
	Steps []Step
	// Input is the first step's input; every later step gets the output of
	// the step before it.
	Input Input
	// Timeout bounds each step that has no timeout of its own; zero means
	// the runner's default.
	Timeout time.Duration
}

// Step is one step of a chain. Repo is the answer key: routers never see it.
type Step struct {
	Repo        string
	Instruction string
	Timeout     time.Duration
}

// Input is a chain's input: text and structured arguments (sent as a text
// and a data part) and files (sent as file parts).
type Input struct {
	Text  string
	Data  map[string]any
	Files []File
}

// File is a file sent to or received from an agent: its bytes, or for a
// file an agent passed by reference (an A2A file part with a URL on the
// agent's own origin), the URL, which the next step's agent is sent instead
// of the bytes. The runner fetches a chain's final files by reference into
// Data when they fit WithOutputFetchMax.
type File struct {
	Name      string
	MediaType string
	Data      []byte
	URL       string // where the file is served, when passed by reference
	Size      int64  // its size in bytes, when known; else len(Data)
}

// Bytes returns the file's size.
func (f File) Bytes() int64 {
	if f.Data == nil && f.Size > 0 {
		return f.Size
	}
	return int64(len(f.Data))
}

// Output is what a step (or a chain, through its last step) produced: the
// text of its artifacts and its file artifacts.
type Output struct {
	Text  string
	Files []File
}

// Outcome says how a step or a chain ended.
type Outcome string

// The outcomes. Only transport failures are retried; every other failure
// ends the step, and the chain with it.
const (
	OK              Outcome = "ok"
	NoAgent         Outcome = "no_agent"         // the router found no suitable agent
	RoutingFailed   Outcome = "routing_failed"   // the router could not decide (a model that failed)
	RegistryFailed  Outcome = "registry_failed"  // the registry could not be read
	AgentFailed     Outcome = "agent_failed"     // the agent answered with a failed task or a JSON-RPC error
	EmptyAnswer     Outcome = "empty_answer"     // the agent completed the task with no text and no file
	ProtocolError   Outcome = "protocol_error"   // the agent's answer is not valid A2A
	TransportFailed Outcome = "transport_failed" // the agent could not be reached, after retries
	Timeout         Outcome = "timeout"          // the step's timeout passed
	Canceled        Outcome = "canceled"         // the run was canceled
	Skipped         Outcome = "skipped"          // an earlier step failed
	InternalError   Outcome = "internal_error"   // a bug: a router or the runner panicked
)

// AgentRef names an agent in records.
type AgentRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	URL  string `json:"url"`
}

// Ranked is one agent of a router's ranking for a step, with the router's
// score (higher is better).
type Ranked struct {
	AgentRef
	Score float64 `json:"score"`
}

// MaxRanking bounds how many of a router's ranked agents a step records.
const MaxRanking = 10

func refOf(c *Candidate) *AgentRef {
	if c == nil {
		return nil
	}
	return &AgentRef{ID: c.ID, Name: c.Name(), URL: c.URL}
}

// Artifact describes one output file in a record.
type Artifact struct {
	Name      string `json:"name"`
	MediaType string `json:"media_type,omitempty"`
	Bytes     int    `json:"bytes"`
}

// StepRecord is what happened at one step.
type StepRecord struct {
	Step        int    `json:"step"`
	Instruction string `json:"instruction"`
	Expected    string `json:"expected"` // the repo the suite expects

	// Routed is the agent the router chose (for delegated chains, the one
	// observed); Observed is the agent the trace shows receiving the step's
	// message. Correct says whether Observed is the expected repo's agent.
	Routed   *AgentRef `json:"routed,omitempty"`
	Observed *AgentRef `json:"observed,omitempty"`
	Correct  bool      `json:"correct"`
	Skill    string    `json:"skill,omitempty"`
	Score    float64   `json:"score,omitempty"`
	Reason   string    `json:"reason,omitempty"`
	Tokens   int       `json:"tokens,omitempty"`
	// Ranking is the router's ranking of the agents it found fit, best
	// first, at most MaxRanking of them: what Recall@k is read from. A
	// router that ranks nothing but chooses an agent ranks that one alone;
	// "no suitable agent" ranks none. Empty for delegated chains.
	Ranking []Ranked `json:"ranking,omitempty"`

	Outcome  Outcome `json:"outcome"`
	Detail   string  `json:"detail,omitempty"` // why, for anything but ok
	State    string  `json:"state,omitempty"`  // the task's last state
	Attempts int     `json:"attempts,omitempty"`
	TaskID   string  `json:"task_id,omitempty"`
	// ContextID is the context the agent answered in; the runner sends one
	// context id for all the steps of a chain.
	ContextID string `json:"context_id,omitempty"`

	Started   time.Time  `json:"started"`
	RouteMS   float64    `json:"route_ms"`
	CallMS    float64    `json:"call_ms"`
	TotalMS   float64    `json:"total_ms"`
	Artifacts []Artifact `json:"artifacts"`
	Exchanges []int64    `json:"exchanges,omitempty"` // the trace exchanges of the step's messages
	// Output is what the step produced (runner-routed chains; nil when the
	// step failed or the chain was delegated).
	Output *Output `json:"-"`
}

// Result is one chain's run.
type Result struct {
	Chain  string `json:"chain"`
	Router string `json:"router"`
	// Binding is the A2A binding the chain's calls used: jsonrpc, rest or
	// grpc.
	Binding   string       `json:"binding,omitempty"`
	ContextID string       `json:"context_id"`
	Steps     []StepRecord `json:"steps"`
	Outcome   Outcome      `json:"outcome"`
	Detail    string       `json:"detail,omitempty"`
	// OrchestrationOK holds when the trace shows every step's message going
	// to the agent of the step's repo (docs/results.md, all or nothing).
	OrchestrationOK bool `json:"orchestration_ok"`
	// Extra lists messages to fleet agents beyond the chain's steps
	// (delegated chains only).
	Extra     []AgentRef `json:"extra,omitempty"`
	Started   time.Time  `json:"started"`
	ElapsedMS float64    `json:"elapsed_ms"`
	Tokens    int        `json:"tokens,omitempty"`
	// Output is the last step's output.
	Output      Output     `json:"-"`
	OutputText  string     `json:"output_text"`
	OutputFiles []Artifact `json:"output_files"`
	// Trace is every exchange the chain's proxies recorded.
	Trace []proxy.Entry `json:"-"`
}

// terminal reports whether a task state ends a task.
func terminal(s a2a.TaskState) bool {
	switch s {
	case a2a.TaskStateCompleted, a2a.TaskStateFailed, a2a.TaskStateCanceled, a2a.TaskStateRejected,
		a2a.TaskStateInputRequired, a2a.TaskStateAuthRequired:
		return true
	}
	return false
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
