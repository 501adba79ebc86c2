package generation_test

import (
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/agentnet/agentnet/internal/bm25"
	"github.com/agentnet/agentnet/tasks"
)

func ws(s string) map[string]bool {
	m := map[string]bool{}
	for _, t := range bm25.Tokenize(s) {
		m[t] = true
	}
	return m
}

func TestZZSim(t *testing.T) {
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
		var sets []map[string]bool
		for _, sk := range b.Skills {
			sets = append(sets, ws(sk.ID+" "+sk.Name+" "+sk.Description))
		}
		for _, tr := range r.Skills {
			sets = append(sets, ws(tr.ID+" "+tr.Description))
		}
		df := map[string]int{}
		for _, s := range sets {
			for w := range s {
				df[w]++
			}
		}
		idf := func(w string) float64 { return math.Log(1 + float64(len(sets))/float64(df[w])) }
		for i, sk := range b.Skills {
			fmt.Printf("%s: %v\n", sk.ID, keys(sets[i]))
			for j, tr := range r.Skills {
				a, bb := sets[i], sets[len(b.Skills)+j]
				var sh, tot float64
				var common []string
				for w := range a {
					tot += idf(w)
					if bb[w] {
						sh += idf(w)
						common = append(common, w)
					}
				}
				for w := range bb {
					tot += idf(w)
				}
				fmt.Printf("   %.2f %s %v\n", 2*sh/tot, tr.ID, common)
			}
		}
		for j, tr := range r.Skills {
			fmt.Printf("TRUTH %s: %v\n", tr.ID, keys(sets[len(b.Skills)+j]))
		}
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
