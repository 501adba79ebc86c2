package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/eval"
	"github.com/agentnet/agentnet/generation"
	"github.com/agentnet/agentnet/tasks"
)

// generateAll generates every repo's agent, in parallel, skipping repos a
// resumed run already has.
func (r *run) generateAll(ctx context.Context) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(r.opts.Parallel)
	for _, repo := range r.opts.Suite.Repos {
		if _, ok := r.store.Repo(repo.ID); ok {
			continue
		}
		g.Go(func() error {
			res, err := r.generate(ctx, repo)
			if err != nil {
				return err
			}
			return r.store.SaveRepo(res)
		})
	}
	return g.Wait()
}

// generate runs the generator's attempts on one repo and scores the chosen
// bundle's skills against the repo's ground truth.
func (r *run) generate(ctx context.Context, repo tasks.Repo) (eval.RepoResult, error) {
	res := eval.RepoResult{ID: repo.ID, Domain: repo.Domain, Skills: []eval.SkillText{}}
	source := r.opts.Suite.SourceOf(repo)
	out := filepath.Join(r.store.RepoDir(repo.ID), "bundle")
	os.RemoveAll(out) // a half-finished attempt of an interrupted run
	start := time.Now()
	var rep *generation.Report
	err := guard(func() error {
		var err error
		rep, err = generation.Run(ctx, generation.Config{
			Repo: source, Ref: repo.Ref, Out: out,
			Generator: r.opts.Generator, Attempts: r.opts.Attempts, AllAttempts: r.opts.AllAttempts,
			InstallSystemDeps: r.opts.InstallSystemDeps, Env: r.opts.Env, Logger: r.opts.Logger.With("repo", repo.ID),
			LLM: r.opts.LLM, BuilderCmd: r.opts.BuilderCmd, Sandbox: r.sandbox("generate-" + repo.ID),
		})
		return err
	})
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	if err != nil {
		// The run could not even start: record it as one failed attempt.
		res.Attempts = []eval.AttemptResult{{N: 1, Reason: err.Error(), DurationMS: time.Since(start).Milliseconds()}}
		r.bar.finished("generate   %-32s failed in %s: %v", repo.ID, since(start), err)
		return res, nil
	}
	for _, a := range rep.Attempts {
		res.Attempts = append(res.Attempts, eval.AttemptResult{
			N: a.N, OK: a.OK, Reason: a.Why(),
			DurationMS: int64(a.Duration * 1000), TokensIn: a.Tokens.In, TokensOut: a.Tokens.Out,
		})
	}
	res.Generated = rep.OK()
	if !res.Generated {
		last := res.Attempts[len(res.Attempts)-1]
		r.bar.finished("generate   %-32s no agent after %d attempt(s) in %s; last: %s", repo.ID, len(rep.Attempts), since(start), oneLine(last.Reason))
		return res, nil
	}
	res.Bundle = r.store.Rel(out)
	b, err := bundle.Load(filepath.Join(out, bundle.FileName))
	if err != nil {
		return res, fmt.Errorf("read the bundle generated for %s: %w", repo.ID, err)
	}
	for _, s := range b.Skills {
		st := eval.SkillText{ID: s.ID, Name: s.Name, Description: s.Description}
		for _, p := range s.ParamList() {
			st.Params = append(st.Params, strings.TrimSuffix(p.Name+": "+p.Description, ": "))
		}
		res.Skills = append(res.Skills, st)
	}
	m, err := r.matcher.Match(ctx, res.Skills, repo.Skills)
	if err != nil {
		return res, fmt.Errorf("match the skills of %s: %w", repo.ID, err)
	}
	res.Match = &m
	res.Precision, res.Recall = round1(100*m.Precision), round1(100*m.Recall)
	r.bar.finished("generate   %-32s ok in %s: %d skills, precision %.0f%%, recall %.0f%% (%d attempt(s))",
		repo.ID, since(start), len(res.Skills), res.Precision, res.Recall, len(rep.Attempts))
	return res, nil
}

// deployAll brings up every generated agent.
func (r *run) deployAll(ctx context.Context) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(r.opts.Parallel * 2)
	for _, repo := range r.opts.Suite.Repos {
		res, ok := r.store.Repo(repo.ID)
		if !ok || !res.Generated {
			continue
		}
		g.Go(func() error {
			a, err := r.rt.Up(ctx, deploy.Spec{Name: repo.ID, Bundle: filepath.Join(r.opts.Out, res.Bundle)})
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				// The bundle passed the gate once; failing now is the
				// testbed's trouble, recorded per task as an infra error.
				r.bar.line("deploy     %-32s failed: %v", repo.ID, err)
				r.opts.Logger.Warn("deploy", "repo", repo.ID, "err", err)
				return nil
			}
			r.mu.Lock()
			r.agents[repo.ID] = a
			r.mu.Unlock()
			return nil
		})
	}
	return g.Wait()
}

func round1(x float64) float64 { return float64(int64(x*10+0.5)) / 10 }
