package generation

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/generation/static"
)

// Static is the "static" generator: analysis of the repository's entry
// points, builds and help texts, no model (see package static).
type Static struct{}

var _ Generator = (*Static)(nil)

// NewStatic returns the static generator.
func NewStatic() *Static { return &Static{} }

// Generate implements Generator.
func (s *Static) Generate(ctx context.Context, job *Job) (*Output, error) {
	res, err := analyse(ctx, job)
	o := &Output{Tokens: Known(0, 0, "none")}
	if res != nil {
		o.Missing, o.Notes = missingOf(res), res.Notes
	}
	if err != nil {
		return o, err
	}
	if err := os.WriteFile(filepath.Join(job.Bundle, bundle.FileName), res.YAML, 0o644); err != nil {
		return o, fmt.Errorf("write bundle: %w", err)
	}
	if res.Python != nil {
		if err := writeEnvironment(job.Bundle, res.Python); err != nil {
			return o, err
		}
	}
	return o, nil
}

// analyse runs the static analysis of a job's repository.
func analyse(ctx context.Context, job *Job) (*static.Result, error) {
	rel, err := filepath.Rel(job.Bundle, job.RepoDir)
	if err != nil {
		return nil, err
	}
	source := job.RepoSource
	if !bundle.IsGitURL(source) {
		source = filepath.ToSlash(rel)
	}
	return static.Generate(ctx, job.RepoDir, static.Options{
		Name: job.Name, Source: source, Ref: job.RepoRef, Bundle: job.Bundle, Env: job.Env, Log: job.Log, Logger: job.Logger,
		InstallSystemDeps: job.InstallSystemDeps,
	})
}

// EnvironmentFile is where a bundle records the environment synthesised
// for its repository (the interpreter, the venv, the Debian packages), for
// runtimes that build an image for the agent.
const EnvironmentFile = ".agentnet/environment.json"

func writeEnvironment(bundleDir string, env *static.PythonEnv) error {
	data, err := json.MarshalIndent(env, "", "  ")
	if err != nil {
		return fmt.Errorf("record the environment: %w", err)
	}
	p := filepath.Join(bundleDir, filepath.FromSlash(EnvironmentFile))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("record the environment: %w", err)
	}
	return os.WriteFile(p, append(data, '\n'), 0o644)
}

func missingOf(res *static.Result) []MissingModule {
	var out []MissingModule
	for _, m := range res.Missing {
		out = append(out, MissingModule{Module: m.Module, Debian: m.Debian})
	}
	return out
}
