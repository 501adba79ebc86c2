package swarm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/api/types/swarm"
	"github.com/docker/docker/client"

	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/deploy/docker"
	agentimg "github.com/agentnet/agentnet/deploy/image"
)

func init() {
	deploy.Register("swarm", func(cfg deploy.Config) (deploy.Runtime, error) {
		s, err := New(cfg)
		if err != nil {
			return nil, err
		}
		return s, nil
	})
	docker.RegisterBeside("swarm", docker.Beside{Network: Network, URL: besideURL})
}

// Networks of the swarm runtime. Agents are attached to Network only: an
// internal overlay network, with no route out of the swarm. The gateway is
// attached to it and to EdgeNetwork, which gives its port published on the
// node a way in.
const (
	Network     = "agentnet-swarm"
	EdgeNetwork = "agentnet-swarm-edge"
	// Gateway is the service that routes /NAME/... to the agent
	// service NAME on the overlay network, by the swarm's DNS (each
	// service's virtual IP balances over its replicas).
	Gateway = "agentnet-gateway"
	// servicePrefix prefixes an agent's service name.
	servicePrefix = "agentnet-a-"
	// EnvImageRegistry names an image registry (host:port) the swarm
	// runtime pushes images to, as Config.ImageRegistry does.
	EnvImageRegistry = "AGENTNET_IMAGE_REGISTRY"
	// EnvNodes lists the Docker API addresses (DOCKER_HOST syntax,
	// comma-separated) of the swarm's other nodes, onto which the swarm
	// runtime loads its images when no image registry is given.
	EnvNodes = "AGENTNET_SWARM_NODES"
)

// Runtime is the swarm runtime: it runs each agent as a Swarm service,
// from the images the docker runtime builds, behind one gateway service
// per swarm. It is safe for concurrent use.
type Runtime struct {
	cfg deploy.Config
	d   *docker.Runtime   // builds the images
	img *agentimg.Builder // d's
	api *client.Client

	mu       sync.Mutex // guards the shared things: networks, gateway
	inflight sync.RWMutex
}

var (
	_ deploy.Runtime = (*Runtime)(nil)
	_ deploy.Scaler  = (*Runtime)(nil)
)

// New returns the swarm runtime on the Docker Engine of cfg.Env
// (DOCKER_HOST, else the local socket), a swarm manager; its images go to
// cfg.ImageRegistry, else EnvImageRegistry's, else onto the nodes of
// EnvNodes. deploy.Open("swarm", cfg) calls it.
func New(cfg deploy.Config) (*Runtime, error) {
	c, err := docker.Client(lookupEnv(cfg.Env, "DOCKER_HOST"))
	if err != nil {
		return nil, fmt.Errorf("swarm runtime: %w", err)
	}
	if cfg.ImageRegistry == "" {
		cfg.ImageRegistry = lookupEnv(cfg.Env, EnvImageRegistry)
	}
	d := docker.NewWith(cfg, c)
	return &Runtime{cfg: cfg, d: d, img: d.Images(), api: c}, nil
}

// Name is "swarm".
func (s *Runtime) Name() string { return "swarm" }

// manager returns the local node's id, or why the engine cannot run
// services.
func (s *Runtime) manager(ctx context.Context) (string, error) {
	info, err := s.api.Info(ctx)
	if err != nil {
		return "", err
	}
	if info.Swarm.LocalNodeState != swarm.LocalNodeStateActive || !info.Swarm.ControlAvailable {
		return "", errors.New("the Docker engine is not a swarm manager (docker swarm init makes it one)")
	}
	return info.Swarm.NodeID, nil
}

// Up builds the agent's image as the docker runtime does, makes it
// available on every node, and creates the agent's service on the overlay
// network; it returns once the agent's card answers through the gateway.
func (s *Runtime) Up(ctx context.Context, spec deploy.Spec) (*deploy.Agent, error) {
	if s.cfg.Self == "" {
		return nil, fmt.Errorf("up %s: swarm runtime: no agentnet executable to put in the image", spec.Name)
	}
	nodeID, err := s.manager(ctx)
	if err != nil {
		return nil, fmt.Errorf("up %s: swarm runtime: %w", spec.Name, err)
	}
	dir, err := filepath.Abs(spec.Bundle)
	if err != nil {
		return nil, fmt.Errorf("up %s: %w", spec.Name, err)
	}
	b, err := bundle.Load(dir)
	if err != nil {
		return nil, fmt.Errorf("up %s: %w", spec.Name, err)
	}
	if spec.Setup {
		if err := host.Prepare(ctx, b, true, s.cfg.Env, io.Discard); err != nil {
			return nil, fmt.Errorf("up %s: %w", spec.Name, err)
		}
	}
	s.inflight.RLock()
	a, baseRef, err := s.up(ctx, spec, b, nodeID)
	s.inflight.RUnlock()
	if err != nil {
		s.removeShared(context.WithoutCancel(ctx), baseRef)
		return nil, fmt.Errorf("up %s: %w", spec.Name, err)
	}
	return a, nil
}

// up makes the images and the service; it returns the base image also on
// failure.
func (s *Runtime) up(ctx context.Context, spec deploy.Spec, b *bundle.Bundle, nodeID string) (_ *deploy.Agent, baseRef string, _ error) {
	baseRef, err := s.img.Base(ctx, b)
	if err != nil {
		return nil, "", err
	}
	imageRef, bundleInImage, err := s.img.Agent(ctx, spec.Name, b, baseRef)
	if err != nil {
		return nil, baseRef, err
	}
	ref, err := s.distribute(ctx, imageRef, nodeID)
	if err != nil {
		s.img.Remove(context.WithoutCancel(ctx), imageRef)
		return nil, baseRef, err
	}
	gw, err := s.ensureGateway(ctx, nodeID)
	if err != nil {
		s.img.Remove(context.WithoutCancel(ctx), imageRef)
		return nil, baseRef, err
	}
	name := agentimg.Sanitize(spec.Name)
	url := gw + name + "/"
	labels := map[string]string{agentimg.LabelManaged: "true", agentimg.LabelRole: "agent", agentimg.LabelAgent: spec.Name, agentimg.LabelBundle: b.Dir, LabelImage: imageRef}
	svc := s.agentService(servicePrefix+name, ref, bundleInImage, url, labels)
	// The card's signatures, made here: the key never reaches the swarm.
	sigVar, err := s.cfg.CardSignaturesVar(b, url)
	if err != nil {
		s.img.Remove(context.WithoutCancel(ctx), imageRef)
		return nil, baseRef, err
	}
	if sigVar != "" {
		svc.TaskTemplate.ContainerSpec.Env = append(svc.TaskTemplate.ContainerSpec.Env, sigVar)
	}
	created, err := s.api.ServiceCreate(ctx, svc, swarm.ServiceCreateOptions{})
	if err != nil {
		s.img.Remove(context.WithoutCancel(ctx), imageRef)
		return nil, baseRef, fmt.Errorf("create service: %w", err)
	}
	a := &deploy.Agent{Name: spec.Name, URL: url, Runtime: s.Name(), Bundle: b.Dir, ID: created.ID,
		Log: "docker service logs " + svc.Name, Started: time.Now().UTC()}
	if err := s.waitReady(ctx, a); err != nil {
		s.removeService(context.WithoutCancel(ctx), a.ID)
		s.img.Remove(context.WithoutCancel(ctx), imageRef)
		return nil, baseRef, err
	}
	return a, baseRef, nil
}

// LabelImage is on an agent service: the local image it was built as
// (its service may run the same image under a registry's name).
const LabelImage = "agentnet.image"

// agentService is the service spec of one agent: one replica, the limits
// and containment of the docker runtime's containers, restarted whatever
// ends it, healthy while its card answers.
func (s *Runtime) agentService(name, ref, bundleInImage, url string, labels map[string]string) swarm.ServiceSpec {
	local := "http://127.0.0.1:" + agentimg.Port + "/"
	return swarm.ServiceSpec{
		Annotations: swarm.Annotations{Name: name, Labels: labels},
		TaskTemplate: swarm.TaskSpec{
			ContainerSpec: &swarm.ContainerSpec{
				Image:   ref,
				Labels:  labels,
				Command: []string{agentimg.AgentnetInImage},
				Args: []string{"serve", bundleInImage, "--addr", "0.0.0.0:" + agentimg.Port, "--url", url,
					"--allow-host", "127.0.0.1:" + agentimg.Port, "--allow-host", name + ":" + agentimg.Port, "--verbose",
					// files inline: a URL on the gateway's loopback port does not reach another container
					"--inline-file-max", "-1"},
				Env:            []string{"PATH=" + agentimg.ImagePath, "HOME=/tmp", "TMPDIR=/tmp", "LANG=C.UTF-8", "PYTHONDONTWRITEBYTECODE=1"},
				User:           docker.User,
				Dir:            bundleInImage,
				ReadOnly:       true,
				Init:           ptr(true),
				Privileges:     &swarm.Privileges{NoNewPrivileges: true},
				CapabilityDrop: []string{"ALL"},
				// serve ends its tasks' process groups on SIGTERM at once.
				StopGracePeriod: ptr(2 * time.Second),
				Mounts: []mount.Mount{{Type: mount.TypeTmpfs, Target: "/tmp",
					TmpfsOptions: &mount.TmpfsOptions{SizeBytes: 256 << 20, Mode: 0o1777}}},
				Healthcheck: &container.HealthConfig{
					Test:        []string{"CMD", agentimg.AgentnetInImage, "fleet", "probe", local},
					Interval:    3 * time.Second,
					Timeout:     3 * time.Second,
					StartPeriod: 30 * time.Second,
					Retries:     3,
				},
			},
			Resources: &swarm.ResourceRequirements{Limits: &swarm.Limit{
				NanoCPUs: docker.NanoCPUs, MemoryBytes: docker.Memory, Pids: docker.Pids}},
			RestartPolicy: &swarm.RestartPolicy{Condition: swarm.RestartPolicyConditionAny, Delay: ptr(time.Second)},
			Networks:      []swarm.NetworkAttachmentConfig{{Target: Network}},
		},
		Mode: swarm.ServiceMode{Replicated: &swarm.ReplicatedService{Replicas: ptr(uint64(1))}},
		// The service's name resolves to its tasks' addresses (DNS round
		// robin): a virtual IP needs IPVS in the kernel, which not every
		// engine's host has, and a dialer tries each address in turn, so
		// a replica that died is passed over.
		EndpointSpec: &swarm.EndpointSpec{Mode: swarm.ResolutionModeDNSRR},
	}
}

// waitReady waits for the agent's card through the gateway; it fails early
// when the service's tasks keep failing.
func (s *Runtime) waitReady(ctx context.Context, a *deploy.Agent) error {
	deadline := time.NewTimer(s.cfg.ReadyTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline.C:
			return fmt.Errorf("no card at %s within %s%s", a.URL, s.cfg.ReadyTimeout, s.taskErrors(ctx, a.ID))
		case <-tick.C:
			tasks, err := s.tasks(ctx, a.ID, false)
			if err != nil {
				continue
			}
			if running(tasks) > 0 && deploy.CardAnswers(ctx, a.URL) == nil {
				return nil
			}
			failed := 0
			for _, t := range tasks {
				if t.Status.State == swarm.TaskStateFailed || t.Status.State == swarm.TaskStateRejected {
					failed++
				}
			}
			if failed >= 3 {
				return fmt.Errorf("its tasks keep failing%s", s.taskErrors(ctx, a.ID))
			}
		}
	}
}

// tasks lists the service's tasks; running keeps those meant to run.
func (s *Runtime) tasks(ctx context.Context, serviceID string, running bool) ([]swarm.Task, error) {
	f := filters.NewArgs(filters.Arg("service", serviceID))
	if running {
		f.Add("desired-state", "running")
	}
	return s.api.TaskList(ctx, swarm.TaskListOptions{Filters: f})
}

// taskErrors says why the service's last tasks ended.
func (s *Runtime) taskErrors(ctx context.Context, serviceID string) string {
	tasks, err := s.tasks(context.WithoutCancel(ctx), serviceID, false)
	if err != nil {
		return ""
	}
	var msgs []string
	for _, t := range tasks {
		if t.Status.Err != "" && len(msgs) < 3 {
			msgs = append(msgs, fmt.Sprintf("task %s %s: %s", shortID(t.ID), t.Status.State, t.Status.Err))
		}
	}
	if len(msgs) == 0 {
		return ""
	}
	return "; " + strings.Join(msgs, "; ")
}

// Down removes the agent's service and waits for its containers to go,
// then its image and, once no agent service is left, the gateway, the
// networks and the base images. It refuses to touch a service without
// agentnet's label.
func (s *Runtime) Down(ctx context.Context, a *deploy.Agent) error {
	svc, _, err := s.api.ServiceInspectWithRaw(ctx, a.ID, swarm.ServiceInspectOptions{})
	if cerrdefs.IsNotFound(err) {
		if err := s.d.RemoveAgentImages(ctx, a.Name); err != nil {
			return err
		}
		s.removeShared(ctx)
		return nil
	}
	if err != nil {
		return fmt.Errorf("down %s: %w", a.Name, err)
	}
	if svc.Spec.Labels[agentimg.LabelManaged] != "true" || svc.Spec.Labels[agentimg.LabelRole] != "agent" {
		return fmt.Errorf("down %s: service %s was not made by agentnet; leaving it alone", a.Name, shortID(a.ID))
	}
	if err := s.removeService(ctx, a.ID); err != nil {
		return fmt.Errorf("down %s: %w", a.Name, err)
	}
	// Loaded onto the other nodes: it goes from there too (a node that
	// does not answer fails Down, once the rest is done).
	var nodesErr error
	if ref := svc.Spec.TaskTemplate.ContainerSpec.Image; ref == svc.Spec.Labels[LabelImage] {
		if err := s.removeFromNodes(ctx, a.ID, ref); err != nil {
			nodesErr = fmt.Errorf("down %s: %w", a.Name, err)
		}
	}
	if ref := svc.Spec.TaskTemplate.ContainerSpec.Image; ref != svc.Spec.Labels[LabelImage] {
		// A registry's name for the image: the tag goes, the image with
		// the local one.
		if _, err := s.api.ImageRemove(ctx, ref, image.RemoveOptions{}); err != nil && !cerrdefs.IsNotFound(err) {
			return fmt.Errorf("down %s: untag %s: %w", a.Name, ref, err)
		}
	}
	base, err := s.img.Remove(ctx, svc.Spec.Labels[LabelImage])
	if err != nil {
		return fmt.Errorf("down %s: %w", a.Name, err)
	}
	s.removeShared(ctx, base)
	return nodesErr
}

// removeFromNodes removes the image ref that distribute loaded onto the
// other nodes of EnvNodes, once the containers of the service id are gone
// from them; an image agentnet did not make stays.
func (s *Runtime) removeFromNodes(ctx context.Context, id, ref string) error {
	engines, err := s.nodeEngines(ctx)
	defer closeAll(engines)
	if err != nil {
		return err
	}
	var errs []error
	for _, c := range engines {
		if id != "" {
			if err := removeContainers(ctx, c, id); err != nil {
				errs = append(errs, fmt.Errorf("node %s: %w", c.DaemonHost(), err))
				continue
			}
		}
		img, err := c.ImageInspect(ctx, ref)
		if err != nil || img.Config == nil || img.Config.Labels[agentimg.LabelManaged] != "true" {
			continue
		}
		if _, err := c.ImageRemove(ctx, ref, image.RemoveOptions{}); err != nil && !cerrdefs.IsNotFound(err) {
			errs = append(errs, fmt.Errorf("node %s: remove %s: %w", c.DaemonHost(), ref, err))
		}
	}
	return errors.Join(errs...)
}

func closeAll(engines map[string]*client.Client) {
	for _, c := range engines {
		c.Close()
	}
}

// removeService removes a service and then its containers on this node
// (the engine leaves those of a finished Swarm job behind, and takes
// seconds over those of a service), waiting up to a minute for them to go,
// so that its image and networks can go too.
func (s *Runtime) removeService(ctx context.Context, id string) error {
	if err := s.api.ServiceRemove(ctx, id); err != nil && !cerrdefs.IsNotFound(err) {
		return fmt.Errorf("remove service: %w", err)
	}
	return removeContainers(ctx, s.api, id)
}

// removeContainers removes the containers of the service id on the engine
// c, waiting up to a minute for them to go.
func removeContainers(ctx context.Context, c *client.Client, id string) error {
	f := filters.NewArgs(filters.Arg("label", "com.docker.swarm.service.id="+id))
	for start := time.Now(); time.Since(start) < time.Minute; time.Sleep(200 * time.Millisecond) {
		cs, err := c.ContainerList(ctx, container.ListOptions{All: true, Filters: f})
		if err != nil || len(cs) == 0 {
			return err
		}
		for _, ct := range cs {
			if ct.Labels[agentimg.LabelManaged] == "true" {
				_ = c.ContainerRemove(ctx, ct.ID, container.RemoveOptions{Force: true})
			}
		}
	}
	return fmt.Errorf("the containers of service %s are still there after a minute", shortID(id))
}

// removeShared removes the gateway and the networks once no agent service
// is left, and the base images given unless an image uses them; it waits
// for the agents coming up in this process.
func (s *Runtime) removeShared(ctx context.Context, bases ...string) {
	s.inflight.Lock()
	defer s.inflight.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, err := docker.LockHost("swarm-shared")
	if err != nil {
		return
	}
	defer unlock()
	for _, b := range bases {
		if b != "" {
			s.img.Remove(ctx, b) // one an agent image still uses stays
		}
	}
	agents, err := s.api.ServiceList(ctx, swarm.ServiceListOptions{Filters: filters.NewArgs(
		filters.Arg("label", agentimg.LabelManaged+"=true"), filters.Arg("label", agentimg.LabelRole+"=agent"))})
	if err != nil || len(agents) > 0 {
		return
	}
	gws, err := s.api.ServiceList(ctx, swarm.ServiceListOptions{Filters: filters.NewArgs(
		filters.Arg("label", agentimg.LabelManaged+"=true"), filters.Arg("label", agentimg.LabelRole+"=gateway"))})
	if err != nil {
		return
	}
	for _, g := range gws {
		if s.removeService(ctx, g.ID) == nil {
			ref := g.Spec.TaskTemplate.ContainerSpec.Image
			_ = s.removeFromNodes(ctx, g.ID, ref)
			s.removeTags(ctx, ref)
		}
	}
	for _, name := range []string{Network, EdgeNetwork} {
		if n, err := s.api.NetworkInspect(ctx, name, network.InspectOptions{}); err == nil && n.Labels[agentimg.LabelManaged] == "true" {
			removeNetwork(ctx, s.api, n.ID)
		}
	}
}

// removeTags removes every name of an image agentnet made (its local tag
// and a registry's), and with the last the image, unless a container uses
// it.
func (s *Runtime) removeTags(ctx context.Context, ref string) {
	img, err := s.api.ImageInspect(ctx, ref)
	if err != nil || img.Config == nil || img.Config.Labels[agentimg.LabelManaged] != "true" {
		return
	}
	for _, tag := range img.RepoTags {
		_, _ = s.api.ImageRemove(ctx, tag, image.RemoveOptions{})
	}
}

// Health reports whether the agent's card answers through the gateway and
// how many of its service's tasks run.
func (s *Runtime) Health(ctx context.Context, a *deploy.Agent) deploy.Health {
	svc, _, err := s.api.ServiceInspectWithRaw(ctx, a.ID, swarm.ServiceInspectOptions{})
	if cerrdefs.IsNotFound(err) {
		return deploy.Health{Detail: "service gone"}
	}
	if err != nil {
		return deploy.Health{Detail: err.Error()}
	}
	want := uint64(0)
	if svc.Spec.Mode.Replicated != nil && svc.Spec.Mode.Replicated.Replicas != nil {
		want = *svc.Spec.Mode.Replicated.Replicas
	}
	tasks, err := s.tasks(ctx, a.ID, true)
	if err != nil {
		return deploy.Health{Detail: err.Error()}
	}
	n := running(tasks)
	detail := fmt.Sprintf("%d/%d tasks running", n, want)
	if err := deploy.CardAnswers(ctx, a.URL); err != nil {
		return deploy.Health{Detail: detail + "; " + err.Error() + s.taskErrors(ctx, a.ID)}
	}
	return deploy.Health{Up: n > 0, Detail: detail}
}

// running counts the tasks that run (past their health check's start).
func running(tasks []swarm.Task) int {
	n := 0
	for _, t := range tasks {
		if t.Status.State == swarm.TaskStateRunning {
			n++
		}
	}
	return n
}

// Scale sets the number of the agent's replicas.
func (s *Runtime) Scale(ctx context.Context, a *deploy.Agent, replicas uint64) error {
	svc, _, err := s.api.ServiceInspectWithRaw(ctx, a.ID, swarm.ServiceInspectOptions{})
	if err != nil {
		return fmt.Errorf("scale %s: %w", a.Name, err)
	}
	if svc.Spec.Labels[agentimg.LabelManaged] != "true" || svc.Spec.Mode.Replicated == nil {
		return fmt.Errorf("scale %s: service %s was not made by agentnet", a.Name, shortID(a.ID))
	}
	svc.Spec.Mode.Replicated.Replicas = &replicas
	if _, err := s.api.ServiceUpdate(ctx, svc.ID, svc.Version, svc.Spec, swarm.ServiceUpdateOptions{}); err != nil {
		return fmt.Errorf("scale %s: %w", a.Name, err)
	}
	return nil
}

// distribute makes the image available on every node that can run it: it
// pushes it to the image registry when one is given (and returns its name
// there), else loads it onto each other node through that node's Docker
// API (EnvNodes).
func (s *Runtime) distribute(ctx context.Context, ref, nodeID string) (string, error) {
	if reg := strings.TrimSuffix(s.cfg.ImageRegistry, "/"); reg != "" {
		remote := reg + "/" + ref
		if err := s.api.ImageTag(ctx, ref, remote); err != nil {
			return "", fmt.Errorf("tag %s: %w", remote, err)
		}
		out, err := s.api.ImagePush(ctx, remote, image.PushOptions{RegistryAuth: "e30="}) // "{}": no credentials
		if err == nil {
			err = agentimg.ReadProgress(out)
			out.Close()
		}
		if err != nil {
			return "", fmt.Errorf("push %s: %w", remote, err)
		}
		return remote, nil
	}
	nodes, err := s.api.NodeList(ctx, swarm.NodeListOptions{})
	if err != nil {
		return "", fmt.Errorf("list nodes: %w", err)
	}
	var others []swarm.Node
	for _, n := range nodes {
		if n.ID != nodeID && n.Status.State == swarm.NodeStateReady && n.Spec.Availability == swarm.NodeAvailabilityActive {
			others = append(others, n)
		}
	}
	if len(others) == 0 {
		return ref, nil
	}
	engines, err := s.nodeEngines(ctx)
	defer closeAll(engines)
	if err != nil {
		return "", err
	}
	for _, n := range others {
		c := engines[n.ID]
		if c == nil {
			return "", fmt.Errorf("node %s (%s): no image registry (--image-registry) and no Docker API address for it in %s to load the image onto",
				n.Description.Hostname, shortID(n.ID), EnvNodes)
		}
		if err := copyImage(ctx, s.api, c, ref); err != nil {
			return "", fmt.Errorf("load %s onto node %s: %w", ref, n.Description.Hostname, err)
		}
	}
	return ref, nil
}

// nodeEngines opens the Docker APIs listed in EnvNodes, by node id; the
// caller closes them (also those it returns with an error).
func (s *Runtime) nodeEngines(ctx context.Context) (map[string]*client.Client, error) {
	out := map[string]*client.Client{}
	for _, addr := range strings.Split(lookupEnv(s.cfg.Env, EnvNodes), ",") {
		if addr = strings.TrimSpace(addr); addr == "" {
			continue
		}
		c, err := docker.Client(addr)
		if err != nil {
			return out, fmt.Errorf("%s: %s: %w", EnvNodes, addr, err)
		}
		info, err := c.Info(ctx)
		if err != nil {
			c.Close()
			return out, fmt.Errorf("%s: %s: %w", EnvNodes, addr, err)
		}
		out[info.Swarm.NodeID] = c
	}
	return out, nil
}

// copyImage saves ref from one engine and loads it into another, unless it
// is there already.
func copyImage(ctx context.Context, from, to *client.Client, ref string) error {
	if _, err := to.ImageInspect(ctx, ref); err == nil {
		return nil
	}
	rc, err := from.ImageSave(ctx, []string{ref})
	if err != nil {
		return err
	}
	defer rc.Close()
	resp, err := to.ImageLoad(ctx, rc, client.ImageLoadWithQuiet(true))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return agentimg.ReadProgress(resp.Body)
}

// ensureGateway returns the gateway's base URL ("http://127.0.0.1:PORT/"),
// making the networks and the gateway service (pinned to this node, its
// port published on the node) when there is none.
func (s *Runtime) ensureGateway(ctx context.Context, nodeID string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, err := docker.LockHost("swarm-shared")
	if err != nil {
		return "", err
	}
	defer unlock()
	for _, n := range []struct {
		name     string
		internal bool
	}{{Network, true}, {EdgeNetwork, false}} {
		if err := s.ensureOverlay(ctx, n.name, n.internal); err != nil {
			return "", err
		}
	}
	gws, err := s.api.ServiceList(ctx, swarm.ServiceListOptions{Filters: filters.NewArgs(filters.Arg("name", Gateway))})
	if err != nil {
		return "", fmt.Errorf("list services: %w", err)
	}
	for _, g := range gws {
		if g.Spec.Name != Gateway {
			continue
		}
		if g.Spec.Labels[agentimg.LabelManaged] != "true" {
			return "", fmt.Errorf("a service named %q exists that agentnet did not make; remove or rename it", Gateway)
		}
		url, err := gatewayURL(g)
		if err != nil {
			return "", err
		}
		return url, s.waitGateway(ctx, url)
	}
	ref, err := s.gatewayImage(ctx, nodeID)
	if err != nil {
		return "", err
	}
	port, err := freePort()
	if err != nil {
		return "", err
	}
	spec := gatewayService(ref, nodeID, port)
	created, err := s.api.ServiceCreate(ctx, spec, swarm.ServiceCreateOptions{})
	if err != nil {
		return "", fmt.Errorf("create the gateway service: %w", err)
	}
	url := fmt.Sprintf("http://127.0.0.1:%d/", port)
	if err := s.waitGateway(ctx, url); err != nil {
		err = fmt.Errorf("%w%s", err, s.taskErrors(ctx, created.ID))
		s.removeService(context.WithoutCancel(ctx), created.ID)
		return "", err
	}
	return url, nil
}

// gatewayService is the service spec of the gateway: the image ref (agentnet
// alone) running "fleet gateway", pinned to the node nodeID, on both
// networks, its port published on the node in host mode.
func gatewayService(ref, nodeID string, port int) swarm.ServiceSpec {
	labels := map[string]string{agentimg.LabelManaged: "true", agentimg.LabelRole: "gateway"}
	return swarm.ServiceSpec{
		Annotations: swarm.Annotations{Name: Gateway, Labels: labels},
		TaskTemplate: swarm.TaskSpec{
			ContainerSpec: &swarm.ContainerSpec{
				Image: ref, Labels: labels, Command: []string{agentimg.AgentnetInImage},
				Args: []string{"fleet", "gateway", "--addr", "0.0.0.0:" + agentimg.Port},
				User: docker.User, ReadOnly: true, Init: ptr(true), CapabilityDrop: []string{"ALL"},
				Privileges: &swarm.Privileges{NoNewPrivileges: true},
			},
			Resources: &swarm.ResourceRequirements{Limits: &swarm.Limit{
				NanoCPUs: docker.NanoCPUs, MemoryBytes: docker.Memory, Pids: docker.Pids}},
			RestartPolicy: &swarm.RestartPolicy{Condition: swarm.RestartPolicyConditionAny, Delay: ptr(time.Second)},
			Placement:     &swarm.Placement{Constraints: []string{"node.id==" + nodeID}},
			Networks:      []swarm.NetworkAttachmentConfig{{Target: Network}, {Target: EdgeNetwork}},
		},
		Mode: swarm.ServiceMode{Replicated: &swarm.ReplicatedService{Replicas: ptr(uint64(1))}},
		EndpointSpec: &swarm.EndpointSpec{Ports: []swarm.PortConfig{{Protocol: swarm.PortConfigProtocolTCP,
			TargetPort: 8080, PublishedPort: uint32(port), PublishMode: swarm.PortConfigPublishModeHost}}},
	}
}

func gatewayURL(g swarm.Service) (string, error) {
	if g.Spec.EndpointSpec != nil {
		for _, p := range g.Spec.EndpointSpec.Ports {
			if p.TargetPort == 8080 && p.PublishedPort != 0 {
				return "http://127.0.0.1:" + strconv.Itoa(int(p.PublishedPort)) + "/", nil
			}
		}
	}
	return "", fmt.Errorf("service %s publishes no port", Gateway)
}

// waitGateway waits for the gateway's own health path.
func (s *Runtime) waitGateway(ctx context.Context, url string) error {
	deadline := time.Now().Add(s.cfg.ReadyTimeout)
	for {
		err := getOK(ctx, url+GatewayHealthPath[1:])
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the gateway at %s does not answer within %s: %w", url, s.cfg.ReadyTimeout, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// gatewayImage is an image holding only agentnet, made available on
// every node.
func (s *Runtime) gatewayImage(ctx context.Context, nodeID string) (string, error) {
	r := agentimg.NewRootfs()
	if err := s.img.Tools.AddAgentnet(r, s.cfg.Self); err != nil {
		return "", err
	}
	r.Dirs["/tmp"] = true
	r.Data["/etc/passwd"] = []byte("root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/tmp:/sbin/nologin\n")
	ref := "agentnet-gateway:" + r.Key()[:16]
	err := s.img.Ensure(ctx, ref, func() error {
		pr, pw := io.Pipe()
		go func() { pw.CloseWithError(r.WriteTar(pw, "")) }()
		defer pr.Close()
		out, err := s.api.ImageImport(ctx, image.ImportSource{Source: pr, SourceName: "-"}, ref, image.ImportOptions{
			Message: "agentnet gateway image",
			Changes: []string{fmt.Sprintf("LABEL %s=true %s=gateway", agentimg.LabelManaged, agentimg.LabelRole)},
		})
		if err != nil {
			return err
		}
		defer out.Close()
		return agentimg.ReadProgress(out)
	})
	if err != nil {
		return "", fmt.Errorf("build the gateway image: %w", err)
	}
	return s.distribute(ctx, ref, nodeID)
}

// ensureOverlay makes the attachable overlay network name unless it
// exists; internal ones have no route out of the swarm.
func (s *Runtime) ensureOverlay(ctx context.Context, name string, internal bool) error {
	n, err := s.api.NetworkInspect(ctx, name, network.InspectOptions{})
	if err == nil {
		if n.Labels[agentimg.LabelManaged] != "true" {
			return fmt.Errorf("a Docker network named %q exists that agentnet did not make; remove or rename it", name)
		}
		return nil
	}
	if !cerrdefs.IsNotFound(err) {
		return fmt.Errorf("inspect network %s: %w", name, err)
	}
	_, err = s.api.NetworkCreate(ctx, name, network.CreateOptions{
		Driver: "overlay", Internal: internal, Attachable: true,
		Labels: map[string]string{agentimg.LabelManaged: "true", agentimg.LabelRole: "network"},
	})
	if err != nil && !cerrdefs.IsConflict(err) {
		return fmt.Errorf("create network %s: %w", name, err)
	}
	return nil
}

// besideURL is where a job beside the swarm agent a reaches it: its
// service's name on the overlay network.
func besideURL(a *deploy.Agent) string {
	return "http://" + servicePrefix + agentimg.Sanitize(a.Name) + ":" + agentimg.Port + "/"
}

// freePort finds a port free on this machine's loopback interface.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func ptr[T any](v T) *T { return &v }

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

func lookupEnv(env []string, key string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			return v
		}
	}
	return ""
}
