package bench

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/cards"
	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/eval"
	"github.com/agentnet/agentnet/orchestrator"
	"github.com/agentnet/agentnet/registry"
	"github.com/agentnet/agentnet/tasks"
)

// Default validity gates of a commission's delivery.
const (
	defaultStartupTimeout = 60 * time.Second
	defaultCaseTimeout    = 120 * time.Second
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
			r.progress("%-6s %-32s %-11s %s", "commission", c.ID, res.Status, time.Duration(res.DurationMS)*time.Millisecond)
			return r.store.SaveTask(res)
		})
	}
	return g.Wait()
}

// commission builds (or takes) the delivery of a commission, freezes it and
// evaluates it on the development and the held-out cases.
func (r *run) commission(ctx context.Context, c *tasks.Case) (eval.TaskResult, error) {
	res := r.base(c)
	cr := &eval.CommissionResult{Stage: c.Stage, Baseline: c.Baseline, Cases: []eval.CaseResult{}}
	res.Commission = cr
	dir := r.store.TaskDir(c.ID)
	delivery := filepath.Join(dir, "delivery")
	os.RemoveAll(delivery)

	why := r.deliver(ctx, c, delivery)
	if why == "" {
		sum, err := hashTree(delivery)
		if err != nil {
			return res, err
		}
		cr.Delivery, cr.DeliverySHA = r.store.Rel(delivery), sum
	}
	scores, err := r.evaluate(ctx, c, delivery, why, cr)
	if err != nil {
		return res, err
	}
	cr.DevResult, cr.Result = scores["dev"], scores["heldout"]
	if cr.DevResult != nil && cr.Result != nil {
		g := *cr.DevResult - *cr.Result
		cr.Gap = &g
	}
	if c.Stage == tasks.Optimization && cr.Result != nil {
		j0 := c.Baseline
		if j0 == nil && c.Workspace != "" {
			// J0 is the starter's own held-out score.
			base := &eval.CommissionResult{}
			s, err := r.evaluate(ctx, c, filepath.Join(r.opts.Suite.Dir, c.Workspace), "", base)
			if err != nil {
				return res, err
			}
			j0 = s["heldout"]
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
	case *cr.Result >= 100:
		res.Status, res.Pass = eval.StatusPassed, true
	default:
		res.Status = eval.StatusFailed
		if why != "" {
			res.Reason = why
		} else {
			res.Reason = fmt.Sprintf("held-out result %.1f of 100", *cr.Result)
		}
	}
	return res, nil
}

// deliver puts the commission's delivery in dir and returns "" or why there
// is none. The builder is the run's generator: editing and optimization
// start from the workspace (a bundle is delivered as it is unless the
// generator changes it; a repo is generated); creation needs a generator
// that builds from the requirement.
func (r *run) deliver(ctx context.Context, c *tasks.Case, dir string) string {
	if c.Stage == tasks.Creation || c.Workspace == "" {
		return fmt.Sprintf("no delivery: the %s generator builds agents from repositories, not from a requirement", r.opts.Generator)
	}
	ws := filepath.Join(r.opts.Suite.Dir, c.Workspace)
	if _, err := os.Stat(filepath.Join(ws, bundle.FileName)); err == nil {
		if err := copyTree(ws, dir); err != nil {
			return "no delivery: " + err.Error()
		}
		return ""
	}
	res, err := r.generate(ctx, tasks.Repo{ID: c.ID, Source: c.Workspace})
	if err != nil || !res.Generated {
		return "no delivery: the workspace did not generate an agent"
	}
	if err := copyTree(filepath.Join(r.opts.Out, res.Bundle), dir); err != nil {
		return "no delivery: " + err.Error()
	}
	return ""
}

// evaluate deploys the delivery in dir and scores each case 0–100. A gate
// failure (the delivery does not start, a case crashes or times out)
// scores 0 and is recorded as gated; a failure of the testbed is an infra
// error and is left out of the means. It returns the mean score per split.
func (r *run) evaluate(ctx context.Context, c *tasks.Case, dir, noDelivery string, cr *eval.CommissionResult) (map[string]*float64, error) {
	type split struct {
		name  string
		cases []tasks.EvalCase
	}
	var splits []split
	if c.Cases != nil {
		splits = []split{{"dev", c.Cases.Dev.Cases}, {"heldout", c.Cases.Heldout.Cases}}
	}
	startup, caseTimeout := defaultStartupTimeout, defaultCaseTimeout
	if c.Gates != nil {
		if c.Gates.StartupTimeout.Duration > 0 {
			startup = c.Gates.StartupTimeout.Duration
		}
		if c.Gates.CaseTimeout.Duration > 0 {
			caseTimeout = c.Gates.CaseTimeout.Duration
		}
	}
	gate := noDelivery
	var agent *deploy.Agent
	if gate == "" {
		uctx, cancel := context.WithTimeout(ctx, startup)
		a, err := r.rt.Up(uctx, deploy.Spec{Name: "commission-" + c.ID, Bundle: dir, Setup: true})
		cancel()
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			gate = "startup failure: " + err.Error()
		default:
			agent = a
			defer r.rt.Down(context.WithoutCancel(ctx), a)
		}
	}
	var cand orchestrator.Candidate
	if agent != nil {
		client := registry.NewClient(r.registry.URL)
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
		runner = orchestrator.New(ownAgent{cand}, pickOnly{}, orchestrator.WithStepTimeout(caseTimeout), orchestrator.WithLogger(r.opts.Logger))
		defer runner.Close()
	}
	means := map[string]*float64{}
	for _, sp := range splits {
		var sum float64
		n := 0
		for _, ec := range sp.cases {
			cres := eval.CaseResult{ID: ec.ID, Split: sp.name, Status: eval.StatusGated, Reason: gate}
			if gate == "" {
				var err error
				cres, err = r.evalCase(ctx, c, ec, sp.name, runner)
				if err != nil {
					return nil, err
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
			m := float64(int64(sum/float64(n)*100+0.5)) / 100
			means[sp.name] = &m
		}
	}
	return means, nil
}

// evalCase runs one commission case against the delivery.
func (r *run) evalCase(ctx context.Context, c *tasks.Case, ec tasks.EvalCase, split string, runner *orchestrator.Runner) (eval.CaseResult, error) {
	cres := eval.CaseResult{ID: ec.ID, Split: split}
	single := tasks.Case{ID: c.ID + "-" + ec.ID, Type: tasks.Single, Repo: c.ID, Instruction: ec.Instruction, Input: ec.Input, Timeout: ec.Timeout}
	ch, err := orchestrator.FromCase(&single, r.opts.Suite.Dir)
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
	output := tasks.Output{Text: out.Output.Text}
	for _, f := range out.Output.Files {
		output.Files = append(output.Files, tasks.File{Name: filepath.Base(f.Name), Data: f.Data})
	}
	v, err := r.judge.Judge(ctx, eval.Judgement{Instruction: ec.Instruction, Checks: ec.Expect, Rubric: ec.Rubric, Output: output})
	if err != nil {
		cres.Status, cres.Reason = eval.StatusInfraError, "judge: "+err.Error()
		return cres, nil
	}
	cres.Status, cres.Score, cres.Reason, cres.Checks = "scored", v.Score, v.Reason, v.Checks
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
