package eval

import (
	"fmt"
	"math"
)

// z95 is the standard normal quantile of a two-sided 95 % interval.
const z95 = 1.959963984540054

// Interval is a confidence interval of a rate, in percent (0–100).
type Interval struct {
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// Wilson returns the 95 % Wilson score interval of k successes in n trials,
// in percent. Unlike the normal approximation it stays within 0–100 and is
// not empty at k = 0 or k = n. It panics when n ≤ 0 or k is outside 0..n:
// a rate of no trials has no interval, and callers check N first.
func Wilson(k, n int) Interval {
	if n <= 0 || k < 0 || k > n {
		panic(fmt.Sprintf("eval.Wilson(%d, %d): want 0 ≤ k ≤ n and n > 0", k, n))
	}
	p, nf, z2 := float64(k)/float64(n), float64(n), z95*z95
	denom := 1 + z2/nf
	center := (p + z2/(2*nf)) / denom
	half := z95 * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / denom
	return Interval{Lo: 100 * math.Max(0, center-half), Hi: 100 * math.Min(1, center+half)}
}

// Count is a rate as successes of trials.
type Count struct {
	K int `json:"k"`
	N int `json:"n"`
}

// CountOf recovers the successes behind a Rate (its SR is k/n rounded).
func CountOf(r Rate) Count {
	return Count{K: int(math.Round(r.SR * float64(r.N) / 100)), N: r.N}
}

// Rate is k/n in percent; 0 when n is 0.
func (c Count) Rate() float64 {
	if c.N == 0 {
		return 0
	}
	return 100 * float64(c.K) / float64(c.N)
}

// CI is the 95 % Wilson interval of c; ok is false when c has no trials.
func (c Count) CI() (Interval, bool) {
	if c.N <= 0 || c.K < 0 || c.K > c.N {
		return Interval{}, false
	}
	return Wilson(c.K, c.N), true
}

// String is "12.3% [4.5–25.6]", or "–" when there are no trials.
func (c Count) String() string {
	ci, ok := c.CI()
	if !ok {
		return "–"
	}
	return fmt.Sprintf("%.1f%% [%.1f–%.1f]", c.Rate(), ci.Lo, ci.Hi)
}

// ciText is the interval of a Rate as "[lo–hi]", or "–".
func ciText(r Rate) string {
	return countCI(CountOf(r))
}
