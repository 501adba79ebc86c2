package deploy

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/agentnet/agentnet/cards"
)

// Spec is one agent to bring up.
type Spec struct {
	Name   string // unique in the fleet: the bundle's name or the suite's repo id
	Bundle string // the bundle directory
	Setup  bool   // run the bundle's setup commands first
}

// Agent is a running agent, as recorded in the fleet state.
type Agent struct {
	Name    string    `json:"name"`
	URL     string    `json:"url"`
	Runtime string    `json:"runtime"`
	Bundle  string    `json:"bundle"`
	ID      string    `json:"id"` // the runtime's handle: a pid, a container id
	Log     string    `json:"log,omitempty"`
	Started time.Time `json:"started"`
}

// Health is what a health probe found.
type Health struct {
	Up     bool   `json:"up"`
	Detail string `json:"detail,omitempty"`
}

// Runtime deploys bundles. Implementations are safe for concurrent use.
type Runtime interface {
	// Name is the name the runtime is registered under.
	Name() string
	// Up starts the agent and returns once its card answers, or fails and
	// leaves nothing running.
	Up(ctx context.Context, spec Spec) (*Agent, error)
	// Down stops the agent and everything it started; stopping an agent
	// that is already gone is not an error.
	Down(ctx context.Context, a *Agent) error
	// Health probes the agent.
	Health(ctx context.Context, a *Agent) Health
}

// Scaler is a runtime whose agents run as several replicas (the swarm
// runtime).
type Scaler interface {
	Scale(ctx context.Context, a *Agent, replicas uint64) error
}

// Config is what a runtime constructor gets.
type Config struct {
	// Self is the agentnet executable, whose "serve" command hosts a bundle.
	Self string
	// Env is the environment of the agents' processes.
	Env []string
	// LogDir receives one log file per agent.
	LogDir string
	// Detach lets agents outlive the process that started them (fleet up);
	// otherwise they die with it (bench, demo).
	Detach bool
	// ReadyTimeout bounds the wait for an agent's card (default 60 s).
	ReadyTimeout time.Duration
	// ImageRegistry (host:port) is where the swarm runtime pushes its
	// images for the nodes to pull; empty, it loads them onto each node
	// through the node's Docker API (or reads AGENTNET_IMAGE_REGISTRY).
	ImageRegistry string
	// SignKey, when set, signs each agent's card here; the agent gets only
	// the signatures (host.CardSignaturesEnv). A bundle with its own server
	// cannot be signed this way: Up fails for it.
	SignKey *cards.SigningKey
}

var (
	regMu    sync.Mutex
	registry = map[string]func(Config) (Runtime, error){}
)

// Register makes a runtime constructor available by name. It panics when
// the name is taken; call it from an init function.
func Register(name string, ctor func(Config) (Runtime, error)) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := registry[name]; dup {
		panic(fmt.Sprintf("deploy: runtime %q registered twice", name))
	}
	registry[name] = ctor
}

// Runtimes lists the registered runtime names, sorted.
func Runtimes() []string {
	regMu.Lock()
	defer regMu.Unlock()
	var names []string
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Open returns the runtime registered under name.
func Open(name string, cfg Config) (Runtime, error) {
	regMu.Lock()
	ctor := registry[name]
	regMu.Unlock()
	if ctor == nil {
		return nil, fmt.Errorf("unknown runtime %q (have: %v)", name, Runtimes())
	}
	if cfg.ReadyTimeout == 0 {
		cfg.ReadyTimeout = 60 * time.Second
	}
	return ctor(cfg)
}

// CardAnswers reports whether the agent at url serves its card.
func CardAnswers(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, trimSlash(url)+"/.well-known/agent-card.json", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("card: HTTP %d", resp.StatusCode)
	}
	return nil
}

func trimSlash(s string) string {
	for len(s) > 0 && s[len(s)-1] == '/' {
		s = s[:len(s)-1]
	}
	return s
}
