package bench

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/eval"
	"github.com/agentnet/agentnet/internal/llm"
	"github.com/agentnet/agentnet/registry"
	"github.com/agentnet/agentnet/tasks"
)

// Roles of a delivery in a task validation.
const (
	RoleReference = "reference"
	RoleControl   = "control"
)

// validate is a commission's task validation (Zero2Repo's adversarial
// check): its reference delivery and each control are deployed and run on
// every development and held-out case and the hidden tests. The reference
// must pass them all; each control must fail at least one held-out case
// or hidden test. Files go under work.
func (e *evaluator) validate(ctx context.Context, c *tasks.Case, work string) (*eval.Validation, error) {
	v := &eval.Validation{Sound: true, Deliveries: []eval.DeliveryCheck{}}
	type item struct{ role, path string }
	var items []item
	if c.Reference != "" {
		items = append(items, item{RoleReference, c.Reference})
	}
	for _, ctl := range c.Controls {
		items = append(items, item{RoleControl, ctl})
	}
	os.RemoveAll(work)
	for i, it := range items {
		cr := &eval.CommissionResult{}
		w := filepath.Join(work, fmt.Sprintf("%d-%s", i, it.role))
		_, gate, err := e.evaluate(ctx, c, filepath.Join(e.suiteDir, it.path), "", evalSpec{splits: []string{splitDev, splitHeldout}, tests: true, work: w}, cr)
		if err != nil {
			return nil, fmt.Errorf("validate %s %s: %w", it.role, it.path, err)
		}
		d := eval.DeliveryCheck{Role: it.role, Path: it.path, Tests: cr.Tests, Cases: cr.Cases}
		var failing []string
		infra := false
		for _, cs := range cr.Cases {
			ok := cs.Status == eval.StatusScored && cs.Score >= 100
			if cs.Status == eval.StatusInfraError {
				infra = true
			}
			if cs.Split == splitDev {
				d.DevTotal++
				if ok {
					d.DevPassed++
				}
			} else {
				d.HeldTotal++
				if ok {
					d.HeldPassed++
				}
			}
			if !ok {
				failing = append(failing, fmt.Sprintf("%s %s (%s %.0f)", cs.Split, cs.ID, cs.Status, cs.Score))
			}
		}
		testsOK := cr.Tests == nil || cr.Tests.Outcome == eval.TestsPassed
		if cr.Tests != nil && cr.Tests.Outcome == eval.TestsError {
			infra = true
		}
		if !testsOK {
			failing = append(failing, fmt.Sprintf("hidden tests %s (%d of %d passed)", cr.Tests.Outcome, cr.Tests.Passed, cr.Tests.Total))
		}
		d.Passes = len(failing) == 0
		heldFails := d.HeldPassed < d.HeldTotal || !testsOK
		switch {
		case infra:
			d.Reason = "the testbed failed: " + strings.Join(failing, ", ")
		case gate != "":
			d.Reason = gate
		case len(failing) > 0:
			d.Reason = "fails " + strings.Join(failing, ", ")
		default:
			d.Reason = "passes every case and test"
		}
		if it.role == RoleReference {
			d.OK = d.Passes && !infra
		} else {
			d.OK = heldFails && !infra
			if !heldFails && !infra {
				d.Reason = "passes every held-out case and hidden test: it controls nothing"
			}
		}
		v.Sound = v.Sound && d.OK
		v.Deliveries = append(v.Deliveries, d)
	}
	return v, nil
}

// VerifyOptions configure Verify.
type VerifyOptions struct {
	Suite *tasks.Suite
	// Self is the agentnet executable (its "serve" hosts the deliveries).
	Self string
	// Env is the environment of the deliveries and the hidden tests.
	Env []string
	// Runtime deploys the deliveries (default "process"); with "docker",
	// the hidden tests run in containers beside them.
	Runtime string
	// Judge scores the cases (default "rules"); LLM is its model, if any.
	Judge string
	LLM   *llm.Config
	// Work receives the deployed copies, logs and test outputs; a
	// temporary directory, removed at the end, when "".
	Work     string
	Parallel int // commissions in flight at most (default 2)
	Logger   *slog.Logger
	Progress io.Writer
}

// Verified is one commission's task validation.
type Verified struct {
	ID         string           `json:"id"`
	Validation *eval.Validation `json:"validation"`
}

// Verify runs the task validation of every commission of the suite that
// names a reference or controls (`suite verify`, docs/suite.md): each
// delivery is deployed on the runtime (a local process by default), registered in an embedded
// registry and run on the development and held-out cases and the hidden
// tests. The error is for a verification that could not run.
func Verify(ctx context.Context, o VerifyOptions) ([]Verified, error) {
	if o.Judge == "" {
		o.Judge = "rules"
	}
	if o.Runtime == "" {
		o.Runtime = "process"
	}
	if o.Parallel <= 0 {
		o.Parallel = 2
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	work := o.Work
	if work == "" {
		tmp, err := os.MkdirTemp("", "agentnet-verify-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		work = tmp
	}
	var model *llm.Client
	if o.LLM != nil {
		model = llm.New(*o.LLM)
	}
	judge, err := eval.NewJudge(o.Judge, eval.JudgeOptions{LLM: model})
	if err != nil {
		return nil, err
	}
	rt, err := deploy.Open(o.Runtime, deploy.Config{Self: o.Self, Env: o.Env, LogDir: filepath.Join(work, "logs")})
	if err != nil {
		return nil, err
	}
	jobs, err := openJobs(o.Runtime, o.Env)
	if err != nil {
		return nil, err
	}
	if jobs != nil {
		defer jobs.Close(context.WithoutCancel(ctx))
	}
	reg, err := registry.Start(ctx, registry.ServerConfig{Addr: "127.0.0.1:0", DB: filepath.Join(work, "registry.db"), Logger: o.Logger.With("component", "registry")})
	if err != nil {
		return nil, fmt.Errorf("start the registry: %w", err)
	}
	defer reg.Close()
	ev := &evaluator{rt: rt, jobs: jobs, judge: judge, registryURL: reg.URL, suiteDir: o.Suite.Dir, env: o.Env, logger: o.Logger,
		rel: func(p string) string { return p }}

	var out []Verified
	for _, c := range o.Suite.Cases {
		if c.Type == tasks.Commission && (c.Reference != "" || len(c.Controls) > 0) {
			out = append(out, Verified{ID: c.ID})
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(o.Parallel)
	i := 0
	for _, c := range o.Suite.Cases {
		if c.Type != tasks.Commission || (c.Reference == "" && len(c.Controls) == 0) {
			continue
		}
		slot := &out[i]
		i++
		g.Go(func() error {
			return guard(func() error {
				v, err := ev.validate(gctx, &c, filepath.Join(work, "tasks", c.ID))
				if err != nil {
					return err
				}
				slot.Validation = v
				if o.Progress != nil {
					fmt.Fprintf(o.Progress, "verify %-28s %s\n", c.ID, validationSummary(v))
				}
				return nil
			})
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// validationSummary is a validation in one line.
func validationSummary(v *eval.Validation) string {
	ref, ctl, ctlOK := "no reference", 0, 0
	for _, d := range v.Deliveries {
		if d.Role == RoleReference {
			ref = "reference fails"
			if d.OK {
				ref = "reference passes"
			}
			continue
		}
		ctl++
		if d.OK {
			ctlOK++
		}
	}
	verdict := "sound"
	if !v.Sound {
		verdict = "UNSOUND"
	}
	return fmt.Sprintf("task validation %s: %s, %d of %d controls fail", verdict, ref, ctlOK, ctl)
}
