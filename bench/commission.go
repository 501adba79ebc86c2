package bench

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/agentnet/agentnet/cards"
	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/deploy/docker"
	"github.com/agentnet/agentnet/eval"
	"github.com/agentnet/agentnet/generation"
	"github.com/agentnet/agentnet/orchestrator"
	"github.com/agentnet/agentnet/registry"
	"github.com/agentnet/agentnet/tasks"
)

// Default validity gates of a commission's delivery.
const (
	defaultStartupTimeout = 60 * time.Second
	defaultCaseTimeout    = 120 * time.Second
)

// The splits of a commission's cases.
const (
	splitDev     = "dev"
	splitHeldout = "heldout"
)

// runCommissions evaluates every commission a resumed run does not have.
func (r *run) runCommissions(ctx context.Context) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(r.opts.Parallel)
	for _, c := range r.opts.Suite.Cases {
		if c.Type != tasks.Commission {
			continue
		}
		if _, done := r.store.Task(c.ID); done {
			continue
		}
		g.Go(func() error {
			start := time.Now()
			var res eval.TaskResult
			err := guard(func() error {
				var err error
				res, err = r.commission(ctx, &c)
				return err
			})
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if err != nil {
				res = r.base(&c)
				res.Status, res.Reason = eval.StatusInfraError, err.Error()
			}
			res.DurationMS = time.Since(start).Milliseconds()
			r.bar.finished("%-10s %-32s %-11s %s%s", "commission", c.ID, res.Status, seconds(res.DurationMS), because(res))
			return r.store.SaveTask(res)
		})
	}
	return g.Wait()
}

// evaluator returns the run's evaluator of deliveries.
func (r *run) evaluator() *evaluator {
	return &evaluator{rt: r.rt, jobs: r.jobs, judge: r.judge, registryURL: r.registry.URL, suiteDir: r.opts.Suite.Dir,
		env: r.opts.Env, logger: r.opts.Logger, rel: r.store.Rel}
}

// commission has the run's builder build the commission's delivery,
// freezes it and evaluates it on the development and held-out cases and
// the hidden tests. With no builder (the static generator), it records the
// task's own validation instead, never as a builder's score.
func (r *run) commission(ctx context.Context, c *tasks.Case) (eval.TaskResult, error) {
	res := r.base(c)
	cr := &eval.CommissionResult{Stage: c.Stage, Baseline: c.Baseline, Cases: []eval.CaseResult{}}
	res.Commission = cr
	dir := r.store.TaskDir(c.ID)
	ev := r.evaluator()

	builder, err := generation.NewBuilder(generation.Config{
		Generator: r.opts.Generator, LLM: r.opts.LLM, BuilderCmd: r.opts.BuilderCmd, Env: r.opts.Env, Logger: r.opts.Logger,
		Sandbox: r.sandbox("build-" + c.ID),
	})
	var nb *generation.NotBuilderError
	switch {
	case errors.As(err, &nb):
		res.Status, res.Reason = eval.StatusSkipped, "no builder: "+nb.Error()
		if c.Reference != "" || len(c.Controls) > 0 {
			v, err := ev.validate(ctx, c, filepath.Join(dir, "validation"))
			if err != nil {
				return res, err
			}
			cr.Validation = v
			res.Reason += "; " + validationSummary(v) + " (not a builder's score)"
		}
		return res, nil
	case err != nil:
		return res, err
	}

	delivery := filepath.Join(dir, "delivery")
	os.RemoveAll(delivery)
	why, err := r.build(ctx, c, builder, dir, delivery, &res)
	if err != nil {
		return res, err
	}
	if why == "" {
		sum, err := hashTree(delivery)
		if err != nil {
			return res, err
		}
		cr.Delivery, cr.DeliverySHA = r.store.Rel(delivery), sum
	}
	scores, _, err := ev.evaluate(ctx, c, delivery, why, evalSpec{splits: []string{splitDev, splitHeldout}, tests: true, work: filepath.Join(dir, "eval")}, cr)
	if err != nil {
		return res, err
	}
	cr.DevResult, cr.Result = scores[splitDev], scores[splitHeldout]
	if cr.DevResult != nil && cr.Result != nil {
		g := round2(*cr.DevResult - *cr.Result)
		cr.Gap = &g
	}
	if c.Stage == tasks.Optimization && cr.Result != nil {
		j0 := c.Baseline
		if j0 == nil && c.Workspace != "" {
			// J0 is the starter's own held-out score, on the same cases.
			base := &eval.CommissionResult{}
			s, _, err := ev.evaluate(ctx, c, filepath.Join(r.opts.Suite.Dir, c.Workspace), "", evalSpec{splits: []string{splitHeldout}, work: filepath.Join(dir, "baseline")}, base)
			if err != nil {
				return res, err
			}
			j0 = s[splitHeldout]
			cr.Baseline = j0
		}
		if j0 != nil {
			gc := eval.GapClosure(*cr.Result, *j0)
			cr.GapClosure = &gc
		}
	}
	switch {
	case cr.Result == nil:
		res.Status, res.Reason = eval.StatusInfraError, "no held-out case could be evaluated"
	case cr.Tests != nil && cr.Tests.Outcome == eval.TestsError:
		res.Status, res.Reason = eval.StatusInfraError, "hidden tests: "+cr.Tests.Detail
	case *cr.Result >= 100 && (cr.Reward == nil || *cr.Reward == 1):
		res.Status, res.Pass = eval.StatusPassed, true
	default:
		res.Status = eval.StatusFailed
		switch {
		case why != "":
			res.Status, res.Reason = eval.StatusGated, why
		case *cr.Result < 100:
			res.Reason = fmt.Sprintf("held-out result %.1f of 100", *cr.Result)
		default:
			res.Reason = fmt.Sprintf("hidden tests %s: %d of %d passed", cr.Tests.Outcome, cr.Tests.Passed, cr.Tests.Total)
		}
	}
	return res, nil
}

// evaluator deploys deliveries and scores them on a commission's cases and
// hidden tests. It is safe for concurrent use on different deliveries.
type evaluator struct {
	rt          deploy.Runtime
	jobs        *docker.Jobs // runs the hidden tests beside docker agents; nil: local processes
	judge       eval.Judge
	registryURL string // the registry that validates each delivery's card
	suiteDir    string
	env         []string // the environment of the hidden tests
	logger      *slog.Logger
	rel         func(string) string // how recorded paths are written
}

// evalSpec says what to evaluate a delivery on.
type evalSpec struct {
	splits []string // the case splits, in order
	tests  bool     // also run the hidden tests
	work   string   // a directory of its own for the evaluation's files
}

// evaluate deploys the delivery in dir and scores each case of the spec's
// splits 0–100, then runs the hidden tests against the running delivery.
// A gate failure (the delivery does not start, a case crashes or times
// out) scores 0 and is recorded as gated; a failure of the testbed is an
// infra error and is left out of the means. noDelivery, when not "", is
// why there is nothing to deploy: every case is gated with it. It returns
// the mean score per split and the gate that stopped the delivery from
// starting, or ""; the cases and tests are recorded in cr.
func (e *evaluator) evaluate(ctx context.Context, c *tasks.Case, dir, noDelivery string, spec evalSpec, cr *eval.CommissionResult) (map[string]*float64, string, error) {
	startup, caseTimeout := gates(c)
	gate := noDelivery
	var agent *deploy.Agent
	if gate == "" {
		// The delivery is deployed from a copy, so that its setup never
		// writes into a frozen delivery or the suite's tree.
		deployed := filepath.Join(spec.work, "deployed")
		os.RemoveAll(deployed)
		if err := copyTree(dir, deployed); err != nil {
			return nil, "", fmt.Errorf("copy the delivery: %w", err)
		}
		uctx, cancel := context.WithTimeout(ctx, startup)
		a, err := e.rt.Up(uctx, deploy.Spec{Name: "commission-" + c.ID + "-" + filepath.Base(spec.work), Bundle: deployed, Setup: true})
		cancel()
		switch {
		case ctx.Err() != nil:
			return nil, "", ctx.Err()
		case err != nil:
			gate = "startup failure: " + err.Error()
		default:
			agent = a
			defer e.rt.Down(context.WithoutCancel(ctx), a)
		}
	}
	var cand orchestrator.Candidate
	if agent != nil {
		client := registry.NewClient(e.registryURL)
		rec, _, err := client.Register(ctx, agent.URL)
		if err != nil {
			gate = "startup failure: its card was refused: " + err.Error()
		} else {
			defer client.Delete(context.WithoutCancel(ctx), rec.ID)
			card, err := cards.Parse(rec.Card)
			if err != nil {
				gate = "startup failure: " + err.Error()
			}
			cand = orchestrator.Candidate{ID: rec.ID, URL: rec.URL, Card: card, Status: "up"}
		}
	}
	var runner *orchestrator.Runner
	if gate == "" {
		runner = orchestrator.New(ownAgent{cand}, pickOnly{}, orchestrator.WithStepTimeout(caseTimeout), orchestrator.WithLogger(e.logger))
		defer runner.Close()
	}
	means := map[string]*float64{}
	for _, name := range spec.splits {
		cases := splitCases(c, name)
		var sum float64
		n := 0
		for _, ec := range cases {
			cres := eval.CaseResult{ID: ec.ID, Split: name, Status: eval.StatusGated, Reason: gate}
			if gate == "" {
				var err error
				cres, err = e.evalCase(ctx, c, ec, name, runner)
				if err != nil {
					return nil, "", err
				}
			}
			cr.Cases = append(cr.Cases, cres)
			if cres.Status == eval.StatusInfraError {
				continue
			}
			sum += cres.Score
			n++
		}
		if n > 0 {
			m := round2(sum / float64(n))
			means[name] = &m
		}
	}
	if spec.tests && c.Tests != nil {
		tr := &eval.TestsResult{Outcome: eval.TestsNoSubmission, Detail: gate}
		if gate == "" {
			tr = e.runTests(ctx, c, dir, agent, filepath.Join(spec.work, "tests"))
		}
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		cr.Tests = tr
		if tr.Outcome != eval.TestsError {
			share, reward := 0.0, 0.0
			if tr.Total > 0 {
				share = round2(100 * float64(tr.Passed) / float64(tr.Total))
			}
			if tr.Outcome == eval.TestsPassed {
				reward = 1
			}
			cr.TestsPassed, cr.Reward = &share, &reward
		}
	}
	return means, gate, nil
}

// gates returns the startup and case timeouts of a commission.
func gates(c *tasks.Case) (startup, perCase time.Duration) {
	startup, perCase = defaultStartupTimeout, defaultCaseTimeout
	if c.Gates != nil {
		if c.Gates.StartupTimeout.Duration > 0 {
			startup = c.Gates.StartupTimeout.Duration
		}
		if c.Gates.CaseTimeout.Duration > 0 {
			perCase = c.Gates.CaseTimeout.Duration
		}
	}
	return startup, perCase
}

// splitCases returns a commission's cases of one split.
func splitCases(c *tasks.Case, split string) []tasks.EvalCase {
	if c.Cases == nil {
		return nil
	}
	if split == splitDev {
		return c.Cases.Dev.Cases
	}
	return c.Cases.Heldout.Cases
}

// evalCase runs one commission case against the delivery.
func (e *evaluator) evalCase(ctx context.Context, c *tasks.Case, ec tasks.EvalCase, split string, runner *orchestrator.Runner) (eval.CaseResult, error) {
	cres := eval.CaseResult{ID: ec.ID, Split: split}
	single := tasks.Case{ID: c.ID + "-" + ec.ID, Type: tasks.Single, Repo: c.ID, Instruction: ec.Instruction, Input: ec.Input, Timeout: ec.Timeout}
	ch, err := orchestrator.FromCase(&single, e.suiteDir)
	if err != nil {
		return cres, err
	}
	out, err := runner.Run(ctx, ch, io.Discard)
	if err != nil {
		return cres, err
	}
	switch out.Outcome {
	case orchestrator.OK:
	case orchestrator.InternalError, orchestrator.RegistryFailed:
		cres.Status, cres.Reason = eval.StatusInfraError, out.Detail
		return cres, nil
	case orchestrator.Canceled:
		return cres, ctx.Err()
	default:
		// A crash, an error exit, a timeout: the validity gate fails.
		cres.Status, cres.Reason = eval.StatusGated, fmt.Sprintf("%s: %s", out.Outcome, out.Detail)
		return cres, nil
	}
	output := out.Output.ForChecks()
	// The case's own rubric, else the task's (with its weights).
	rubric := ec.Rubric
	if len(rubric) == 0 {
		rubric = c.Rubric
	}
	v, err := e.judge.Judge(ctx, eval.Judgement{Instruction: ec.Instruction, Checks: ec.Expect, Rubric: rubric, Output: output})
	if err != nil {
		cres.Status, cres.Reason = eval.StatusInfraError, "judge: "+err.Error()
		return cres, nil
	}
	cres.Status, cres.Score, cres.Reason, cres.Checks, cres.Rubric = eval.StatusScored, v.Score, v.Reason, v.Checks, v.Rubric
	return cres, nil
}

// hashTree is the SHA-256 of a directory's files, names and contents, in
// name order: the frozen delivery's fingerprint.
func hashTree(dir string) (string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(files)
	h := sha256.New()
	for _, p := range files {
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// copyTree copies the regular files and directories of src into dst;
// symbolic links are not followed out of src.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type().IsRegular():
			info, err := d.Info()
			if err != nil {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(target, data, info.Mode().Perm())
		}
		return nil
	})
}

func round2(x float64) float64 {
	if x < 0 {
		return -float64(int64(-x*100+0.5)) / 100
	}
	return float64(int64(x*100+0.5)) / 100
}
