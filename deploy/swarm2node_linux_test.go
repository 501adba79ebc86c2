package deploy_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/swarm"
	"github.com/docker/docker/client"

	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/deploy/deploytest"
	"github.com/agentnet/agentnet/deploy/docker"
	swarmrt "github.com/agentnet/agentnet/deploy/swarm"
)

// TestSwarmTwoNodes runs the swarm runtime on a swarm of two nodes: the
// machine's engine as the manager, and a second Docker daemon, started by
// the test in a network namespace of its own joined to this one by a veth
// pair, as a worker. The manager is paused once the gateway runs, so the
// second agent's task can only run on the worker: its image must have been
// loaded there through the worker's Docker API (AGENTNET_SWARM_NODES), and
// its card must answer at its registered URL, through the gateway on the
// manager and the overlay network between the nodes; Down removes what it
// loaded onto the worker. Everything goes at the end: the services, the
// worker, its namespace and link, and the swarm, which the test makes for
// itself (advertising the veth address) and holds alone while it runs.
func TestSwarmTwoNodes(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("a second Docker daemon in a network namespace needs root")
	}
	for _, bin := range []string{"ip", "nsenter", "dockerd"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Skipf("no %s to start a second Docker daemon in a network namespace: %v", bin, err)
		}
	}
	dockerClient(t)
	exe := agentnetBinary(t)
	var suffix [3]byte
	rand.Read(suffix[:])
	id := hex.EncodeToString(suffix[:])
	link := newVethNamespace(t, "an2n"+id, suffix[2])
	dc := deploytest.OwnSwarm(t, link.hostIP, 15*time.Minute)
	ctx, cancel := context.WithTimeout(t.Context(), 12*time.Minute)
	defer cancel()
	start := time.Now()
	wc := startNode(ctx, t, link)
	t.Logf("%s: second daemon up in namespace %s", time.Since(start).Round(time.Second), link.ns)
	workerID := joinWorker(ctx, t, dc, wc, link)
	t.Logf("%s: worker %s joined", time.Since(start).Round(time.Second), shortID(workerID))

	names := []string{"s2-" + id + "-one", "s2-" + id + "-two"}
	cleanupSwarm(t, dc, names)
	env := append(os.Environ(), swarmrt.EnvNodes+"=unix://"+link.sock)
	rt, err := deploy.Open("swarm", deploy.Config{Self: exe, Env: env, ReadyTimeout: 4 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	var agents []*deploy.Agent
	defer func() {
		for _, a := range agents {
			rt.Down(context.WithoutCancel(ctx), a)
		}
	}()
	// The first agent brings the gateway up, pinned to the manager.
	first, err := rt.Up(ctx, deploy.Spec{Name: names[0], Bundle: writeBundle(t, names[0], `[sh, -c, "echo {{text}}"]`)})
	if err != nil {
		t.Fatalf("Up(%s): %v", names[0], err)
	}
	agents = append(agents, first)
	t.Logf("%s: %s up", time.Since(start).Round(time.Second), first.Name)
	// No new task goes to a paused node: the second agent's runs on the
	// worker.
	managerID := setAvailability(ctx, t, dc, "", swarm.NodeAvailabilityPause)
	defer setAvailability(context.WithoutCancel(ctx), t, dc, managerID, swarm.NodeAvailabilityActive)
	second, err := rt.Up(ctx, deploy.Spec{Name: names[1], Bundle: writeBundle(t, names[1], `[sh, -c, "echo {{text}}"]`)})
	if err != nil {
		t.Fatalf("Up(%s) with the manager paused: %v", names[1], err)
	}
	agents = append(agents, second)
	t.Logf("%s: %s up", time.Since(start).Round(time.Second), second.Name)

	checkOnWorker(ctx, t, dc, wc, second, workerID)
	card := fetchCards(t, second.URL)[0].Card
	if card.Name != second.Name {
		t.Errorf("card at %s is %q's, want %s's", second.URL, card.Name, second.Name)
	}
	if h := rt.Health(ctx, second); !h.Up || h.Detail != "1/1 tasks running" {
		t.Errorf("Health(%s) = %+v, want up with 1/1 tasks running", second.Name, h)
	}

	downed := agents
	agents = nil
	for _, a := range downed {
		if err := rt.Down(ctx, a); err != nil {
			t.Errorf("Down(%s): %v", a.Name, err)
		}
	}
	waitNoContainers(ctx, t, wc, second)
	// Down took what it loaded onto the worker away again, the gateway's
	// image with the last agent (the worker holds nothing else of
	// agentnet's).
	imgs, err := wc.ImageList(ctx, image.ListOptions{Filters: filters.NewArgs(filters.Arg("label", docker.LabelManaged+"=true"))})
	if err != nil || len(imgs) > 0 {
		var tags []string
		for _, img := range imgs {
			tags = append(tags, img.RepoTags...)
		}
		t.Errorf("images agentnet made are left on the worker after Down: %v %v", tags, err)
	}
	t.Logf("%s: both agents down", time.Since(start).Round(time.Second))
}

// vethNamespace is a network namespace joined to this one by a veth pair,
// and where the second daemon's socket is.
type vethNamespace struct {
	ns, hostIf, hostIP, nodeIP string
	dir, sock                  string
}

// newVethNamespace makes the namespace name and a veth pair between it and
// this namespace, on a private /24 picked by octet; both go when the test
// ends.
func newVethNamespace(t *testing.T, name string, octet byte) *vethNamespace {
	t.Helper()
	net := fmt.Sprintf("10.213.%d.", octet)
	l := &vethNamespace{ns: name, hostIf: name + "h", hostIP: net + "1", nodeIP: net + "2"}
	if out, _ := exec.Command("ip", "-4", "addr", "show").Output(); strings.Contains(string(out), " "+net) {
		t.Skipf("%s0/24 is in use on this machine", net)
	}
	ip := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	ip("netns", "add", name)
	t.Cleanup(func() { exec.Command("ip", "netns", "del", name).Run() })
	ip("link", "add", l.hostIf, "type", "veth", "peer", "name", name+"w")
	t.Cleanup(func() { exec.Command("ip", "link", "del", l.hostIf).Run() })
	ip("link", "set", name+"w", "netns", name)
	ip("addr", "add", l.hostIP+"/24", "dev", l.hostIf)
	ip("link", "set", l.hostIf, "up")
	ip("-n", name, "addr", "add", l.nodeIP+"/24", "dev", name+"w")
	ip("-n", name, "link", "set", name+"w", "up")
	ip("-n", name, "link", "set", "lo", "up")
	return l
}

// startNode starts a Docker daemon in the namespace, with a data root, an
// exec root and a socket of its own (and the vfs storage driver, which
// needs nothing of the host), and returns a client of it; the daemon is
// stopped, and its files removed, when the test ends. nsenter enters the
// network namespace alone: "ip netns exec" would also mount a fresh /sys,
// hiding the cgroup hierarchies the daemon needs.
func startNode(ctx context.Context, t *testing.T, l *vethNamespace) *client.Client {
	t.Helper()
	dir, err := os.MkdirTemp("", "an2n-")
	if err != nil {
		t.Fatal(err)
	}
	l.dir, l.sock = dir, filepath.Join(dir, "docker.sock")
	conf := filepath.Join(dir, "daemon.json")
	if err := os.WriteFile(conf, []byte(`{"storage-driver": "vfs", "log-driver": "json-file"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	logf, err := os.Create(filepath.Join(dir, "dockerd.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("nsenter", "--net=/var/run/netns/"+l.ns, "dockerd", "--config-file", conf,
		"--data-root", filepath.Join(dir, "data"), "--exec-root", filepath.Join(dir, "exec"),
		"--pidfile", filepath.Join(dir, "dockerd.pid"), "-H", "unix://"+l.sock)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start dockerd: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		stopNode(t, cmd, exited)
		logf.Close()
		if err := os.RemoveAll(dir); err != nil {
			t.Logf("remove the second daemon's files: %v", err)
		}
	})
	c, err := client.NewClientWithOpts(client.WithHost("unix://"+l.sock), client.WithAPIVersionNegotiation())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	wait, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		if _, err := c.Ping(wait); err == nil {
			return c
		}
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("the second dockerd ended: %v\n%s", err, tail(filepath.Join(dir, "dockerd.log")))
		case <-wait.Done():
			t.Fatalf("the second dockerd does not answer on %s within a minute\n%s", l.sock, tail(filepath.Join(dir, "dockerd.log")))
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// stopNode stops the daemon the test started: SIGTERM, and after half a
// minute SIGKILL to its process group (its containerd with it).
func stopNode(t *testing.T, cmd *exec.Cmd, exited chan error) {
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		t.Log("the second dockerd did not stop within 30 s; killing its process group")
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	}
	// Its containerd (and shims) were started in its process group.
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

func tail(path string) string {
	data, _ := os.ReadFile(path)
	if len(data) > 4000 {
		data = data[len(data)-4000:]
	}
	return string(data)
}

// joinWorker joins the second daemon to the swarm as a worker, waits for
// the manager to see it ready and returns its node id; the worker leaves
// the swarm and the manager forgets it when the test ends.
func joinWorker(ctx context.Context, t *testing.T, dc, wc *client.Client, l *vethNamespace) string {
	t.Helper()
	sw, err := dc.SwarmInspect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	err = wc.SwarmJoin(ctx, swarm.JoinRequest{ListenAddr: l.nodeIP + ":2377", AdvertiseAddr: l.nodeIP,
		RemoteAddrs: []string{l.hostIP + ":2377"}, JoinToken: sw.JoinTokens.Worker})
	if err != nil {
		t.Fatalf("join the second daemon to the swarm at %s: %v", l.hostIP, err)
	}
	info, err := wc.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	nodeID := info.Swarm.NodeID
	t.Cleanup(func() {
		bg := context.Background()
		wc.SwarmLeave(bg, true)
		dc.NodeRemove(bg, nodeID, swarm.NodeRemoveOptions{Force: true})
	})
	wait, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	for {
		n, _, err := dc.NodeInspectWithRaw(wait, nodeID)
		if err == nil && n.Status.State == swarm.NodeStateReady {
			return nodeID
		}
		select {
		case <-wait.Done():
			t.Fatalf("the worker %s is not ready within 2 minutes: %+v, %v", shortID(nodeID), n.Status, err)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// setAvailability sets the availability of the node id (the engine's own
// when empty) and returns its id.
func setAvailability(ctx context.Context, t *testing.T, dc *client.Client, id string, a swarm.NodeAvailability) string {
	t.Helper()
	if id == "" {
		info, err := dc.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		id = info.Swarm.NodeID
	}
	n, _, err := dc.NodeInspectWithRaw(ctx, id)
	if err == nil {
		n.Spec.Availability = a
		err = dc.NodeUpdate(ctx, id, n.Version, n.Spec)
	}
	if err != nil {
		t.Errorf("set node %s %s: %v", shortID(id), a, err)
	}
	return id
}

// checkOnWorker checks that the agent's one running task is on the worker,
// whose engine runs its container from the agent image loaded there.
func checkOnWorker(ctx context.Context, t *testing.T, dc, wc *client.Client, a *deploy.Agent, workerID string) {
	t.Helper()
	tasks, err := dc.TaskList(ctx, swarm.TaskListOptions{Filters: filters.NewArgs(
		filters.Arg("service", a.ID), filters.Arg("desired-state", "running"))})
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 1 || tasks[0].NodeID != workerID || tasks[0].Status.State != swarm.TaskStateRunning {
		t.Fatalf("tasks of %s = %+v, want one running on the worker %s", a.Name, tasks, shortID(workerID))
	}
	svc, _, err := dc.ServiceInspectWithRaw(ctx, a.ID, swarm.ServiceInspectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ref := svc.Spec.TaskTemplate.ContainerSpec.Image
	if _, err := wc.ImageInspect(ctx, ref); err != nil {
		t.Errorf("the worker's engine has no image %s: %v", ref, err)
	}
	cs, err := wc.ContainerList(ctx, container.ListOptions{Filters: filters.NewArgs(
		filters.Arg("label", "com.docker.swarm.service.id="+a.ID), filters.Arg("status", "running"))})
	if err != nil || len(cs) != 1 || cs[0].Image != ref {
		t.Errorf("the worker's containers of %s = %+v, %v; want one running %s", a.Name, cs, err, ref)
	}
}

// waitNoContainers waits until the worker's engine has no container of the
// agent's service left.
func waitNoContainers(ctx context.Context, t *testing.T, wc *client.Client, a *deploy.Agent) {
	t.Helper()
	wait, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	f := filters.NewArgs(filters.Arg("label", "com.docker.swarm.service.id="+a.ID))
	for {
		cs, err := wc.ContainerList(wait, container.ListOptions{All: true, Filters: f})
		if err == nil && len(cs) == 0 {
			return
		}
		if errors.Is(wait.Err(), context.DeadlineExceeded) {
			t.Errorf("the worker still has %d container(s) of %s after Down: %v", len(cs), a.Name, err)
			return
		}
		select {
		case <-wait.Done():
		case <-time.After(250 * time.Millisecond):
		}
	}
}

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
