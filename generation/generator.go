package generation

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sort"
	"sync"
	"time"
)

// Generator makes one bundle from a repository: it writes agent.yaml into
// Job.Bundle, whose repository copy is ready at Job.RepoDir. It is called
// once per attempt, never concurrently for the same Job, and must stop when
// ctx is done. An error means the attempt failed for the reason it states.
type Generator interface {
	Generate(ctx context.Context, job *Job) (*Output, error)
}

// Job is one attempt's input.
type Job struct {
	// Bundle is the bundle directory to write agent.yaml into.
	Bundle string
	// RepoDir is the repository's directory inside Bundle; RepoSource and
	// RepoRef are what agent.yaml's repo field must say.
	RepoDir    string
	RepoSource string
	RepoRef    string
	// Name is the repository's name.
	Name string
	// Attempt is the attempt's number, from 1; Feedback is why the previous
	// attempt failed, or "".
	Attempt  int
	Feedback string
	// Env is the environment of the processes the generator starts.
	Env []string
	// InstallSystemDeps lets the generator install the Debian packages
	// of missing modules with apt-get.
	InstallSystemDeps bool
	// Log receives the generator's log (commands, model exchanges).
	Log    io.Writer
	Logger *slog.Logger
	// Deadline is when the attempt's time budget ends.
	Deadline time.Time
}

// Output is what a generator reports besides the bundle.
type Output struct {
	Tokens  Tokens
	Missing []MissingModule
	Notes   []string
}

// MissingModule is a module the repository needs that is not installed.
type MissingModule struct {
	Module string `json:"module"`
	Debian string `json:"debian,omitempty"`
}

// Tokens counts a generator's model tokens. In and Out are nil when the
// count is unknown (never reported as 0).
type Tokens struct {
	In     *int64 `json:"in"`
	Out    *int64 `json:"out"`
	Source string `json:"source"` // none (no model), usage, proxy, agent-output, unknown
}

// Known returns counts in and out.
func Known(in, out int64, source string) Tokens { return Tokens{In: &in, Out: &out, Source: source} }

// Unknown is the count of a generator whose tokens could not be measured.
func Unknown() Tokens { return Tokens{Source: "unknown"} }

func (t Tokens) String() string {
	if t.In == nil || t.Out == nil {
		return "unknown"
	}
	return fmt.Sprintf("%d in, %d out (%s)", *t.In, *t.Out, t.Source)
}

// Factory makes a generator from the run's configuration.
type Factory func(cfg *Config) (Generator, error)

var (
	regMu    sync.RWMutex
	registry = map[string]Factory{}
)

// RegisterGenerator makes a generator available by name. It panics on a
// duplicate or empty name; call it from init.
func RegisterGenerator(name string, f Factory) {
	regMu.Lock()
	defer regMu.Unlock()
	if name == "" || f == nil {
		panic("generation: RegisterGenerator with an empty name or nil factory")
	}
	if _, dup := registry[name]; dup {
		panic(fmt.Sprintf("generation: RegisterGenerator called twice for %q", name))
	}
	registry[name] = f
}

// Generators lists the registered names, sorted.
func Generators() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// UnknownGeneratorError reports a generator name nobody registered.
type UnknownGeneratorError struct{ Name string }

func (e *UnknownGeneratorError) Error() string {
	return fmt.Sprintf("unknown generator %q (known: %v)", e.Name, Generators())
}

func newGenerator(cfg *Config) (Generator, error) {
	regMu.RLock()
	f, ok := registry[cfg.Generator]
	regMu.RUnlock()
	if !ok {
		return nil, &UnknownGeneratorError{Name: cfg.Generator}
	}
	return f(cfg)
}

// IsRegistered reports whether name is a registered generator.
func IsRegistered(name string) bool { return slices.Contains(Generators(), name) }
