package eval

import (
	"github.com/agentnet/agentnet/internal/skillmatch"
	"github.com/agentnet/agentnet/tasks"
)

// DefaultMatchThreshold is the similarity from which a generated skill and
// a ground-truth skill are taken to describe the same capability, when the
// pair also stands out among the repo's pairs. It was chosen on the tune
// split of the labeled pairs in testdata/match (see match_calib_test.go and
// BENCHMARKS.md).
const DefaultMatchThreshold = skillmatch.DefaultThreshold

// SkillText is what the matcher reads of a generated skill.
type SkillText struct {
	ID          string `json:"id"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description"`
	// Params are the skill's parameters, each "name: description" (or the
	// name alone): one program's parameters often offer several capabilities.
	Params []string `json:"params,omitempty"`
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
// texts, in 0–1 (see skillmatch.Similarity).
func Similarity(a, b string) float64 { return skillmatch.Similarity(a, b) }

// MatchSkills matches generated skills against ground truth with the rule
// matcher (MatchPairs) and derives precision and recall from its pairs:
// each generated skill is supported by the ground-truth skill it is most
// similar to among its pairs, each ground-truth skill covered by the most
// similar generated skill among its pairs. With no generated skills
// precision is 0; with no ground truth recall is 0.
func MatchSkills(generated []SkillText, truth []tasks.Skill, threshold float64) SkillMatch {
	m := skillmatch.Match(toMatch(generated), truthOf(truth), threshold)
	return SkillMatch{Precision: m.Precision, Recall: m.Recall, Supported: m.Supported, Covered: m.Covered}
}

// MatchPairs is the rule matcher's decision for every pair of a repo's
// skills: same[i][j] reports whether generated skill i offers the
// capability of ground-truth skill j. The decision reads the whole repo
// (how rare each word is among its skills, which pairs compete), so it is
// made per repo, never per pair alone.
func MatchPairs(generated []SkillText, truth []tasks.Skill, threshold float64) [][]bool {
	return skillmatch.Pairs(toMatch(generated), truthOf(truth), threshold)
}

func toMatch(gs []SkillText) []skillmatch.Skill {
	out := make([]skillmatch.Skill, len(gs))
	for i, g := range gs {
		out[i] = skillmatch.Skill{ID: g.ID, Name: g.Name, Description: g.Description, Params: g.Params}
	}
	return out
}

func truthOf(ts []tasks.Skill) []skillmatch.Skill {
	out := make([]skillmatch.Skill, len(ts))
	for i, t := range ts {
		out[i] = skillmatch.Skill{ID: t.ID, Description: t.Description}
	}
	return out
}
