package bench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/events"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/api/types/swarm"
	"github.com/docker/docker/client"

	"github.com/agentnet/agentnet/deploy/deploytest"
	"github.com/agentnet/agentnet/deploy/docker"
	"github.com/agentnet/agentnet/eval"
)

// swarmBenchTimeout bounds the whole bench run of TestBenchSwarm; past it
// the run is interrupted (and cleans up as on Ctrl-C).
const swarmBenchTimeout = 15 * time.Minute

// swarmSuite writes a suite of two demo repos (their ids made unique with
// id), a chain through both and the commission of testdata/commission
// (its reference, control, held-out cases and hidden tests copied beside
// the suite), and returns its path and the commission's id.
func swarmSuite(t *testing.T, id string) (path, commission string) {
	t.Helper()
	demo, _ := filepath.Abs("../tasks/demo")
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/commission")); err != nil {
		t.Fatal(err)
	}
	html, text, commission := "sb-"+id+"-htmltext", "sb-"+id+"-textstats", "shout-"+id
	suite := `version: 1
name: swarm-bench
repos:
  - id: ` + html + `
    source: ` + filepath.Join(demo, "repos/htmltext") + `
    skills: [{id: extract-text, description: Extract the readable text of a web page.}]
  - id: ` + text + `
    source: ` + filepath.Join(demo, "repos/textstats") + `
    skills: [{id: word-frequency, description: Count word frequencies in a text.}]
tasks:
  - id: page-top-words
    type: chain
    input: {files: [` + filepath.Join(demo, "inputs/htmltext/cold-brew.html") + `]}
    steps:
      - {repo: ` + html + `, instruction: Extract the readable text of this web page.}
      - {repo: ` + text + `, instruction: List the five most frequent words of this text with their counts.}
    expect:
      - matches: "(?m)^cold\\s+9$"
  - id: ` + commission + `
    type: commission
    stage: creation
    requirement: |
      Build an A2A agent with one skill, shout: it answers with the text of the message in upper case.
    cases:
      dev:
        - id: hello
          instruction: Shout this.
          input: {text: hello there, files: [inputs/greeting.txt]}
          expect: [{matches: "^HELLO THERE\\s*$"}]
      heldout: heldout.yaml
    tests: {dir: hidden, command: [sh, run.sh]}
    gates: {startup_timeout: 60s, case_timeout: 30s}
    reference: reference
    controls: [hollow]
`
	path = filepath.Join(dir, "suite.yaml")
	if err := os.WriteFile(path, []byte(suite), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, commission
}

// serviceEvents records the names of the Swarm services created on the
// engine from now on, until the test ends.
type serviceEvents struct {
	mu    sync.Mutex
	names []string
}

func watchServices(t *testing.T, dc *client.Client) *serviceEvents {
	ctx, cancel := context.WithCancel(context.Background())
	msgs, errs := dc.Events(ctx, events.ListOptions{Filters: filters.NewArgs(
		filters.Arg("type", string(events.ServiceEventType)), filters.Arg("event", string(events.ActionCreate)))})
	w := &serviceEvents{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case m := <-msgs:
				w.mu.Lock()
				w.names = append(w.names, m.Actor.Attributes["name"])
				w.mu.Unlock()
			case <-errs:
				return
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	return w
}

// created returns the names recorded that begin with prefix.
func (w *serviceEvents) created(prefix string) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for _, n := range w.names {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	return out
}

// TestBenchSwarm runs "agentnet bench --runtime swarm" end to end on a
// small suite: two demo repos generated and deployed as Swarm services, a
// chain through them, and a commission whose reference and control are
// deployed as services and whose hidden tests run as a Swarm job that
// reaches the delivery on the agents' overlay network. The chain passes,
// the commission's validation is sound, and nothing the run made is left
// on the engine.
func TestBenchSwarm(t *testing.T) {
	self, _ := binaries(t)
	deploytest.Jobs(t)
	deploytest.Swarm(t)
	dc, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dc.Close() })
	var b [3]byte
	rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	suite, commission := swarmSuite(t, id)
	// A safety net first (cleanups run last in, first out): whatever
	// carries the run's id and is left after a failure goes.
	t.Cleanup(func() { removeLeft(t, dc, id) })
	watch := watchServices(t, dc)

	out := filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithTimeout(t.Context(), swarmBenchTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, self, "bench", suite, "--runtime", "swarm", "--out", out, "--json", "--quiet")
	cmd.Env = append(os.Environ(), "AGENTNET_HOME="+t.TempDir())
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGINT) }
	cmd.WaitDelay = 2 * time.Minute
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("agentnet bench --runtime swarm: %v\n%s", err, stderr.String())
	}
	var res eval.Results
	if err := json.Unmarshal(stdout, &res); err != nil {
		t.Fatalf("bench --json printed no results: %v\n%s", err, stdout)
	}
	if res.Config == nil || res.Config.Runtime != "swarm" {
		t.Errorf("results config = %+v, want the swarm runtime", res.Config)
	}
	for _, r := range res.Repos {
		if !r.Generated {
			t.Errorf("repo %s was not generated: %+v", r.ID, r.Attempts)
		}
	}
	byID := map[string]eval.TaskResult{}
	for _, tr := range res.Tasks {
		byID[tr.ID] = tr
	}
	if ch := byID["page-top-words"]; !ch.Pass || ch.OrchOK == nil || !*ch.OrchOK {
		t.Errorf("chain = %s (%s), orchestration ok %v, output %q; want passed through both agents", ch.Status, ch.Reason, ch.OrchOK, ch.Output)
	}
	checkSwarmCommission(t, byID[commission])

	// The agents, the reference and the control ran as Swarm services, the
	// hidden tests as a Swarm job.
	for _, prefix := range []string{"agentnet-a-sb-" + id + "-htmltext", "agentnet-a-sb-" + id + "-textstats",
		"agentnet-a-commission-" + commission + "-", "agentnet-job-tests-" + commission + "-"} {
		if len(watch.created(prefix)) == 0 {
			t.Errorf("no Swarm service %s* was created during the run", prefix)
		}
	}
	if left := leftBehind(t, dc, id); len(left) > 0 {
		t.Errorf("the run left on the engine: %s", strings.Join(left, "; "))
	}
}

// checkSwarmCommission checks the commission's validation: the reference
// passes every case and the three hidden tests (the third fetches the
// delivery's card over the overlay network), the control fails.
func checkSwarmCommission(t *testing.T, tr eval.TaskResult) {
	t.Helper()
	if tr.Commission == nil || tr.Commission.Validation == nil {
		t.Fatalf("commission = %s (%s), want its validation recorded", tr.Status, tr.Reason)
	}
	v := tr.Commission.Validation
	if !v.Sound || len(v.Deliveries) != 2 {
		t.Fatalf("validation = %+v, want sound with 2 deliveries", v)
	}
	ref, ctl := v.Deliveries[0], v.Deliveries[1]
	if !ref.Passes || ref.Tests == nil || ref.Tests.Outcome != eval.TestsPassed || ref.Tests.Passed != 3 {
		t.Errorf("reference = %+v (tests %+v), want every case and the 3 hidden tests passed", ref, ref.Tests)
	}
	if ctl.Passes || !ctl.OK || ctl.Tests == nil || ctl.Tests.Passed != 1 {
		t.Errorf("control = %+v (tests %+v), want it to fail, passing 1 of 3 tests", ctl, ctl.Tests)
	}
}

// leftBehind lists the services, containers, images and networks of
// agentnet on the engine whose labels or name carry id.
func leftBehind(t *testing.T, dc *client.Client, id string) []string {
	t.Helper()
	ctx := context.Background()
	managed := filters.NewArgs(filters.Arg("label", docker.LabelManaged+"=true"))
	carries := func(name string, labels map[string]string) bool {
		if strings.Contains(name, id) {
			return true
		}
		for _, v := range labels {
			if strings.Contains(v, id) {
				return true
			}
		}
		return false
	}
	var left []string
	svcs, err := dc.ServiceList(ctx, swarm.ServiceListOptions{Filters: managed})
	if err != nil {
		t.Errorf("list services: %v", err)
	}
	for _, s := range svcs {
		if carries(s.Spec.Name, s.Spec.Labels) {
			left = append(left, "service "+s.Spec.Name)
		}
	}
	cs, err := dc.ContainerList(ctx, container.ListOptions{All: true, Filters: managed})
	if err != nil {
		t.Errorf("list containers: %v", err)
	}
	for _, c := range cs {
		if carries(strings.Join(c.Names, " "), c.Labels) {
			left = append(left, "container "+c.ID[:12])
		}
	}
	imgs, err := dc.ImageList(ctx, image.ListOptions{Filters: managed})
	if err != nil {
		t.Errorf("list images: %v", err)
	}
	for _, i := range imgs {
		if carries(strings.Join(i.RepoTags, " "), i.Labels) {
			left = append(left, "image "+strings.Join(i.RepoTags, ","))
		}
	}
	nets, err := dc.NetworkList(ctx, network.ListOptions{Filters: managed})
	if err != nil {
		t.Errorf("list networks: %v", err)
	}
	for _, n := range nets {
		if carries(n.Name, n.Labels) {
			left = append(left, "network "+n.Name)
		}
	}
	return left
}

// removeLeft removes what leftBehind finds: only agentnet's objects that
// carry the test's id.
func removeLeft(t *testing.T, dc *client.Client, id string) {
	left := leftBehind(t, dc, id)
	if len(left) == 0 {
		return
	}
	t.Logf("clean-up: removing %s", strings.Join(left, "; "))
	ctx := context.Background()
	managed := filters.NewArgs(filters.Arg("label", docker.LabelManaged+"=true"))
	svcs, _ := dc.ServiceList(ctx, swarm.ServiceListOptions{Filters: managed})
	for _, s := range svcs {
		if strings.Contains(s.Spec.Name, id) {
			dc.ServiceRemove(ctx, s.ID)
		}
	}
	cs, _ := dc.ContainerList(ctx, container.ListOptions{All: true, Filters: managed})
	for _, c := range cs {
		for _, v := range c.Labels {
			if strings.Contains(v, id) {
				dc.ContainerRemove(ctx, c.ID, container.RemoveOptions{Force: true})
				break
			}
		}
	}
	imgs, _ := dc.ImageList(ctx, image.ListOptions{Filters: managed})
	for _, i := range imgs {
		for _, tag := range i.RepoTags {
			if strings.Contains(tag, id) {
				dc.ImageRemove(ctx, tag, image.RemoveOptions{})
			}
		}
	}
	nets, _ := dc.NetworkList(ctx, network.ListOptions{Filters: managed})
	for _, n := range nets {
		if strings.Contains(n.Name, id) {
			dc.NetworkRemove(ctx, n.ID)
		}
	}
}
