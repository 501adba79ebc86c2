package conformance

import (
	"fmt"
	"strings"

	"github.com/agentnet/agentnet/internal/skillmatch"
)

// Thresholds of the fleet checks, on skillmatch.Similarity's 0–1 scale.
const (
	// IndistinguishableAt is the similarity of two cards' routing text
	// (name, description, skills) from which a router choosing by card
	// cannot tell the agents apart.
	IndistinguishableAt = 0.75
	// CoverAt is the similarity from which one skill covers another.
	CoverAt = 0.5
)

// member is what the fleet checks read of an endpoint's card.
type member struct {
	url, name, desc string
	skills          []skillmatch.Skill
}

func (m member) label() string {
	if m.name != "" {
		return fmt.Sprintf("%s (%s)", m.name, m.url)
	}
	return m.url
}

// routingText is what a router reads of a card.
func (m member) routingText() string {
	var b strings.Builder
	b.WriteString(m.name + " " + m.desc)
	for _, s := range m.skills {
		b.WriteString(" " + s.ID + " " + s.Name + " " + s.Description)
	}
	return b.String()
}

func membersOf(runs []*run) []member {
	var out []member
	for _, r := range runs {
		if r.cardObj == nil {
			continue
		}
		m := member{url: r.base.String(), name: strings.TrimSpace(r.name())}
		m.desc, _ = r.cardObj["description"].(string)
		for _, sk := range skillsOf(r.cardObj) {
			var st skillmatch.Skill
			st.ID, _ = sk["id"].(string)
			st.Name, _ = sk["name"].(string)
			st.Description, _ = sk["description"].(string)
			if text := strings.TrimSpace(st.Name + " " + st.Description); text != "" {
				m.skills = append(m.skills, st)
			}
		}
		out = append(out, m)
	}
	return out
}

// covers reports whether every skill of b is covered by some skill of a.
func covers(a, b member) bool {
	if len(a.skills) == 0 || len(b.skills) == 0 {
		return false
	}
	truth := make([]skillmatch.Skill, len(b.skills))
	for i, s := range b.skills {
		truth[i] = skillmatch.Skill{ID: fmt.Sprintf("%d", i), Description: s.Name + " " + s.Description}
	}
	return skillmatch.Match(a.skills, truth, CoverAt).Recall == 1
}

// fleet runs the fleet checks over the endpoints that served a card.
func fleet(runs []*run) []Result {
	ms := membersOf(runs)
	res := func(id string, st Status, reason string) Result {
		return Result{Check: lookup(id), Status: st, Reason: strings.Join(strings.Fields(reason), " ")}
	}
	if len(ms) < 2 {
		why := fmt.Sprintf("only %d of the %d endpoints served a card", len(ms), len(runs))
		return []Result{res(FleetDuplicateNames, Skip, why), res(FleetIndistinguishable, Skip, why), res(FleetBlurring, Skip, why)}
	}
	var dups, alike, blurred []string
	for i := range ms {
		for j := i + 1; j < len(ms); j++ {
			a, b := ms[i], ms[j]
			if a.name != "" && strings.EqualFold(a.name, b.name) {
				dups = append(dups, fmt.Sprintf("%s and %s are both named %q", a.url, b.url, a.name))
			}
			sim := skillmatch.Similarity(a.routingText(), b.routingText())
			if sim >= IndistinguishableAt {
				alike = append(alike, fmt.Sprintf("%s and %s are %.0f%% alike", a.label(), b.label(), 100*sim))
				continue // blurring says less than that
			}
			if covers(a, b) {
				blurred = append(blurred, fmt.Sprintf("the skills of %s cover every skill of %s", a.label(), b.label()))
			}
			if covers(b, a) {
				blurred = append(blurred, fmt.Sprintf("the skills of %s cover every skill of %s", b.label(), a.label()))
			}
		}
	}
	verdict := func(id string, found []string, tail string) Result {
		if len(found) == 0 {
			return res(id, Pass, "")
		}
		reason := found[0]
		if len(found) > 1 {
			reason += fmt.Sprintf(" (and %d more)", len(found)-1)
		}
		return res(id, Fail, reason+tail)
	}
	return []Result{
		verdict(FleetDuplicateNames, dups, ""),
		verdict(FleetIndistinguishable, alike, ": a router choosing by card cannot tell them apart"),
		verdict(FleetBlurring, blurred, ""),
	}
}
