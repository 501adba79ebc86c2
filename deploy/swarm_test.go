package deploy_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/api/types/swarm"
	"github.com/docker/docker/client"
	ggcrregistry "github.com/google/go-containerregistry/pkg/registry"

	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/deploy/deploytest"
	"github.com/agentnet/agentnet/deploy/docker"
	swarmrt "github.com/agentnet/agentnet/deploy/swarm"
	"github.com/agentnet/agentnet/generation"
	"github.com/agentnet/agentnet/orchestrator"
)

// swarmManager makes the machine's engine a swarm manager for the test
// (deploytest.Swarm: shared with every other test using the swarm at the
// time, in this binary or another, and left by the last of them when the
// tests made it).
func swarmManager(t testing.TB, _ *client.Client) {
	t.Helper()
	deploytest.Swarm(t)
}

// cleanupSwarm removes at the end of the test whatever carries the agent
// names and was left behind: services, their images, and the gateway and
// networks when no agentnet service is left.
func cleanupSwarm(t *testing.T, dc *client.Client, names []string) {
	t.Cleanup(func() {
		ctx := context.Background()
		for _, name := range names {
			f := filters.NewArgs(filters.Arg("label", docker.LabelAgent+"="+name))
			svcs, _ := dc.ServiceList(ctx, swarm.ServiceListOptions{Filters: f})
			for _, s := range svcs {
				t.Logf("clean-up: removing service %s left by %s", s.Spec.Name, name)
				dc.ServiceRemove(ctx, s.ID)
			}
		}
		cleanupDocker(t, dc, names)
	})
}

// demoBundles generates the bundles of two demo repos.
func demoBundles(t *testing.T, repos ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, r := range repos {
		wg.Go(func() {
			dir := filepath.Join(t.TempDir(), r)
			rep, err := generation.Run(t.Context(), generation.Config{Repo: filepath.Join("..", "tasks", "demo", "repos", r), Out: dir, Env: os.Environ()})
			if err != nil || !rep.OK() {
				t.Errorf("generate %s: %v (%+v)", r, err, rep)
				return
			}
			mu.Lock()
			out[r] = dir
			mu.Unlock()
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	return out
}

// cardDirectory is the orchestrator's view of a fleet, as a registry
// keeps it: the cards fetched once, when the agents came up.
type cardDirectory []orchestrator.Candidate

func (d cardDirectory) Agents(ctx context.Context) ([]orchestrator.Candidate, error) { return d, nil }

func fetchCards(t *testing.T, urls ...string) cardDirectory {
	t.Helper()
	var out cardDirectory
	for _, u := range urls {
		card, err := agentcard.DefaultResolver.Resolve(t.Context(), u)
		if err != nil {
			t.Fatalf("card of %s: %v", u, err)
		}
		out = append(out, orchestrator.Candidate{ID: u, URL: u, Card: card, Status: "up"})
	}
	return out
}

// TestSwarmRuntime brings two demo agents up as Swarm services, runs a
// chain through them, scales one to two replicas, kills containers and
// sees Swarm replace them while the chain's transport retry carries on,
// and takes everything down again.
func TestSwarmRuntime(t *testing.T) {
	dc := dockerClient(t)
	swarmManager(t, dc)
	start := time.Now()
	exe := agentnetBinary(t)
	ctx := t.Context()
	bundles := demoBundles(t, "htmltext", "textstats")
	t.Logf("%s: built agentnet, generated the bundles", time.Since(start).Round(time.Second))
	var suffix [3]byte
	rand.Read(suffix[:])
	id := hex.EncodeToString(suffix[:])
	names := map[string]string{"htmltext": "sw-" + id + "-htmltext", "textstats": "sw-" + id + "-textstats"}
	cleanupSwarm(t, dc, []string{names["htmltext"], names["textstats"]})

	rt, err := deploy.Open("swarm", deploy.Config{Self: exe, Env: os.Environ(), ReadyTimeout: 3 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	agents := map[string]*deploy.Agent{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for repo, name := range names {
		wg.Go(func() {
			a, err := rt.Up(ctx, deploy.Spec{Name: name, Bundle: bundles[repo]})
			if err != nil {
				t.Errorf("Up(%s) error = %v", name, err)
				return
			}
			mu.Lock()
			agents[repo] = a
			mu.Unlock()
		})
	}
	wg.Wait()
	downed := false
	defer func() {
		if !downed {
			for _, a := range agents {
				rt.Down(context.Background(), a)
			}
		}
	}()
	if t.Failed() {
		t.FailNow()
	}
	t.Logf("%s: both agents up", time.Since(start).Round(time.Second))
	gateway := ""
	for _, a := range agents {
		if !strings.HasPrefix(a.URL, "http://127.0.0.1:") || !strings.HasSuffix(a.URL, "/"+a.Name+"/") || a.Runtime != "swarm" {
			t.Fatalf("Up() = %+v, want http://127.0.0.1:PORT/%s/ on the swarm runtime", a, a.Name)
		}
		if h := rt.Health(ctx, a); !h.Up || h.Detail != "1/1 tasks running" {
			t.Errorf("Health(%s) = %+v, want up with 1/1 tasks running", a.Name, h)
		}
		gateway = a.URL[:len(a.URL)-len(a.Name)-1]
		checkService(t, dc, a)
	}
	for _, name := range []string{swarmrt.Network, swarmrt.EdgeNetwork} {
		n, err := dc.NetworkInspect(ctx, name, network.InspectOptions{})
		if err != nil || n.Driver != "overlay" || n.Labels[docker.LabelManaged] != "true" {
			t.Errorf("network %s = %+v, %v; want an overlay network labelled by agentnet", name, n, err)
		}
		if name == swarmrt.Network && !n.Internal {
			t.Errorf("network %s is not internal: the agents would have a route out", name)
		}
	}

	urls := fetchCards(t, agents["htmltext"].URL, agents["textstats"].URL)
	run := func(label string) *orchestrator.Result {
		t.Helper()
		router, err := orchestrator.NewRouter("bm25", orchestrator.RouterConfig{})
		if err != nil {
			t.Fatal(err)
		}
		r := orchestrator.New(urls, router, orchestrator.WithStepTimeout(2*time.Minute),
			orchestrator.WithRetry(12, 500*time.Millisecond, 5*time.Second))
		defer r.Close()
		html := "<html><head><title>Swarm</title></head><body><h1>Replicas</h1><p>replicas replace replicas; replicas answer.</p></body></html>"
		res, err := r.Run(ctx, orchestrator.Chain{
			ID:    "swarm-" + label,
			Input: orchestrator.Input{Files: []orchestrator.File{{Name: "page.html", Data: []byte(html)}}},
			Steps: []orchestrator.Step{
				{Repo: "htmltext", Instruction: "Extract the readable text of this web page."},
				{Repo: "textstats", Instruction: "Count the frequency of each word in this text."},
			},
		}, nil)
		if err != nil {
			t.Fatalf("chain %s: %v", label, err)
		}
		for _, st := range res.Steps {
			t.Logf("chain %s step %d: %s, %d attempt(s) %s", label, st.Step, st.Outcome, st.Attempts, st.Detail)
		}
		if res.Outcome != orchestrator.OK || !res.OrchestrationOK || !strings.Contains(strings.ToLower(res.Output.Text), "words") {
			t.Fatalf("chain %s = %s (%s), orchestration ok %v, output %q; want ok with the text's words counted",
				label, res.Outcome, res.Detail, res.OrchestrationOK, res.Output.Text)
		}
		return res
	}
	run("first")
	t.Logf("%s: first chain done", time.Since(start).Round(time.Second))

	// A Swarm job beside an agent (as a commission's hidden tests run)
	// reaches it on the overlay network.
	jobs, err := swarmrt.NewJobs(deploy.Config{Env: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	defer jobs.Close(context.Background())
	res := jobs.Run(ctx, docker.JobSpec{Name: "sw-" + id + "-beside", Argv: []string{exe, "fleet", "probe", docker.BesideURLOf(agents["htmltext"])},
		Beside: agents["htmltext"], Timeout: 2 * time.Minute})
	if res.Err != nil {
		t.Errorf("a job beside htmltext could not fetch its card at %s: %v\n%s", docker.BesideURLOf(agents["htmltext"]), res.Err, res.Stderr)
	}

	// Two replicas of textstats; the gateway reaches either by the
	// service's DNS name.
	scaler, ok := rt.(deploy.Scaler)
	if !ok {
		t.Fatal("the swarm runtime is no deploy.Scaler")
	}
	ts := agents["textstats"]
	if err := scaler.Scale(ctx, ts, 2); err != nil {
		t.Fatal(err)
	}
	before := waitRunning(t, dc, ts, 2, nil)

	// Kill the one replica of htmltext and one of textstats: the chain
	// starts while htmltext has no task running, its transport retry
	// carries it over to the task Swarm starts in the killed one's place.
	ht := agents["htmltext"]
	htBefore := waitRunning(t, dc, ht, 1, nil)
	for _, c := range []string{htBefore[0], before[0]} {
		if err := dc.ContainerKill(ctx, c, "KILL"); err != nil {
			t.Fatal(err)
		}
	}
	// The killed container is gone at once; Swarm starts its replacement
	// after the restart delay (a second) and routes to it only once its
	// health check has passed, so the chain begins while no htmltext task
	// answers.
	if deploy.CardAnswers(ctx, ht.URL) == nil {
		t.Fatalf("htmltext's card still answers at %s after its only container was killed", ht.URL)
	}
	chain := run("during-replacement")
	if chain.Steps[0].Attempts < 2 {
		t.Errorf("step 1 went through in %d attempt(s) while htmltext had no running task; want the retry to carry it", chain.Steps[0].Attempts)
	}
	waitRunning(t, dc, ht, 1, htBefore[:1])
	waitRunning(t, dc, ts, 2, before[:1])
	if h := rt.Health(ctx, ts); !h.Up || h.Detail != "2/2 tasks running" {
		t.Errorf("Health(%s) = %+v, want up with 2/2 tasks running", ts.Name, h)
	}

	t.Logf("%s: replicas replaced", time.Since(start).Round(time.Second))
	// Down removes exactly what Up made.
	downed = true
	for _, a := range agents {
		if err := rt.Down(ctx, a); err != nil {
			t.Errorf("Down(%s) error = %v", a.Name, err)
		}
	}
	for _, a := range agents {
		if _, _, err := dc.ServiceInspectWithRaw(ctx, a.ID, swarm.ServiceInspectOptions{}); err == nil {
			t.Errorf("service of %s still there after Down", a.Name)
		}
		imgs, _ := dc.ImageList(ctx, image.ListOptions{Filters: filters.NewArgs(filters.Arg("label", docker.LabelAgent+"="+a.Name))})
		if len(imgs) > 0 {
			t.Errorf("images of %s still there after Down: %v", a.Name, imgs[0].RepoTags)
		}
		if h := rt.Health(ctx, a); h.Up || h.Detail != "service gone" {
			t.Errorf("Health(%s) after Down = %+v, want service gone", a.Name, h)
		}
	}
	others, _ := dc.ServiceList(ctx, swarm.ServiceListOptions{Filters: filters.NewArgs(filters.Arg("label", docker.LabelRole+"=agent"))})
	if len(others) == 0 {
		// No fleet of another test or user is left: the shared things go.
		if _, _, err := dc.ServiceInspectWithRaw(ctx, swarmrt.Gateway, swarm.ServiceInspectOptions{}); err == nil {
			t.Error("the gateway service is still there with no agent left")
		}
		for _, name := range []string{swarmrt.Network, swarmrt.EdgeNetwork} {
			if _, err := dc.NetworkInspect(ctx, name, network.InspectOptions{}); err == nil {
				t.Errorf("the network %s is still there with no agent left", name)
			}
		}
		if deploy.CardAnswers(ctx, gateway+"x/") == nil {
			t.Error("the gateway still answers")
		}
	}
}

// checkService checks the service spec Up made: labels, limits, restart
// policy, health check fetching the card, the overlay network only.
func checkService(t *testing.T, dc *client.Client, a *deploy.Agent) {
	t.Helper()
	svc, _, err := dc.ServiceInspectWithRaw(t.Context(), a.ID, swarm.ServiceInspectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	spec := svc.Spec
	cs := spec.TaskTemplate.ContainerSpec
	if spec.Labels[docker.LabelManaged] != "true" || spec.Labels[docker.LabelAgent] != a.Name || cs.Labels[docker.LabelManaged] != "true" {
		t.Errorf("service %s labels = %v, container labels %v", a.Name, spec.Labels, cs.Labels)
	}
	lim := spec.TaskTemplate.Resources
	if lim == nil || lim.Limits == nil || lim.Limits.MemoryBytes == 0 || lim.Limits.NanoCPUs == 0 || lim.Limits.Pids == 0 {
		t.Errorf("service %s limits = %+v, want memory, CPU and process limits", a.Name, lim)
	}
	if rp := spec.TaskTemplate.RestartPolicy; rp == nil || rp.Condition != swarm.RestartPolicyConditionAny {
		t.Errorf("service %s restart policy = %+v, want any", a.Name, rp)
	}
	if hc := cs.Healthcheck; hc == nil || !strings.Contains(strings.Join(hc.Test, " "), "fleet probe") {
		t.Errorf("service %s health check = %+v, want the card probe", a.Name, hc)
	}
	if !cs.ReadOnly || cs.User == "" || len(cs.CapabilityDrop) == 0 {
		t.Errorf("service %s containment: read-only %v, user %q, dropped %v", a.Name, cs.ReadOnly, cs.User, cs.CapabilityDrop)
	}
	nets := spec.TaskTemplate.Networks
	overlay, _ := dc.NetworkInspect(t.Context(), swarmrt.Network, network.InspectOptions{})
	if len(nets) != 1 || nets[0].Target != overlay.ID {
		t.Errorf("service %s networks = %+v, want %s only", a.Name, nets, swarmrt.Network)
	}
	// The engine's own health check has run the probe in the container.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		cs, _ := dc.ContainerList(t.Context(), container.ListOptions{Filters: filters.NewArgs(
			filters.Arg("label", "com.docker.swarm.service.id="+a.ID), filters.Arg("health", "healthy"))})
		if len(cs) > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("no container of %s is healthy by its health check", a.Name)
			return
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// waitRunning waits until the agent's service has n running containers
// none of which is in gone, and returns their ids.
func waitRunning(t *testing.T, dc *client.Client, a *deploy.Agent, n int, gone []string) []string {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		cs, err := dc.ContainerList(t.Context(), container.ListOptions{Filters: filters.NewArgs(
			filters.Arg("label", "com.docker.swarm.service.id="+a.ID), filters.Arg("status", "running"))})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, c := range cs {
			if !contains(gone, c.ID) {
				ids = append(ids, c.ID)
			}
		}
		if len(ids) == n && len(cs) == n {
			return ids
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d running containers (%d new), want %d new", a.Name, len(cs), len(ids), n)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// jobWatch is a Tee that, at the job's first output, lists the Swarm
// services of the job's name: a Swarm job runs as one while it runs.
type jobWatch struct {
	t        *testing.T
	dc       *client.Client
	name     string
	once     sync.Once
	services int
}

func (w *jobWatch) Write(p []byte) (int, error) {
	w.once.Do(func() {
		svcs, err := w.dc.ServiceList(context.Background(), swarm.ServiceListOptions{Filters: filters.NewArgs(
			filters.Arg("label", docker.LabelJob+"="+w.name))})
		if err != nil {
			w.t.Error(err)
		}
		for _, s := range svcs {
			if s.Spec.Mode.ReplicatedJob != nil {
				w.services++
			}
		}
	})
	return len(p), nil
}

// TestSwarmJobs runs jobs as Swarm jobs: the command's output and exit
// status come back, its mounts are the only files of this machine it
// sees, its root file system is read-only, it has no network, it is killed
// at its timeout, and no service or container is left.
func TestSwarmJobs(t *testing.T) {
	dc := dockerClient(t)
	swarmManager(t, dc)
	jobs, err := swarmrt.NewJobs(deploy.Config{Env: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { jobs.Close(context.Background()) })
	var suffix [3]byte
	rand.Read(suffix[:])
	name := "sj-" + hex.EncodeToString(suffix[:])
	work := t.TempDir()
	os.Chmod(work, 0o777)

	watch := &jobWatch{t: t, dc: dc, name: name}
	script := "echo out; echo err >&2; awk 'NR>1 && $2==\"00000000\"{n++} END{print n+0}' /proc/net/route; awk '/^Uid:/{print $2}' /proc/self/status; echo made > " + work + "/made.txt; " +
		"touch /rootfile 2>/dev/null || echo read-only; exit 3"
	res := jobs.Run(t.Context(), docker.JobSpec{Name: name, Argv: []string{"sh", "-c", script},
		Mounts: []docker.Mount{{Host: work}}, Timeout: 2 * time.Minute, Tee: watch})
	if res.ExitCode != 3 || res.Err == nil {
		t.Fatalf("job = exit %d, %v; want exit 3 and an error saying so\nstdout %s\nstderr %s", res.ExitCode, res.Err, res.Stdout, res.Stderr)
	}
	out := string(res.Stdout)
	if !strings.Contains(out, "out\n") || !strings.Contains(string(res.Stderr), "err") {
		t.Errorf("stdout %q, stderr %q; want both streams", out, res.Stderr)
	}
	lines := strings.Split(out, "\n")
	if len(lines) < 3 || lines[1] != "0" {
		t.Errorf("the job has default routes, want none:\n%s", out)
	}
	if len(lines) < 3 || lines[2] == "0" || lines[2] == "" {
		t.Errorf("the job ran as root:\n%s", out)
	}
	if !strings.Contains(out, "read-only") {
		t.Errorf("the job wrote to its root file system:\n%s", out)
	}
	if data, err := os.ReadFile(filepath.Join(work, "made.txt")); err != nil || string(data) != "made\n" {
		t.Errorf("the job's file in its mount = %q, %v", data, err)
	}
	if watch.services != 1 {
		t.Errorf("%d Swarm jobs of the name ran, want 1", watch.services)
	}

	res = jobs.Run(t.Context(), docker.JobSpec{Name: name, Argv: []string{"sleep", "60"}, Timeout: 3 * time.Second})
	if !res.TimedOut || res.Err == nil {
		t.Errorf("sleep 60 with a 3 s timeout = %+v, want timed out", res)
	}
	svcs, _ := dc.ServiceList(context.Background(), swarm.ServiceListOptions{Filters: filters.NewArgs(filters.Arg("label", docker.LabelJob+"="+name))})
	cs, _ := dc.ContainerList(context.Background(), container.ListOptions{All: true, Filters: filters.NewArgs(filters.Arg("label", docker.LabelJob+"="+name))})
	if len(svcs)+len(cs) > 0 {
		for _, c := range cs {
			t.Logf("left: %s %s %v", c.ID[:12], c.State, c.Labels)
		}
		t.Errorf("%d services and %d containers of the jobs are left", len(svcs), len(cs))
	}
}

// TestSwarmImageRegistry brings an agent up with an image registry (an
// in-memory one on loopback, which the engine trusts without TLS): its
// image is pushed there and its service runs the registry's name for it;
// Down removes the service, and the local tags.
func TestSwarmImageRegistry(t *testing.T) {
	dc := dockerClient(t)
	swarmManager(t, dc)
	exe := agentnetBinary(t)
	reg := httptest.NewServer(ggcrregistry.New(ggcrregistry.Logger(log.New(io.Discard, "", 0))))
	defer reg.Close()
	host := strings.TrimPrefix(reg.URL, "http://")
	var suffix [3]byte
	rand.Read(suffix[:])
	name := "sr-" + hex.EncodeToString(suffix[:])
	cleanupSwarm(t, dc, []string{name})
	dir := writeBundle(t, name, `[sh, -c, "echo {{text}}"]`)
	rt, err := deploy.Open("swarm", deploy.Config{Self: exe, Env: os.Environ(), ImageRegistry: host, ReadyTimeout: 3 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	a, err := rt.Up(t.Context(), deploy.Spec{Name: name, Bundle: dir})
	if err != nil {
		t.Fatal(err)
	}
	svc, _, err := dc.ServiceInspectWithRaw(t.Context(), a.ID, swarm.ServiceInspectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ref := svc.Spec.TaskTemplate.ContainerSpec.Image
	if !strings.HasPrefix(ref, host+"/agentnet-agent-"+name+":") {
		t.Errorf("the service runs %s, want the registry's name for the agent image", ref)
	}
	repo, tag, _ := strings.Cut(strings.TrimPrefix(ref, host+"/"), ":")
	resp, err := http.Get(reg.URL + "/v2/" + repo + "/manifests/" + tag)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("the registry has no manifest of %s: %v %v", ref, err, resp)
	}
	if resp != nil {
		resp.Body.Close()
	}
	if err := rt.Down(t.Context(), a); err != nil {
		t.Fatal(err)
	}
	if _, err := dc.ImageInspect(t.Context(), ref); err == nil {
		t.Errorf("the local tag %s is still there after Down", ref)
	}
	others, _ := dc.ServiceList(t.Context(), swarm.ServiceListOptions{Filters: filters.NewArgs(filters.Arg("label", docker.LabelRole+"=agent"))})
	if len(others) == 0 {
		imgs, _ := dc.ImageList(t.Context(), image.ListOptions{Filters: filters.NewArgs(filters.Arg("reference", host+"/*"))})
		if len(imgs) > 0 {
			t.Errorf("images named by the registry are left after Down: %v", imgs[0].RepoTags)
		}
	}
}
