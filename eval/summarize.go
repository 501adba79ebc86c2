package eval

import (
	"github.com/agentnet/agentnet/tasks"
)

// Summarize computes r.Summary from r.Repos and r.Tasks, with pass@k at k.
// Trials with status infra_error are excluded from every rate.
func Summarize(r *Results, k int) {
	// No list is ever null in results.json.
	for i := range r.Repos {
		if r.Repos[i].Skills == nil {
			r.Repos[i].Skills = []SkillText{}
		}
		if r.Repos[i].Attempts == nil {
			r.Repos[i].Attempts = []AttemptResult{}
		}
	}
	if r.Repos == nil {
		r.Repos = []RepoResult{}
	}
	if r.Tasks == nil {
		r.Tasks = []TaskResult{}
	}
	var gen []Attempts
	var precision, recall float64
	for _, repo := range r.Repos {
		a := Attempts{}
		for _, at := range repo.Attempts {
			a.OK = append(a.OK, at.OK)
			var tok *int64
			if at.TokensIn != nil && at.TokensOut != nil {
				v := *at.TokensIn + *at.TokensOut
				tok = &v
			}
			a.Tokens = append(a.Tokens, tok)
		}
		gen = append(gen, a)
		precision += repo.Precision
		recall += repo.Recall
	}
	g := SummarizeGeneration(gen, k)
	r.Summary.Generation = GenerationSummary{
		Repos: g.Repos, Attempts: g.Attempts, K: k,
		PassAt1: round(100 * g.PassAt1), PassAtK: round(100 * g.PassAtK),
		Tries: roundPtr(g.Tries), TokensPerRepo: roundPtr(g.Tokens),
	}
	if n := len(r.Repos); n > 0 {
		r.Summary.Skills = SkillSummary{AvgPrecision: round(precision / float64(n)), AvgRecall: round(recall / float64(n))}
	}

	var single, orch, exec []Outcome
	var routed []StepRouting
	var com CommissionSummary
	var results, devs, closures []float64
	for _, t := range r.Tasks {
		if t.Status == StatusInfraError {
			continue
		}
		switch t.Type {
		case tasks.Single:
			single = append(single, Outcome{Tier: t.Tier, Pass: t.Pass})
		case tasks.Chain:
			ok := t.OrchOK != nil && *t.OrchOK
			orch = append(orch, Outcome{Tier: t.Tier, Pass: ok})
			exec = append(exec, Outcome{Tier: t.Tier, Pass: ok && t.Pass})
			routed = append(routed, RoutedSteps(t)...)
		case tasks.Commission:
			com.N++
			c := t.Commission
			if c == nil {
				continue
			}
			if c.Result != nil {
				results = append(results, *c.Result)
			}
			if c.DevResult != nil {
				devs = append(devs, *c.DevResult)
			}
			if c.GapClosure != nil {
				closures = append(closures, *c.GapClosure)
			}
			for _, cr := range c.Cases {
				if cr.Status == StatusGated {
					com.GateFailures++
				}
			}
		}
	}
	r.Summary.Single = RatesByTier(single)
	r.Summary.Chains = ChainSummary{OrchSR: RatesByTier(orch), ExecSR: RatesByTier(exec)}
	if len(routed) > 0 {
		rs := RoutingByTier(routed)
		r.Summary.Chains.Routing = &rs
	}
	com.Result, com.DevResult, com.GapClosure = mean(results), mean(devs), mean(closures)
	r.Summary.Commission = com
}

func mean(xs []float64) *float64 {
	if len(xs) == 0 {
		return nil
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	v := round(s / float64(len(xs)))
	return &v
}

func roundPtr(p *float64) *float64 {
	if p == nil {
		return nil
	}
	v := round(*p)
	return &v
}
