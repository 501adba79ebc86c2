package eval

import (
	"math"
	"testing"
)

// TestWilson checks the interval against published values (Newcombe 1998,
// Table I; and the closed forms at k = 0 and k = n: [0, z²/(n+z²)]).
func TestWilson(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		k, n   int
		lo, hi float64 // percent, to 0.01
	}{
		{81, 263, 25.53, 36.62},
		{15, 148, 6.24, 16.05},
		{0, 20, 0, 16.11},
		{1, 29, 0.61, 17.18},
		{0, 10, 0, 27.75},
		{10, 10, 72.25, 100},
		{5, 10, 23.66, 76.34},
		{1, 1, 20.65, 100},
	} {
		got := Wilson(tc.k, tc.n)
		if math.Abs(got.Lo-tc.lo) > 0.01 || math.Abs(got.Hi-tc.hi) > 0.01 {
			t.Errorf("Wilson(%d, %d) = [%.2f, %.2f], want [%.2f, %.2f]", tc.k, tc.n, got.Lo, got.Hi, tc.lo, tc.hi)
		}
	}
}

func TestCountOfRate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		r    Rate
		want Count
		text string
	}{
		{Rate{N: 39, SR: 59.0}, Count{23, 39}, "59.0% [43.4–72.9]"},
		{Rate{N: 3, SR: 66.7}, Count{2, 3}, "66.7% [20.8–93.9]"},
		{Rate{N: 0}, Count{0, 0}, "–"},
	} {
		got := CountOf(tc.r)
		if got != tc.want {
			t.Errorf("CountOf(%+v) = %+v, want %+v", tc.r, got, tc.want)
		}
		if s := got.String(); s != tc.text {
			t.Errorf("%+v.String() = %q, want %q", got, s, tc.text)
		}
	}
}

func TestWilsonPanicsWithoutTrials(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("Wilson(0, 0) did not panic")
		}
	}()
	Wilson(0, 0)
}
