package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/agentnet/agentnet/eval"
	"github.com/agentnet/agentnet/orchestrator"
	"github.com/agentnet/agentnet/registry"
	"github.com/agentnet/agentnet/tasks"
)

// infraRetries bounds how often a trial that failed through the testbed's
// own fault is tried again before it is recorded as an infra error.
const infraRetries = 2

// runCases runs the single and chain cases a resumed run does not have yet.
func (r *run) runCases(ctx context.Context) error {
	router, err := orchestrator.NewRouter(r.opts.Router, orchestrator.RouterConfig{LLM: r.llm, Logger: r.opts.Logger})
	if err != nil {
		return err
	}
	matcher := orchestrator.WithRepoMatcher(func(repo string, a orchestrator.AgentRef) bool {
		return r.repoOf(a.URL) == repo
	})
	chains := orchestrator.New(RegistryDirectory{registry.NewClient(r.registry.URL)}, router,
		matcher, orchestrator.WithRegistryURL(r.registry.URL), orchestrator.WithRouterName(r.opts.Router),
		orchestrator.WithLogger(r.opts.Logger))
	defer chains.Close()

	var ran, infra atomic.Int32
	var lastInfra atomic.Value // a reason, for the error
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(r.opts.Parallel)
	for _, c := range r.opts.Suite.Cases {
		if c.Type != tasks.Single && c.Type != tasks.Chain {
			continue
		}
		if _, done := r.store.Task(c.ID); done {
			continue
		}
		g.Go(func() error {
			var res eval.TaskResult
			for try := 0; ; try++ {
				err := guard(func() error {
					var err error
					if c.Type == tasks.Single {
						res, err = r.single(ctx, &c, matcher)
					} else {
						res, err = r.chain(ctx, &c, chains)
					}
					return err
				})
				if ctx.Err() != nil {
					return ctx.Err() // interrupted: record nothing, resume runs it again
				}
				if err != nil {
					res = r.base(&c)
					res.Status, res.Reason = eval.StatusInfraError, err.Error()
				}
				res.Tries = try + 1
				if res.Status != eval.StatusInfraError || try >= infraRetries {
					break
				}
			}
			r.bar.finished("%-10s %-32s %-11s %s%s", c.Type, c.ID, res.Status, seconds(res.DurationMS), because(res))
			ran.Add(1)
			if res.Status == eval.StatusInfraError {
				infra.Add(1)
				lastInfra.Store(res.Reason)
			}
			return r.store.SaveTask(res)
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	// A run that measured nothing must not look like one that did: every
	// task the testbed's fault (its agents unreachable) is an error, and
	// resuming runs those tasks again.
	if n := ran.Load(); n > 0 && infra.Load() == n {
		return &AllInfraError{Tasks: int(n), Example: lastInfra.Load().(string), Run: r.opts.Out}
	}
	return nil
}

// AllInfraError is a run in which every task that ran ended in an
// infrastructure error: nothing was measured. The tasks are recorded as
// such, and a resumed run runs them again.
type AllInfraError struct {
	Tasks   int
	Example string // one task's reason
	Run     string // the run directory
}

func (e *AllInfraError) Error() string {
	return fmt.Sprintf("all %d task(s) that ran ended in an infrastructure error, so nothing was measured (one: %s); fix the cause and continue with --resume %s",
		e.Tasks, clip(e.Example, 300), e.Run)
}

func (r *run) base(c *tasks.Case) eval.TaskResult {
	return eval.TaskResult{ID: c.ID, Type: c.Type, Tier: c.Tier(), Repo: c.Repo, Status: eval.StatusFailed}
}

// single sends a single case to its own repo's agent.
func (r *run) single(ctx context.Context, c *tasks.Case, matcher orchestrator.Option) (eval.TaskResult, error) {
	res := r.base(c)
	cand, err := r.candidate(ctx, c.Repo)
	if errors.Is(err, errNoAgent) {
		res.Status, res.Reason = eval.StatusSkipped, fmt.Sprintf("repo %s has no agent", c.Repo)
		return res, nil
	}
	if err != nil {
		return res, err
	}
	runner := orchestrator.New(ownAgent{cand}, pickOnly{}, matcher, orchestrator.WithLogger(r.opts.Logger))
	defer runner.Close()
	ch, err := orchestrator.FromCase(c, r.opts.Suite.Dir)
	if err != nil {
		return res, err
	}
	return r.record(ctx, c, runner, ch, res)
}

// chain runs a chain case through the routing runner.
func (r *run) chain(ctx context.Context, c *tasks.Case, runner *orchestrator.Runner) (eval.TaskResult, error) {
	ch, err := orchestrator.FromCase(c, r.opts.Suite.Dir)
	if err != nil {
		return r.base(c), err
	}
	return r.record(ctx, c, runner, ch, r.base(c))
}

// record runs ch, writes its trace and artifacts into the task's directory
// and judges its output.
func (r *run) record(ctx context.Context, c *tasks.Case, runner *orchestrator.Runner, ch orchestrator.Chain, res eval.TaskResult) (eval.TaskResult, error) {
	dir := r.store.TaskDir(c.ID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, err
	}
	tracePath := filepath.Join(dir, "trace.jsonl")
	trace, err := os.Create(tracePath)
	if err != nil {
		return res, err
	}
	out, err := runner.Run(ctx, ch, trace)
	trace.Close()
	if err != nil {
		return res, err
	}
	res.Trace = r.store.Rel(tracePath)
	res.DurationMS = int64(out.ElapsedMS)
	res.TokensIn = out.Tokens
	for _, st := range out.Steps {
		step := eval.StepResult{
			Index: st.Step, Expected: st.Expected, Score: st.Score, Reason: st.Reason,
			Outcome: string(st.Outcome), DurationMS: int64(st.TotalMS),
		}
		if st.Observed != nil {
			step.Routed = r.repoOf(st.Observed.URL)
		} else if st.Routed != nil {
			step.Routed = r.repoOf(st.Routed.URL)
		}
		if st.Detail != "" {
			step.Reason = strings.TrimSpace(step.Reason + " " + st.Detail)
		}
		for _, rk := range st.Ranking {
			step.Ranking = append(step.Ranking, eval.RankedRepo{Repo: r.repoOf(rk.URL), Agent: rk.Name, Score: rk.Score})
		}
		// Each step's output is kept, so a failed chain shows where it went wrong.
		if st.Output != nil {
			stepDir := filepath.Join(dir, "steps", fmt.Sprint(st.Step))
			if err := os.MkdirAll(stepDir, 0o755); err == nil {
				os.WriteFile(filepath.Join(stepDir, "output.txt"), []byte(st.Output.Text), 0o644)
				for _, f := range st.Output.Files {
					name := filepath.Base(f.Name)
					if os.WriteFile(filepath.Join(stepDir, name), f.Data, 0o644) == nil {
						step.Artifacts = append(step.Artifacts, r.store.Rel(filepath.Join(stepDir, name)))
					}
				}
			}
		}
		res.Steps = append(res.Steps, step)
	}
	if c.Type == tasks.Chain {
		ok := out.OrchestrationOK
		res.OrchOK = &ok
	} else {
		res.Steps = nil // a single case has no routing to show
	}
	switch out.Outcome {
	case orchestrator.OK:
	case orchestrator.InternalError, orchestrator.RegistryFailed:
		res.Status, res.Reason = eval.StatusInfraError, out.Detail
		return res, nil
	case orchestrator.Canceled:
		return res, ctx.Err()
	default:
		res.Status, res.Reason = eval.StatusFailed, fmt.Sprintf("%s: %s", out.Outcome, out.Detail)
		if out.Outcome == orchestrator.TransportFailed || out.Outcome == orchestrator.ProtocolError {
			res.Status = eval.StatusError
		}
		if out.Outcome == orchestrator.TransportFailed {
			if why := r.unreachable(ctx, out.Steps); why != "" {
				// Not the agent's failure: the testbed's own agent is gone.
				res.Status, res.Reason = eval.StatusInfraError, why+": "+out.Detail
			}
		}
		return res, nil
	}
	output := out.Output.ForChecks()
	artDir := filepath.Join(dir, "artifacts")
	for _, f := range output.Files {
		name := f.Name
		if err := os.MkdirAll(artDir, 0o755); err == nil && os.WriteFile(filepath.Join(artDir, name), f.Data, 0o644) == nil {
			res.Artifacts = append(res.Artifacts, r.store.Rel(filepath.Join(artDir, name)))
		}
	}
	res.Output = clip(output.Text, 4000)
	v, err := r.judge.Judge(ctx, eval.Judgement{Instruction: instructionOf(c), Checks: c.Expect, Rubric: c.Rubric, Output: output})
	if err != nil {
		res.Status, res.Reason = eval.StatusFailed, "judge: "+err.Error()
		return res, nil
	}
	res.Pass, res.Checks, res.Reason = v.Pass, v.Checks, v.Reason
	res.TokensIn += v.TokensIn
	res.TokensOut += v.TokensOut
	if v.Pass {
		res.Status = eval.StatusPassed
	}
	return res, nil
}

// unreachable says why a step that could not reach its agent is the
// testbed's fault: the agent it went to is not one this run deployed, or
// this run's agent is down. "" means the agent runs and still failed the
// call: the agent's own failure.
func (r *run) unreachable(ctx context.Context, steps []orchestrator.StepRecord) string {
	for _, st := range steps {
		if st.Outcome != orchestrator.TransportFailed {
			continue
		}
		ref := st.Observed
		if ref == nil {
			ref = st.Routed
		}
		if ref == nil {
			continue
		}
		repo := r.repoOf(ref.URL)
		if repo == "" {
			return fmt.Sprintf("step %d went to %s, which is not one of this run's agents", st.Step, ref.URL)
		}
		r.mu.Lock()
		a := r.agents[repo]
		r.mu.Unlock()
		if a == nil {
			return fmt.Sprintf("step %d went to the agent of %s, which this run no longer serves", st.Step, repo)
		}
		if h := r.rt.Health(ctx, a); !h.Up {
			return fmt.Sprintf("step %d: the agent of %s is down (%s)", st.Step, repo, h.Detail)
		}
	}
	return ""
}

func instructionOf(c *tasks.Case) string {
	if c.Type != tasks.Chain {
		return c.Instruction
	}
	var parts []string
	for i, st := range c.Steps {
		parts = append(parts, fmt.Sprintf("%d. %s", i+1, st.Instruction))
	}
	return strings.Join(parts, "\n")
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "\n[... clipped]"
}
