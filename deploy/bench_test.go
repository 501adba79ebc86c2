package deploy_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/agentnet/agentnet/deploy"
)

// BenchmarkFleetUp brings up a fleet of 20 agents, 8 at a time as "agentnet
// fleet up" does, waits for every card, and takes it down again; each
// iteration is one whole fleet:
//
//	go test ./deploy -run '^$' -bench FleetUp -benchtime 3x
//
// It reports the time to bring the fleet up (s/up; Down is not timed) and,
// on processes, the resident memory of each idle "agentnet serve" process
// once its card answers: MiB/agent is VmRSS, anon-MiB/agent the part of it
// that is the process's own (RssAnon; the rest is pages of the executable,
// which the agents share). Before each fleet the executable's page cache is
// dropped, so every fleet reads it as after a reboot: the pages the kernel
// keeps of a file the linker has just written can make each process map up
// to 4 MiB more of it, differently from one build to the next. On Docker
// every fleet starts with no image: the base image and the 20 agent images
// are built first; on Swarm too, and the agents are services behind the
// gateway (the engine is made a single-node swarm when it is in none, as
// TestSwarmRuntime does). s/down is the time of the fleet's Down, one agent
// after the other as "agentnet fleet down" does (not part of ns/op).
func BenchmarkFleetUp(b *testing.B) {
	const agents, parallel = 20, 8
	dirs := make([]string, agents)
	for i := range dirs {
		name := fmt.Sprintf("bench%02d", i)
		dirs[i] = filepath.Join(b.TempDir(), name)
		os.MkdirAll(dirs[i], 0o755)
		y := "version: 1\nname: " + name + "\ndescription: Echoes text.\nskills:\n  - id: echo\n    name: Echo\n    description: Echo the text.\n" +
			"    params: {type: object, properties: {text: {type: string}}}\n    run: [echo, \"{{text}}\"]\n"
		if err := os.WriteFile(filepath.Join(dirs[i], "agent.yaml"), []byte(y), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, name := range []string{"process", "docker", "swarm"} {
		b.Run(name, func(b *testing.B) {
			exe := agentnetBinary(b)
			if name == "swarm" {
				swarmManager(b, dockerClient(b))
			}
			if name != "process" {
				var names []string
				for i := range dirs {
					names = append(names, fmt.Sprintf("bench%02d-%s", i, name))
				}
				cleanupDocker(b, dockerClient(b), names)
			}
			rt, err := deploy.Open(name, deploy.Config{Self: exe, Env: os.Environ(), LogDir: b.TempDir(), ReadyTimeout: 2 * time.Minute})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			var upTime, downTime time.Duration
			var rss, anon float64
			for b.Loop() {
				b.StopTimer()
				if name == "process" {
					dropPageCache(b, exe)
				}
				start := time.Now()
				b.StartTimer()
				fleet := make([]*deploy.Agent, agents)
				g, gctx := errgroup.WithContext(ctx)
				g.SetLimit(parallel)
				for i, dir := range dirs {
					g.Go(func() (err error) {
						fleet[i], err = rt.Up(gctx, deploy.Spec{Name: fmt.Sprintf("bench%02d-%s", i, name), Bundle: dir})
						return err
					})
				}
				err := g.Wait()
				b.StopTimer()
				upTime += time.Since(start)
				if err == nil && name == "process" {
					for _, a := range fleet {
						r, an := rssMiB(b, a.ID)
						rss += r / agents
						anon += an / agents
					}
				}
				start = time.Now()
				for _, a := range fleet {
					if a != nil {
						if err := rt.Down(ctx, a); err != nil {
							b.Error(err)
						}
					}
				}
				downTime += time.Since(start)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.ReportMetric(upTime.Seconds()/float64(b.N), "s/up")
			b.ReportMetric(downTime.Seconds()/float64(b.N), "s/down")
			if rss > 0 {
				b.ReportMetric(rss/float64(b.N), "MiB/agent")
				b.ReportMetric(anon/float64(b.N), "anon-MiB/agent")
			}
		})
	}
}

// rssMiB is the resident set size of process pid and its anonymous part,
// in MiB.
func rssMiB(tb testing.TB, pid string) (rss, anon float64) {
	data, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		tb.Fatal(err)
	}
	kib := func(field string) float64 {
		for line := range strings.Lines(string(data)) {
			if v, ok := strings.CutPrefix(line, field+":"); ok {
				n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
				if err != nil {
					tb.Fatalf("/proc/%s/status: %s: %v", pid, field, err)
				}
				return float64(n)
			}
		}
		tb.Fatalf("/proc/%s/status: no %s", pid, field)
		return 0
	}
	return kib("VmRSS") / 1024, kib("RssAnon") / 1024
}
