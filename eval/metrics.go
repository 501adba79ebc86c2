package eval

import (
	"math"

	"github.com/agentnet/agentnet/tasks"
)

// PassAtK is the unbiased pass@k estimator 1 − C(n−c, k)/C(n, k) for n
// attempts of which c succeeded. With fewer attempts than k (n < k) it
// estimates pass@n: 1 when any attempt succeeded, else 0. It returns 0 for
// n = 0.
func PassAtK(n, c, k int) float64 {
	switch {
	case n <= 0 || c <= 0 || k <= 0:
		return 0
	case c > n:
		c = n
	}
	if n < k {
		return 1
	}
	if n-c < k {
		return 1
	}
	// C(n−c, k)/C(n, k) = Π_{i=0}^{k−1} (n−c−i)/(n−i), computed as a product
	// to stay exact enough for large n.
	ratio := 1.0
	for i := 0; i < k; i++ {
		ratio *= float64(n-c-i) / float64(n-i)
	}
	return 1 - ratio
}

// Attempts are the generation attempts of one repo, in order.
type Attempts struct {
	OK     []bool
	Tokens []*int64 // per attempt; nil when unknown
}

// Tries returns the 1-based index of the first successful attempt, or 0 when
// none succeeded.
func (a Attempts) Tries() int {
	for i, ok := range a.OK {
		if ok {
			return i + 1
		}
	}
	return 0
}

// TokensTotal sums the tokens of all attempts; it is unknown (ok false) when
// any attempt's count is unknown.
func (a Attempts) TokensTotal() (int64, bool) {
	var sum int64
	for _, t := range a.Tokens {
		if t == nil {
			return 0, false
		}
		sum += *t
	}
	return sum, len(a.Tokens) > 0
}

// Generation summarises generation over repos.
type Generation struct {
	Repos    int
	Attempts int
	K        int
	PassAt1  float64  // share 0–1, averaged over repos
	PassAtK  float64  // share 0–1, averaged over repos
	Tries    *float64 // mean attempts to the first success over repos that succeeded; nil when none did
	Tokens   *float64 // mean tokens per repo; nil when any repo's count is unknown
}

// SummarizeGeneration computes the generation metrics with pass@k at k.
func SummarizeGeneration(repos []Attempts, k int) Generation {
	g := Generation{Repos: len(repos), K: k}
	var tries, tokens float64
	succeeded, tokensKnown := 0, true
	for _, r := range repos {
		n, c := len(r.OK), 0
		for _, ok := range r.OK {
			if ok {
				c++
			}
		}
		g.Attempts += n
		g.PassAt1 += PassAtK(n, c, 1)
		g.PassAtK += PassAtK(n, c, k)
		if t := r.Tries(); t > 0 {
			tries += float64(t)
			succeeded++
		}
		if sum, ok := r.TokensTotal(); ok {
			tokens += float64(sum)
		} else {
			tokensKnown = false
		}
	}
	if len(repos) > 0 {
		g.PassAt1 /= float64(len(repos))
		g.PassAtK /= float64(len(repos))
		if tokensKnown {
			v := tokens / float64(len(repos))
			g.Tokens = &v
		}
	}
	if succeeded > 0 {
		v := tries / float64(succeeded)
		g.Tries = &v
	}
	return g
}

// Rate is a success rate over n trials.
type Rate struct {
	N  int     `json:"n"`
	SR float64 `json:"sr"` // percent, 0–100
}

// TierRates are success rates by tier and overall.
type TierRates struct {
	Easy    Rate `json:"easy"`
	Medium  Rate `json:"medium"`
	Hard    Rate `json:"hard"`
	Overall Rate `json:"overall"`
}

// Outcome is one scored trial: its tier and whether it passed.
type Outcome struct {
	Tier tasks.Tier
	Pass bool
}

// RatesByTier computes success rates by tier from outcomes. Trials excluded
// from scoring (infra errors) must not be passed in.
func RatesByTier(outcomes []Outcome) TierRates {
	var pass, n [3]int
	for _, o := range outcomes {
		i := tierIndex(o.Tier)
		n[i]++
		if o.Pass {
			pass[i]++
		}
	}
	rate := func(p, n int) Rate {
		if n == 0 {
			return Rate{}
		}
		return Rate{N: n, SR: round(100 * float64(p) / float64(n))}
	}
	return TierRates{
		Easy:    rate(pass[0], n[0]),
		Medium:  rate(pass[1], n[1]),
		Hard:    rate(pass[2], n[2]),
		Overall: rate(pass[0]+pass[1]+pass[2], n[0]+n[1]+n[2]),
	}
}

func tierIndex(t tasks.Tier) int {
	switch t {
	case tasks.Medium:
		return 1
	case tasks.Hard:
		return 2
	}
	return 0
}

// GapClosure is the optimization score S = 100·min(1, (J−J0)/(100−J0)) for a
// result J against a baseline J0, both in 0–100. With J0 = 100 there is no
// gap: S is 100 when J is 100, else 0. A regression gives a negative S.
func GapClosure(j, j0 float64) float64 {
	if j0 >= 100 {
		if j >= 100 {
			return 100
		}
		return 0
	}
	return round(100 * math.Min(1, (j-j0)/(100-j0)))
}

// round rounds to two decimals, as results print them.
func round(x float64) float64 { return math.Round(x*100) / 100 }

// StepSkipped is the outcome of a chain step not run because an earlier
// step failed.
const StepSkipped = "skipped"

// StepRouting is one routed chain step as routing metrics see it.
type StepRouting struct {
	Tier    tasks.Tier // the tier of the step's chain
	Correct bool       // the expected repo's agent got the step's message
	// Ranked says the router's ranking is known; a step whose router chose
	// nothing counts as ranked, with no rank.
	Ranked bool
	Rank   int // the 1-based place of the expected repo's agent in the ranking; 0 when absent
}

// RoutedSteps lists the steps of a chain task that the router was asked
// about: those not skipped after an earlier failure and with an expected
// repo. A step counts as ranked when it records a ranking or reached no
// agent at all.
func RoutedSteps(t TaskResult) []StepRouting {
	var out []StepRouting
	for _, st := range t.Steps {
		if st.Outcome == StepSkipped || st.Expected == "" {
			continue
		}
		sr := StepRouting{Tier: t.Tier, Correct: st.Routed == st.Expected, Ranked: len(st.Ranking) > 0 || st.Routed == ""}
		for i, r := range st.Ranking {
			if r.Repo == st.Expected {
				sr.Rank = i + 1
				break
			}
		}
		out = append(out, sr)
	}
	return out
}

// RoutingByTier computes per-step routing accuracy over steps and
// Recall@1 and Recall@3 over the ranked ones, by tier and overall.
func RoutingByTier(steps []StepRouting) RoutingSummary {
	var acc, at1, at3 []Outcome
	for _, s := range steps {
		acc = append(acc, Outcome{Tier: s.Tier, Pass: s.Correct})
		if s.Ranked {
			at1 = append(at1, Outcome{Tier: s.Tier, Pass: s.Rank == 1})
			at3 = append(at3, Outcome{Tier: s.Tier, Pass: s.Rank >= 1 && s.Rank <= 3})
		}
	}
	return RoutingSummary{Accuracy: RatesByTier(acc), RecallAt1: RatesByTier(at1), RecallAt3: RatesByTier(at3)}
}
