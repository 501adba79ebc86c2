package generation_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentnet/agentnet/generation"
	"github.com/agentnet/agentnet/tasks"
)

// BenchmarkStaticGenerate times a whole static generation — copy, analysis,
// builds, help probes, the gate (setup, check, host, card) — per demo repo,
// and for the repository named by AGENTNET_BENCH_REPO (a path or git URL),
// when set:
//
//	go test -run '^$' -bench BenchmarkStaticGenerate -benchtime 3x ./generation/
//	AGENTNET_BENCH_REPO=/tmp/some-large-repo go test -run '^$' -bench 'BenchmarkStaticGenerate/extra' -benchtime 1x ./generation/
func BenchmarkStaticGenerate(b *testing.B) {
	s, err := tasks.Load(demoSuite)
	if err != nil {
		b.Fatal(err)
	}
	repos := map[string]string{}
	var order []string
	for _, r := range s.Repos {
		repos[r.ID] = filepath.Join(filepath.Dir(demoSuite), r.Source)
		order = append(order, r.ID)
	}
	if extra := os.Getenv("AGENTNET_BENCH_REPO"); extra != "" {
		repos["extra"] = extra
		order = append(order, "extra")
	}
	for _, id := range order {
		b.Run(id, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				out := filepath.Join(b.TempDir(), fmt.Sprint(i))
				rep, err := generation.Run(b.Context(), generation.Config{Repo: repos[id], Out: out, Env: os.Environ()})
				if err != nil {
					b.Fatal(err)
				}
				if !rep.OK() {
					a := rep.Attempts[0]
					b.Fatalf("%s failed at %s: %s", id, a.Stage, a.Reason)
				}
			}
		})
	}
}
