package orchestrator

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/internal/bm25"
	"github.com/agentnet/agentnet/internal/lazyregexp"
	"github.com/agentnet/agentnet/internal/sqlwords"
)

// BM25 is the default router: it ranks the candidates' cards — name,
// description, and each skill's name, description, tags and examples —
// against the step's instruction with Okapi BM25 and takes the best, or
// none when no card shares a word with the instruction. Its ranking is
// every card that shares a word, by score.
//
// When the step carries files, a card counts only the words of its skills
// that fit them (carried.go): a skill that cannot take the file does not
// pull its agent up. Among cards scored within 5 % of each other, one with
// a skill whose input modes declare the files' types goes first.
type BM25 struct{}

var _ Router = (*BM25)(nil)

// NewBM25 returns the BM25 router.
func NewBM25() *BM25 { return &BM25{} }

// Route ranks the candidates.
func (*BM25) Route(ctx context.Context, q Query, candidates []Candidate) (Decision, error) {
	if len(candidates) == 0 {
		return Decision{Reason: "no agent is registered and up"}, nil
	}
	docs := make([]string, len(candidates))
	for i := range candidates {
		docs[i] = cardText(candidates[i].Card, q.Types)
	}
	ranked := bm25.New(docs).Rank(bm25.Query(q.Instruction))
	if len(carried(q.Types)) > 0 {
		ranked = declaredFirst(ranked, candidates, q.Types)
	}
	sqlSkill := ""
	ranked, sqlSkill = queryFirst(ranked, candidates, q)
	best := ranked[0]
	if best.Score <= 0 && sqlSkill == "" {
		return Decision{Reason: "no card shares a word with the instruction"}, nil
	}
	c := &candidates[best.Doc]
	d := Decision{Agent: c, Score: best.Score, Skill: bestSkill(c.Card, q.Instruction, q.Types)}
	d.Reason = fmt.Sprintf("BM25 %.2f for %q", best.Score, c.Name())
	if sqlSkill != "" {
		d.Skill = sqlSkill
		d.Reason = fmt.Sprintf("the instruction reads as a query of the table the step carries; %q runs SQL (BM25 %.2f)", c.Name(), best.Score)
	}
	if d.Skill != "" {
		d.Reason += fmt.Sprintf(" (skill %s)", d.Skill)
	}
	if len(ranked) > 1 {
		next := ranked[1]
		d.Reason += fmt.Sprintf("; next %q %.2f", candidates[next.Doc].Name(), next.Score)
	}
	for i, r := range ranked {
		if r.Score <= 0 && !(i == 0 && sqlSkill != "") || len(d.Ranking) == MaxRanking {
			break
		}
		d.Ranking = append(d.Ranking, Scored{Agent: &candidates[r.Doc], Score: r.Score})
	}
	return d, nil
}

// cardText is what BM25 ranks a card by for a step carrying files of the
// given types: its name, description and the text of its skills that fit
// them (all of them for a step without files).
func cardText(card *a2a.AgentCard, types []string) string {
	if card == nil {
		return ""
	}
	parts := []string{card.Name, card.Description}
	for i := range card.Skills {
		if fits(card, i, types) {
			parts = append(parts, skillText(&card.Skills[i]))
		}
	}
	return strings.Join(parts, "\n")
}

// fits reports whether the card's skill i may take the step's files.
func fits(card *a2a.AgentCard, i int, types []string) bool {
	return len(carried(types)) == 0 || skillFit(card, &card.Skills[i], types) > Unfit
}

func skillText(s *a2a.AgentSkill) string {
	return strings.Join([]string{s.ID, s.Name, s.Description, strings.Join(s.Tags, " "), strings.Join(s.Examples, " ")}, "\n")
}

// tie is how close, as a share of the better score, two scores are for
// a declared fit to decide between them.
const tie = 0.05

// declaredFirst reorders a ranking so that, of the cards scored within tie
// of the best one left, the best that declares the files' types comes
// next; scores stay as BM25 gave them.
func declaredFirst(ranked []bm25.Result, cands []Candidate, types []string) []bm25.Result {
	left := slices.Clone(ranked)
	out := make([]bm25.Result, 0, len(ranked))
	for len(left) > 0 {
		pick := 0
		for j := range left {
			if left[j].Score <= 0 || left[j].Score < left[0].Score*(1-tie) {
				break
			}
			if cardFit(cands[left[j].Doc].Card, types) == Declares {
				pick = j
				break
			}
		}
		out = append(out, left[pick])
		left = slices.Delete(left, pick, pick+1)
	}
	return out
}

// sqlRE finds SQL named in a skill's text.
var sqlRE = lazyregexp.New(`(?i)\bsql\b`)

// queryFirst moves to the front of the ranking the best ranked card (else
// the first candidate) with a skill that runs SQL and takes the step's
// files, when the step carries one table (q.Columns) and its instruction
// reads as a query of it (internal/sqlwords): "total the hours of each
// crew, largest first" shares no word with such a card. It returns the
// ranking and that skill's id, or the ranking unchanged and "".
func queryFirst(ranked []bm25.Result, cands []Candidate, q Query) ([]bm25.Result, string) {
	if len(q.Columns) == 0 {
		return ranked, ""
	}
	if sql, _ := sqlwords.Query(q.Instruction, "t", q.Columns); sql == "" {
		return ranked, ""
	}
	for i, r := range ranked {
		card := cands[r.Doc].Card
		if card == nil {
			continue
		}
		for j := range card.Skills {
			sk := &card.Skills[j]
			if fits(card, j, q.Types) && sqlRE.MatchString(sk.Name+" "+sk.Description+" "+strings.Join(sk.Tags, " ")) {
				out := append([]bm25.Result{r}, slices.Delete(slices.Clone(ranked), i, i+1)...)
				return out, sk.ID
			}
		}
	}
	return ranked, ""
}

// bestSkill names the card's skill fitting the step's files that matches
// text best, or "".
func bestSkill(card *a2a.AgentCard, text string, types []string) string {
	if card == nil || len(card.Skills) == 0 {
		return ""
	}
	docs := make([]string, len(card.Skills))
	for i := range card.Skills {
		if fits(card, i, types) {
			docs[i] = skillText(&card.Skills[i])
		}
	}
	r := bm25.New(docs).Rank(bm25.Query(text))[0]
	if r.Score <= 0 {
		return ""
	}
	return card.Skills[r.Doc].ID
}
