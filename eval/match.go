package eval

import (
	"math"

	"github.com/agentnet/agentnet/internal/bm25"
	"github.com/agentnet/agentnet/tasks"
)

// DefaultMatchThreshold is the lexical similarity from which a generated
// skill and a ground-truth skill are taken to describe the same capability.
const DefaultMatchThreshold = 0.3

// coverMargin is how close to its best match a generated skill's other
// matches must be to count as covered too.
const coverMargin = 0.05

// SkillText is what the matcher reads of a generated skill.
type SkillText struct {
	ID          string `json:"id"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description"`
}

// SkillMatch is the outcome of matching generated skills against a repo's
// ground truth.
type SkillMatch struct {
	Precision float64 `json:"precision"` // share of generated skills some ground-truth skill supports, 0–1
	Recall    float64 `json:"recall"`    // share of ground-truth skills some generated skill covers, 0–1
	// Supported[i] is the ground-truth id that best supports generated skill i ("" when none).
	Supported []string `json:"supported"`
	// Covered maps each ground-truth id to the generated skill id that best covers it ("" when none).
	Covered map[string]string `json:"covered"`
}

// Similarity is the rule matcher's normalised lexical similarity of two
// texts: the Dice coefficient of their sets of normalised content words
// (lower-cased, stop words dropped, light stemming — the same normalisation
// as BM25 routing), in 0–1. MatchSkills weighs the words by how rare they
// are among the skills compared; Similarity weighs them equally.
func Similarity(a, b string) float64 { return weightedDice(wordSet(a), wordSet(b), nil) }

// weightedDice is 2·w(A∩B)/(w(A)+w(B)), with weight 1 for words missing
// from idf.
func weightedDice(a, b map[string]bool, idf map[string]float64) float64 {
	w := func(t string) float64 {
		if v, ok := idf[t]; ok {
			return v
		}
		return 1
	}
	var shared, total float64
	for t := range a {
		total += w(t)
		if b[t] {
			shared += w(t)
		}
	}
	for t := range b {
		total += w(t)
	}
	if total == 0 {
		return 0
	}
	return 2 * shared / total
}

// idfOver returns ln(1 + N/df) for every word of the texts: words that every
// skill of a repo shares ("mass", "formula" in a chemistry tool) say little
// about which skill is which.
func idfOver(sets []map[string]bool) map[string]float64 {
	df := map[string]int{}
	for _, s := range sets {
		for t := range s {
			df[t]++
		}
	}
	idf := make(map[string]float64, len(df))
	for t, n := range df {
		idf[t] = math.Log(1 + float64(len(sets))/float64(n))
	}
	return idf
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, t := range bm25.Tokenize(s) {
		m[t] = true
	}
	return m
}

func (s SkillText) text() string { return s.ID + " " + s.Name + " " + s.Description }

func truthText(s tasks.Skill) string { return s.ID + " " + s.Description }

// MatchSkills matches generated skills against ground truth with the rule
// matcher: a pair matches when its Similarity reaches threshold. With no
// generated skills precision is 0; with no ground truth recall is 0.
func MatchSkills(generated []SkillText, truth []tasks.Skill, threshold float64) SkillMatch {
	m := SkillMatch{Supported: make([]string, len(generated)), Covered: map[string]string{}}
	best := make([]float64, len(truth))
	gsets, gnames := make([]map[string]bool, len(generated)), make([]map[string]bool, len(generated))
	tsets, tnames := make([]map[string]bool, len(truth)), make([]map[string]bool, len(truth))
	for i, g := range generated {
		gsets[i], gnames[i] = wordSet(g.text()), wordSet(g.ID+" "+g.Name)
	}
	for j, t := range truth {
		tsets[j], tnames[j] = wordSet(truthText(t)), wordSet(t.ID)
	}
	idf := idfOver(append(append([]map[string]bool{}, gsets...), tsets...))
	// A skill's name is a concise label of its capability; its description
	// adds context but also words that dilute the overlap. A pair is as
	// similar as the closer of the two.
	sim := func(i, j int) float64 {
		return max(weightedDice(gsets[i], tsets[j], idf), weightedDice(gnames[i], tnames[j], idf))
	}
	supported, covered := 0, 0
	for i, g := range generated {
		sims := make([]float64, len(truth))
		top := 0.0
		for j := range truth {
			sims[j] = sim(i, j)
			if sims[j] >= threshold && sims[j] > top {
				top, m.Supported[i] = sims[j], truth[j].ID
			}
		}
		if m.Supported[i] == "" {
			continue
		}
		supported++
		// A generated skill covers the ground-truth skill it matches best
		// (and any within a hair of it), not every one it shares words with:
		// a skill is one capability.
		for j, t := range truth {
			if sims[j] >= threshold && sims[j] >= top-coverMargin && sims[j] > best[j] {
				best[j], m.Covered[t.ID] = sims[j], g.ID
			}
		}
	}
	for _, t := range truth {
		if _, ok := m.Covered[t.ID]; ok {
			covered++
		} else {
			m.Covered[t.ID] = ""
		}
	}
	if len(generated) > 0 {
		m.Precision = float64(supported) / float64(len(generated))
	}
	if len(truth) > 0 {
		m.Recall = float64(covered) / float64(len(truth))
	}
	return m
}
