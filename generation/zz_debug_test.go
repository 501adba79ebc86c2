package generation_test

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/eval"
	"github.com/agentnet/agentnet/tasks"
)

var sentRE = regexp.MustCompile(`[.!?…]\s+`)

func TestZZDump(t *testing.T) {
	want := os.Getenv("DBG_REPO")
	if want == "" {
		t.Skip()
	}
	s, _ := tasks.Load(demoSuite)
	for _, r := range s.Repos {
		if want != "all" && r.ID != want {
			continue
		}
		_, b := generateDemo(t, r)
		for _, v := range []int{0, 12, 13, 14} {
			var gen []eval.SkillText
			for _, sk := range b.Skills {
				sents := sentRE.Split(sk.Description, -1)
				n := min(v+1, len(sents))
				name := sk.Name
				if v == 4 {
					n = min(2, len(sents))
					name = ""
				}
				desc := strings.Join(sents[:n], ". ")
				if v >= 5 {
					var ps []string
					props, _ := sk.Params["properties"].(map[string]any)
					for _, p := range props {
						if m, ok := p.(map[string]any); ok {
							if d, ok := m["description"].(string); ok {
								ps = append(ps, d)
							}
						}
					}
					desc = strings.Join(sents[:min(v-4, len(sents))], ". ") + " " + strings.Join(ps, " ")
				}
				if v >= 12 {
					var ps []string
					props, _ := sk.Params["properties"].(map[string]any)
					for name, p := range props {
						if name == "json" || name == "output" || name == "o" || name == "delimiter" || name == "d" {
							continue
						}
						if m, ok := p.(map[string]any); ok {
							if d, ok := m["description"].(string); ok && m["type"] != "string" || v == 14 {
								f := strings.Fields(strings.Split(d, "(")[0])
								ps = append(ps, strings.Join(f[:min(len(f), v-6)], " "))
							}
						}
					}
					desc = sk.Description + " Options: " + strings.Join(ps, "; ")
				} else if v >= 8 {
					k := v - 7
					n := 1
					if len(strings.Fields(sents[0])) < 4+k {
						n = min(2, len(sents))
					}
					desc = strings.Join(sents[:n], ". ")
				}
				_ = desc
				gen = append(gen, eval.SkillText{ID: sk.ID, Name: name, Description: desc})
			}
			m := eval.MatchSkills(gen, r.Skills, eval.DefaultMatchThreshold)
			fmt.Printf("%s variant %d: P %.2f R %.2f %v\n", r.ID, v, m.Precision, m.Recall, m.Supported)
		}
	}
}
