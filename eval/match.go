package eval

import (
	"math"
	"regexp"
	"strings"

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

// maxViews bounds the sentences of a description read as separate views.
const maxViews = 6

// views returns the word sets a skill is compared by: its label alone
// (id and name), then the label with the first sentence of its
// description, the first two, and so on to the whole. A description says
// what the skill does first and adds details after; the details must not
// cost a skill the match its opening sentences earn, and a detail alone
// never makes one.
func views(label, desc string) []map[string]bool {
	out := []map[string]bool{wordSet(label)}
	sents := sentences(desc)
	if len(sents) > maxViews {
		sents = append(sents[:maxViews-1], strings.Join(sents[maxViews-1:], " "))
	}
	text := label
	for _, s := range sents {
		text += " " + s
		out = append(out, wordSet(text))
	}
	if len(sents) == 0 {
		out = append(out, out[0])
	}
	return out
}

// sentenceEnd is a full stop, question or exclamation mark followed by
// space and a capital letter or digit: "... per cluster. Lines whose ...".
var sentenceEnd = regexp.MustCompile(`[.!?]["')\]]?(\s+)[\p{Lu}\d]`)

// sentences splits s at its sentence ends; the stop after a single letter
// ("e.g. 4:3", "J. Smith") is an abbreviation, not an end.
func sentences(s string) []string {
	s = strings.Join(strings.Fields(s), " ")
	var out []string
	from := 0
	for from < len(s) {
		loc := sentenceEnd.FindStringSubmatchIndex(s[from:])
		if loc == nil {
			break
		}
		stop, next := from+loc[2], from+loc[3]
		word := s[:from+loc[0]]
		if i := strings.LastIndexAny(word, " ."); i >= 0 {
			word = word[i+1:]
		}
		if s[from+loc[0]] == '.' && len([]rune(word)) == 1 {
			from = next
			continue
		}
		out = append(out, s[:stop])
		s, from = s[next:], 0
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

// MatchSkills matches generated skills against ground truth with the rule
// matcher (MatchPairs) and derives precision and recall from its pairs:
// each generated skill is supported by the ground-truth skill it is most
// similar to among its pairs, each ground-truth skill covered by the most
// similar generated skill among its pairs. With no generated skills
// precision is 0; with no ground truth recall is 0.
func MatchSkills(generated []SkillText, truth []tasks.Skill, threshold float64) SkillMatch {
	sims := similarities(generated, truth)
	same := decide(sims, threshold)
	m := SkillMatch{Supported: make([]string, len(generated)), Covered: map[string]string{}}
	best := make([]float64, len(truth))
	supported, covered := 0, 0
	for i, g := range generated {
		top := -1.0
		for j, t := range truth {
			if !same[i][j] {
				continue
			}
			if sims[i][j] > top {
				top, m.Supported[i] = sims[i][j], t.ID
			}
			if sims[i][j] > best[j] || m.Covered[t.ID] == "" {
				best[j], m.Covered[t.ID] = sims[i][j], g.ID
			}
		}
		if m.Supported[i] != "" {
			supported++
		}
	}
	for _, t := range truth {
		if m.Covered[t.ID] != "" {
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

// MatchPairs is the rule matcher's decision for every pair of a repo's
// skills: same[i][j] reports whether generated skill i offers the
// capability of ground-truth skill j. The decision reads the whole repo
// (how rare each word is among its skills, which pairs compete), so it is
// made per repo, never per pair alone.
func MatchPairs(generated []SkillText, truth []tasks.Skill, threshold float64) [][]bool {
	return decide(similarities(generated, truth), threshold)
}

// similarities returns the similarity of every pair: as similar as its
// closest views (label against label, or the opening of one description
// against the opening of the other), words weighed by rarity in the repo.
func similarities(generated []SkillText, truth []tasks.Skill) [][]float64 {
	gviews, tviews := make([][]map[string]bool, len(generated)), make([][]map[string]bool, len(truth))
	var all []map[string]bool
	for i, g := range generated {
		gviews[i] = views(g.ID+" "+g.Name, g.Description)
		all = append(all, gviews[i][len(gviews[i])-1])
	}
	for j, t := range truth {
		tviews[j] = views(t.ID, t.Description)
		all = append(all, tviews[j][len(tviews[j])-1])
	}
	idf := idfOver(all)
	sims := make([][]float64, len(generated))
	for i := range generated {
		sims[i] = make([]float64, len(truth))
		for j := range truth {
			s := weightedDice(gviews[i][0], tviews[j][0], idf)
			for _, g := range gviews[i][1:] {
				for _, t := range tviews[j][1:] {
					s = max(s, weightedDice(g, t, idf))
				}
			}
			sims[i][j] = s
		}
	}
	return sims
}

// decide turns similarities into pairs: a generated skill matches the
// ground-truth skills it reaches threshold with and that are within
// coverMargin of its best — a skill is one capability, not every one it
// shares words with.
func decide(sims [][]float64, threshold float64) [][]bool {
	same := make([][]bool, len(sims))
	for i, row := range sims {
		same[i] = make([]bool, len(row))
		top := 0.0
		for _, s := range row {
			top = max(top, s)
		}
		for j, s := range row {
			same[i][j] = s >= threshold && s >= top-coverMargin
		}
	}
	return same
}
