package orchestrator

import (
	"context"
	"fmt"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/internal/bm25"
)

// BM25 is the default router: it ranks the candidates' cards — name,
// description, and each skill's name, description, tags and examples —
// against the step's instruction with Okapi BM25 and takes the best, or
// none when no card shares a word with the instruction. Its ranking is
// every card that shares a word, by score.
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
		docs[i] = cardText(candidates[i].Card)
	}
	ranked := bm25.New(docs).Rank(bm25.Query(q.Instruction))
	best := ranked[0]
	if best.Score <= 0 {
		return Decision{Reason: "no card shares a word with the instruction"}, nil
	}
	c := &candidates[best.Doc]
	d := Decision{Agent: c, Score: best.Score, Skill: bestSkill(c.Card, q.Instruction)}
	d.Reason = fmt.Sprintf("BM25 %.2f for %q", best.Score, c.Name())
	if d.Skill != "" {
		d.Reason += fmt.Sprintf(" (skill %s)", d.Skill)
	}
	if len(ranked) > 1 {
		next := ranked[1]
		d.Reason += fmt.Sprintf("; next %q %.2f", candidates[next.Doc].Name(), next.Score)
	}
	for _, r := range ranked {
		if r.Score <= 0 || len(d.Ranking) == MaxRanking {
			break
		}
		d.Ranking = append(d.Ranking, Scored{Agent: &candidates[r.Doc], Score: r.Score})
	}
	return d, nil
}

// cardText is what BM25 ranks a card by.
func cardText(card *a2a.AgentCard) string {
	if card == nil {
		return ""
	}
	parts := []string{card.Name, card.Description}
	for i := range card.Skills {
		parts = append(parts, skillText(&card.Skills[i]))
	}
	return strings.Join(parts, "\n")
}

func skillText(s *a2a.AgentSkill) string {
	return strings.Join([]string{s.ID, s.Name, s.Description, strings.Join(s.Tags, " "), strings.Join(s.Examples, " ")}, "\n")
}

// bestSkill names the card's skill that matches text best, or "".
func bestSkill(card *a2a.AgentCard, text string) string {
	if card == nil || len(card.Skills) == 0 {
		return ""
	}
	docs := make([]string, len(card.Skills))
	for i := range card.Skills {
		docs[i] = skillText(&card.Skills[i])
	}
	r := bm25.New(docs).Rank(bm25.Query(text))[0]
	if r.Score <= 0 {
		return ""
	}
	return card.Skills[r.Doc].ID
}
