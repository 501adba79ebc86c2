package orchestrator

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"sync"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/internal/llm"
)

// Candidate is an agent a router may choose: what the registry knows of it.
type Candidate struct {
	ID     string         // the registry's id of the agent
	URL    string         // the base URL the card was fetched from
	Card   *a2a.AgentCard // the card, the only thing a router may judge by
	Status string         // the registry's health: "up", "changed", "down" or "" (unknown)
}

// Name is the card's name.
func (c *Candidate) Name() string {
	if c == nil || c.Card == nil {
		return ""
	}
	return c.Card.Name
}

// Down reports whether the registry saw the agent down.
func (c *Candidate) Down() bool { return c.Status == "down" }

// Directory is what the orchestrator needs of the registry: every agent
// with its card and health. A registry client is adapted to it by the
// caller; Agents is called once per step, so a directory that goes away
// mid-chain fails that step.
type Directory interface {
	Agents(ctx context.Context) ([]Candidate, error)
}

// Query is what a router is asked for one step. It never names the repo
// the step expects.
type Query struct {
	Instruction string
	Step, Steps int      // the step's position (1-based) and the chain's length
	Inputs      []string // names of the files the step gets
	Types       []string // their media types ("" when unknown)
	// Columns are the columns of the one table the step carries (a CSV
	// or TSV file, a JSON array of records), or nil.
	Columns []string
}

// Decision is a router's answer for one step.
type Decision struct {
	// Agent is the chosen candidate, or nil for "no suitable agent".
	Agent  *Candidate
	Skill  string  // the skill of the card that fits, when the router says
	Score  float64 // the router's confidence or relevance; higher is better
	Reason string  // a short reason, for the step record
	Tokens int     // model tokens spent on the decision
	// Ranking is the candidates the router found fit, best first, with
	// their scores; optional (a router that ranks nothing leaves it empty
	// and the step records its choice alone). When given, Agent should be
	// its first.
	Ranking []Scored
}

// Scored is a candidate with a router's score for one step.
type Scored struct {
	Agent *Candidate
	Score float64
}

// Router chooses the agent for one step from the candidates' cards. Route
// is called with the agents the registry does not report down; it may be
// called concurrently for different chains. It returns an error only when it
// could not decide (a model that does not answer); "no suitable agent" is a
// Decision without an Agent.
type Router interface {
	Route(ctx context.Context, q Query, candidates []Candidate) (Decision, error)
}

// Delegator is implemented by routers that hand the whole chain to an
// orchestrator of the user's, itself an A2A agent (the a2a router). The
// runner then sends that agent one message with the chain and learns which
// agent did each step by watching the fleet's proxies.
type Delegator interface {
	// OrchestratorURL is the base URL of the user's orchestrator agent.
	OrchestratorURL() string
	// Brief is the message that hands it the chain.
	Brief(d Delegation) *a2a.Message
}

// ErrDelegates is what Route of a Delegator returns: it routes whole
// chains only.
var ErrDelegates = errors.New("this router takes whole chains; run it through a Runner")

// RouterConfig is what a router constructor gets.
type RouterConfig struct {
	// Arg is the text after "=" in a router spec such as "a2a=URL".
	Arg string
	// LLM is the model client, needed by the llm router.
	LLM *llm.Client
	// HTTPClient is for routers that call out (default: http.DefaultClient).
	HTTPClient *http.Client
	Logger     *slog.Logger
}

var (
	routersMu sync.RWMutex
	routers   = map[string]func(RouterConfig) (Router, error){}
)

// RegisterRouter makes a router constructor available under name. It
// panics if name is taken or ctor is nil; call it from init.
func RegisterRouter(name string, ctor func(RouterConfig) (Router, error)) {
	routersMu.Lock()
	defer routersMu.Unlock()
	if ctor == nil {
		panic("orchestrator: RegisterRouter with a nil constructor for " + name)
	}
	if _, dup := routers[name]; dup {
		panic("orchestrator: RegisterRouter called twice for " + name)
	}
	routers[name] = ctor
}

// Routers lists the registered router names, sorted.
func Routers() []string {
	routersMu.RLock()
	defer routersMu.RUnlock()
	names := make([]string, 0, len(routers))
	for n := range routers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// NewRouter builds the router named by spec: a name ("bm25", "llm") or a
// name and an argument ("a2a=http://127.0.0.1:9000").
func NewRouter(spec string, cfg RouterConfig) (Router, error) {
	name, arg, _ := strings.Cut(strings.TrimSpace(spec), "=")
	routersMu.RLock()
	ctor := routers[name]
	routersMu.RUnlock()
	if ctor == nil {
		return nil, fmt.Errorf("unknown router %q (want one of: %s)", spec, strings.Join(Routers(), ", "))
	}
	cfg.Arg = arg
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = http.DefaultClient
	}
	r, err := ctor(cfg)
	if err != nil {
		return nil, fmt.Errorf("router %s: %w", name, err)
	}
	return r, nil
}
