package tasks

// Tier is a difficulty tier.
type Tier string

// The tiers.
const (
	Easy   Tier = "easy"
	Medium Tier = "medium"
	Hard   Tier = "hard"
)

// Tiers lists the tiers in order.
var Tiers = []Tier{Easy, Medium, Hard}

// Tier computes the case's tier: for a chain from its number of steps
// (easy 2–3, medium 4–5, hard 6+), otherwise from its indicators
// (easy 0–1, medium 2, hard 3–4).
func (c *Case) Tier() Tier {
	if c.Type == Chain {
		return StepTier(len(c.Steps))
	}
	return IndicatorTier(len(c.Indicators))
}

// IndicatorTier maps a number of indicators to a tier.
func IndicatorTier(n int) Tier {
	switch {
	case n <= 1:
		return Easy
	case n == 2:
		return Medium
	}
	return Hard
}

// StepTier maps a chain's number of steps to a tier.
func StepTier(n int) Tier {
	switch {
	case n <= 3:
		return Easy
	case n <= 5:
		return Medium
	}
	return Hard
}
