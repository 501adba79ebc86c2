package docker

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/client"
	"github.com/docker/go-connections/nat"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/deploy"
	agentimg "github.com/agentnet/agentnet/deploy/image"
)

func init() {
	deploy.Register("docker", func(cfg deploy.Config) (deploy.Runtime, error) {
		d, err := New(cfg)
		if err != nil {
			return nil, err
		}
		return d, nil
	})
}

// Labels the docker runtime puts on everything it creates. Down and the
// clean-up of tests select by them and never touch anything without them.
const (
	LabelManaged = agentimg.LabelManaged // "true" on every container, image and network
	LabelRole    = agentimg.LabelRole    // "base", "agent" (images), "agent" (containers), "network"
	LabelAgent   = agentimg.LabelAgent   // the agent's name (agent images and containers)
	LabelBundle  = agentimg.LabelBundle  // the bundle directory on the host
	LabelBase    = agentimg.LabelBase    // on an agent image: the base image it was built on
)

// Network is the bridge network agent containers are attached to. It
// has no masquerading (no route out of the machine) and no traffic between
// containers; each agent is reached through its port published on
// 127.0.0.1 only.
const Network = "agentnet"

// Limits of an agent's container, which the swarm runtime gives its
// services too.
const (
	Memory   = 512 << 20 // bytes
	NanoCPUs = 1e9       // one CPU
	Pids     = 256
	User     = "65534:65534" // nobody
)

// Layout of an agent's container.
const (
	dockerTmpfs = "rw,nosuid,nodev,size=256m,mode=1777"
	dockerPort  = agentimg.Port
)

// API is the part of the Docker Engine API client the docker runtime uses.
type API interface {
	Ping(ctx context.Context) (types.Ping, error)
	ImageImport(ctx context.Context, source image.ImportSource, ref string, options image.ImportOptions) (io.ReadCloser, error)
	ImageInspect(ctx context.Context, imageID string, opts ...client.ImageInspectOption) (image.InspectResponse, error)
	ImageList(ctx context.Context, options image.ListOptions) ([]image.Summary, error)
	ImageRemove(ctx context.Context, imageID string, options image.RemoveOptions) ([]image.DeleteResponse, error)
	ContainerCreate(ctx context.Context, config *container.Config, hostConfig *container.HostConfig, networkingConfig *network.NetworkingConfig, platform *ocispec.Platform, containerName string) (container.CreateResponse, error)
	CopyToContainer(ctx context.Context, containerID, dstPath string, content io.Reader, options container.CopyToContainerOptions) error
	ContainerCommit(ctx context.Context, containerID string, options container.CommitOptions) (container.CommitResponse, error)
	ContainerStart(ctx context.Context, containerID string, options container.StartOptions) error
	ContainerInspect(ctx context.Context, containerID string) (container.InspectResponse, error)
	ContainerLogs(ctx context.Context, containerID string, options container.LogsOptions) (io.ReadCloser, error)
	ContainerRemove(ctx context.Context, containerID string, options container.RemoveOptions) error
	NetworkCreate(ctx context.Context, name string, options network.CreateOptions) (network.CreateResponse, error)
	NetworkInspect(ctx context.Context, networkID string, options network.InspectOptions) (network.Inspect, error)
	NetworkList(ctx context.Context, options network.ListOptions) ([]network.Summary, error)
	NetworkRemove(ctx context.Context, networkID string) error
}

var _ API = (*client.Client)(nil)

// Runtime is the docker runtime: it runs each agent in a container of its
// own, from an image built locally (nothing is pulled). It is safe for
// concurrent use.
type Runtime struct {
	cfg deploy.Config
	api API
	img *agentimg.Builder // builds the base and agent images

	mu sync.Mutex // guards the shared network's creation
	// inflight is read-held by each Up from its base image to its
	// container; shared things (base images, the network) are removed
	// under its write lock, so that an agent coming up in this process
	// never loses them midway.
	inflight sync.RWMutex
}

var _ deploy.Runtime = (*Runtime)(nil)

// New returns the docker runtime on the Docker Engine of cfg.Env
// (DOCKER_HOST, else the local socket). deploy.Open("docker", cfg) calls
// it.
func New(cfg deploy.Config) (*Runtime, error) {
	c, err := Client(lookupEnv(cfg.Env, "DOCKER_HOST"))
	if err != nil {
		return nil, fmt.Errorf("docker runtime: %w", err)
	}
	return NewWith(cfg, c), nil
}

// NewWith returns the docker runtime on the engine api talks to.
func NewWith(cfg deploy.Config, api API) *Runtime {
	return &Runtime{cfg: cfg, api: api, img: agentimg.NewBuilder(cfg.Self, cfg.Env, api)}
}

// Client opens the Docker Engine API at host (DOCKER_HOST's syntax; ""
// is the local socket), with the API version negotiated.
func Client(host string) (*client.Client, error) {
	opts := []client.Opt{client.WithAPIVersionNegotiation()}
	if host != "" {
		opts = append(opts, client.WithHost(host))
	}
	return client.NewClientWithOpts(opts...)
}

// Images is the builder of the runtime's images, which the swarm runtime
// builds its agents' images with.
func (d *Runtime) Images() *agentimg.Builder { return d.img }

// Name is "docker".
func (d *Runtime) Name() string { return "docker" }

// Up builds the agent's image (and the base image holding agentnet and the
// programs the bundle runs, when no image with the same contents exists),
// starts its container with the card's URL set to the published loopback
// port, and waits for the card.
func (d *Runtime) Up(ctx context.Context, spec deploy.Spec) (*deploy.Agent, error) {
	if d.cfg.Self == "" {
		return nil, fmt.Errorf("up %s: docker runtime: no agentnet executable to put in the image", spec.Name)
	}
	if _, err := d.api.Ping(ctx); err != nil {
		return nil, fmt.Errorf("up %s: docker runtime: %w", spec.Name, err)
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
		// Setup writes into the repo, which is read-only in the container:
		// it runs here, and its results are copied into the image.
		if err := host.Prepare(ctx, b, true, d.cfg.Env, io.Discard); err != nil {
			return nil, fmt.Errorf("up %s: %w", spec.Name, err)
		}
	}
	d.inflight.RLock()
	a, imageRef, baseRef, err := d.up(ctx, spec, b)
	d.inflight.RUnlock()
	if err == nil {
		return a, nil
	}
	// Nothing of a failed agent stays behind: its image goes, and the base
	// and the network too unless something else uses them.
	cctx := context.WithoutCancel(ctx)
	if imageRef != "" {
		d.img.Remove(cctx, imageRef)
	}
	d.removeShared(cctx, baseRef)
	return nil, err
}

// up makes the images and starts the container; it returns the images it
// made or found, also on failure.
func (d *Runtime) up(ctx context.Context, spec deploy.Spec, b *bundle.Bundle) (_ *deploy.Agent, imageRef, baseRef string, _ error) {
	baseRef, err := d.img.Base(ctx, b)
	if err != nil {
		return nil, "", "", fmt.Errorf("up %s: %w", spec.Name, err)
	}
	imageRef, bundleInImage, err := d.img.Agent(ctx, spec.Name, b, baseRef)
	if err != nil {
		return nil, "", baseRef, fmt.Errorf("up %s: %w", spec.Name, err)
	}
	var lastErr error
	// The free port may be taken between the probe and the bind, and the
	// shared network removed by another process's Down between finding it
	// and starting on it; try again.
	for attempt := 0; attempt < 3; attempt++ {
		netID, err := d.ensureNetwork(ctx)
		if err != nil {
			return nil, imageRef, baseRef, fmt.Errorf("up %s: %w", spec.Name, err)
		}
		a, retry, err := d.start(ctx, spec, b, imageRef, bundleInImage, netID)
		if err == nil {
			return a, imageRef, baseRef, nil
		}
		lastErr = err
		if !retry || ctx.Err() != nil {
			break
		}
	}
	return nil, imageRef, baseRef, lastErr
}

// start creates and starts the container and waits for its card; on failure
// it removes the container. retry reports a port clash, or the shared
// network gone meanwhile.
func (d *Runtime) start(ctx context.Context, spec deploy.Spec, b *bundle.Bundle, imageRef, bundleInImage, netID string) (_ *deploy.Agent, retry bool, _ error) {
	port, err := freePort()
	if err != nil {
		return nil, false, fmt.Errorf("up %s: %w", spec.Name, err)
	}
	url := fmt.Sprintf("http://127.0.0.1:%d/", port)
	cfg, hc := agentContainer(spec.Name, b.Dir, imageRef, bundleInImage, netID, url, port)
	sigVar, err := d.cfg.CardSignaturesVar(b, url)
	if err != nil {
		return nil, false, fmt.Errorf("up %s: %w", spec.Name, err)
	}
	if sigVar != "" {
		cfg.Env = append(cfg.Env, sigVar)
	}
	name := "agentnet-" + agentimg.Sanitize(spec.Name) + "-" + agentimg.RandomSuffix()
	created, err := d.api.ContainerCreate(ctx, cfg, hc, nil, nil, name)
	if err != nil {
		return nil, networkGone(err), fmt.Errorf("up %s: create container: %w", spec.Name, err)
	}
	id := created.ID
	remove := func() {
		_ = d.api.ContainerRemove(context.WithoutCancel(ctx), id, container.RemoveOptions{Force: true})
	}
	if err := d.api.ContainerStart(ctx, id, container.StartOptions{}); err != nil {
		remove()
		msg := err.Error()
		clash := strings.Contains(msg, "already allocated") || strings.Contains(msg, "address already in use") || networkGone(err)
		return nil, clash, fmt.Errorf("up %s: start container: %w", spec.Name, err)
	}
	a := &deploy.Agent{Name: spec.Name, URL: url, Runtime: d.Name(), Bundle: b.Dir, ID: id, Started: time.Now().UTC()}
	if err := d.waitCard(ctx, a, remove); err != nil {
		return nil, false, err
	}
	return a, false, nil
}

// agentContainer is the configuration of the container of the agent name
// (of the bundle at bundleDir): the image's host serving on the port
// published on loopback, on the network netID, with its containment.
func agentContainer(name, bundleDir, imageRef, bundleInImage, netID, url string, port int) (*container.Config, *container.HostConfig) {
	cport := nat.Port(dockerPort + "/tcp")
	labels := map[string]string{LabelManaged: "true", LabelRole: "agent", LabelAgent: name, LabelBundle: bundleDir}
	cfg := &container.Config{
		Image: imageRef,
		// Files are answered inline: the URL a container serves them at
		// names the host's loopback, which no other container reaches.
		Cmd:          []string{"serve", bundleInImage, "--addr", "0.0.0.0:" + dockerPort, "--url", url, "--verbose", "--inline-file-max", "-1"},
		Env:          []string{"PATH=" + agentimg.ImagePath, "HOME=/tmp", "TMPDIR=/tmp", "LANG=C.UTF-8", "PYTHONDONTWRITEBYTECODE=1"},
		User:         User,
		WorkingDir:   bundleInImage,
		ExposedPorts: nat.PortSet{cport: struct{}{}},
		Labels:       labels,
	}
	hc := &container.HostConfig{
		PortBindings:   nat.PortMap{cport: {{HostIP: "127.0.0.1", HostPort: strconv.Itoa(port)}}},
		ReadonlyRootfs: true,
		Tmpfs:          map[string]string{"/tmp": dockerTmpfs},
		CapDrop:        []string{"ALL"},
		SecurityOpt:    []string{"no-new-privileges"},
		Init:           ptr(true),
		NetworkMode:    container.NetworkMode(netID),
		Resources: container.Resources{
			Memory:    Memory,
			NanoCPUs:  NanoCPUs,
			PidsLimit: ptr(int64(Pids)),
		},
	}
	return cfg, hc
}

// waitCard waits for the card of the started agent a; when it does not
// answer in time, or the container exits first, or ctx ends, it calls
// remove and fails.
func (d *Runtime) waitCard(ctx context.Context, a *deploy.Agent, remove func()) error {
	deadline := time.NewTimer(d.cfg.ReadyTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for n := 0; ; n++ {
		select {
		case <-ctx.Done():
			remove()
			return ctx.Err()
		case <-deadline.C:
			logs := d.logTail(ctx, a.ID)
			remove()
			return fmt.Errorf("up %s: no card at %s within %s%s", a.Name, a.URL, d.cfg.ReadyTimeout, logs)
		case <-tick.C:
			if deploy.CardAnswers(ctx, a.URL) == nil {
				return nil
			}
			if n%10 != 9 {
				continue
			}
			if info, err := d.api.ContainerInspect(ctx, a.ID); err == nil && info.State != nil && !info.State.Running {
				logs := d.logTail(ctx, a.ID)
				remove()
				return fmt.Errorf("up %s: the container exited (status %d) before its card answered%s", a.Name, info.State.ExitCode, logs)
			}
		}
	}
}

// Down removes the agent's container, then its image and, when no other
// agent uses them, the base image and the network. It refuses to touch a
// container that does not carry agentnet's label.
func (d *Runtime) Down(ctx context.Context, a *deploy.Agent) error {
	info, err := d.api.ContainerInspect(ctx, a.ID)
	if cerrdefs.IsNotFound(err) {
		// The container is gone; its images may not be.
		return d.RemoveAgentImages(ctx, a.Name)
	}
	if err != nil {
		return fmt.Errorf("down %s: %w", a.Name, err)
	}
	if info.Config == nil || info.Config.Labels[LabelManaged] != "true" {
		return fmt.Errorf("down %s: container %s was not made by agentnet; leaving it alone", a.Name, shortID(a.ID))
	}
	if err := d.api.ContainerRemove(ctx, a.ID, container.RemoveOptions{Force: true}); err != nil && !cerrdefs.IsNotFound(err) {
		return fmt.Errorf("down %s: remove container: %w", a.Name, err)
	}
	base, err := d.img.Remove(ctx, info.Image)
	if err != nil {
		return fmt.Errorf("down %s: %w", a.Name, err)
	}
	if err := d.removeShared(ctx, base); err != nil {
		return fmt.Errorf("down %s: %w", a.Name, err)
	}
	return nil
}

// removeShared removes the base image (when given) and the network unless
// something uses them; it waits for the agents coming up in this process.
func (d *Runtime) removeShared(ctx context.Context, base string) error {
	d.inflight.Lock()
	defer d.inflight.Unlock()
	if base != "" {
		if _, err := d.img.Remove(ctx, base); err != nil {
			return err
		}
	}
	d.removeNetworkIfUnused(ctx)
	return nil
}

// Health reports whether the agent's card answers, and otherwise what
// became of its container.
func (d *Runtime) Health(ctx context.Context, a *deploy.Agent) deploy.Health {
	err := deploy.CardAnswers(ctx, a.URL)
	if err == nil {
		return deploy.Health{Up: true}
	}
	info, ierr := d.api.ContainerInspect(ctx, a.ID)
	switch {
	case cerrdefs.IsNotFound(ierr):
		return deploy.Health{Detail: "container gone"}
	case ierr == nil && info.State != nil && !info.State.Running:
		return deploy.Health{Detail: fmt.Sprintf("container %s (status %d)", info.State.Status, info.State.ExitCode)}
	}
	return deploy.Health{Detail: err.Error()}
}

// RemoveAgentImages removes the images agentnet built for the agent name
// (and their base images, and the network, when nothing uses them) that
// no container uses. The swarm runtime's Down calls it for an agent whose
// service is gone.
func (d *Runtime) RemoveAgentImages(ctx context.Context, name string) error {
	imgs, err := d.api.ImageList(ctx, image.ListOptions{Filters: filters.NewArgs(
		filters.Arg("label", LabelManaged+"=true"), filters.Arg("label", LabelAgent+"="+name))})
	if err != nil {
		return fmt.Errorf("down %s: list images: %w", name, err)
	}
	for _, img := range imgs {
		base, err := d.img.Remove(ctx, img.ID)
		if err == nil {
			err = d.removeShared(ctx, base)
		}
		if err != nil {
			return fmt.Errorf("down %s: %w", name, err)
		}
	}
	return nil
}

func (d *Runtime) removeNetworkIfUnused(ctx context.Context) {
	unlock, err := LockHost("docker-network")
	if err != nil {
		return
	}
	defer unlock()
	n, err := d.api.NetworkInspect(ctx, Network, network.InspectOptions{})
	if err != nil || n.Labels[LabelManaged] != "true" || len(n.Containers) > 0 {
		return
	}
	// Another agent may attach meanwhile; then the removal fails, which is
	// what we want.
	_ = d.api.NetworkRemove(ctx, n.ID)
}

// ensureNetwork returns the id of the agentnet network, creating it when
// there is none. Runtimes of other processes may create it at the same time
// and the engine's check for duplicate names is best effort: when several
// networks of the name exist, every runtime keeps the oldest and removes the
// others it can, so that all attach their containers to the same one.
func (d *Runtime) ensureNetwork(ctx context.Context) (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	unlock, err := LockHost("docker-network")
	if err != nil {
		return "", err
	}
	defer unlock()
	for attempt := 0; ; attempt++ {
		nets, err := d.api.NetworkList(ctx, network.ListOptions{Filters: filters.NewArgs(filters.Arg("name", Network))})
		if err != nil {
			return "", fmt.Errorf("list networks: %w", err)
		}
		var ours []network.Summary
		for _, n := range nets {
			if n.Name != Network {
				continue // the name filter matches parts of names too
			}
			if n.Labels[LabelManaged] != "true" {
				return "", fmt.Errorf("a Docker network named %q exists that agentnet did not make; remove or rename it", Network)
			}
			ours = append(ours, n)
		}
		if len(ours) > 0 {
			sort.Slice(ours, func(i, j int) bool {
				if !ours[i].Created.Equal(ours[j].Created) {
					return ours[i].Created.Before(ours[j].Created)
				}
				return ours[i].ID < ours[j].ID
			})
			for _, n := range ours[1:] {
				// One with containers attached is refused; it goes with
				// them, at their Down.
				_ = d.api.NetworkRemove(ctx, n.ID)
			}
			return ours[0].ID, nil
		}
		if attempt == 3 {
			return "", fmt.Errorf("create network %s: it is removed as soon as it is made", Network)
		}
		_, err = d.api.NetworkCreate(ctx, Network, network.CreateOptions{
			Driver: "bridge",
			Options: map[string]string{
				"com.docker.network.bridge.enable_icc":           "false",
				"com.docker.network.bridge.enable_ip_masquerade": "false",
			},
			Labels: map[string]string{LabelManaged: "true", LabelRole: "network"},
		})
		if err != nil && !cerrdefs.IsConflict(err) {
			return "", fmt.Errorf("create network %s: %w", Network, err)
		}
	}
}

// networkGone reports an engine error about a network that no longer
// exists (another process's Down removed it while it was unused).
func networkGone(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "network") && strings.Contains(msg, "not found")
}

func (d *Runtime) logTail(ctx context.Context, id string) string {
	rc, err := d.api.ContainerLogs(context.WithoutCancel(ctx), id, container.LogsOptions{ShowStdout: true, ShowStderr: true, Tail: "20"})
	if err != nil {
		return ""
	}
	defer rc.Close()
	raw, _ := io.ReadAll(io.LimitReader(rc, 64<<10))
	text := demux(raw)
	if len(text) > 600 {
		text = text[len(text)-600:]
	}
	if strings.TrimSpace(text) == "" {
		return ""
	}
	return "; container log:\n" + text
}

// demux strips the 8-byte frame headers Docker puts on the logs of a
// container without a terminal.
func demux(raw []byte) string {
	var out bytes.Buffer
	for len(raw) >= 8 && (raw[0] == 1 || raw[0] == 2) && raw[1] == 0 && raw[2] == 0 && raw[3] == 0 {
		n := int(raw[4])<<24 | int(raw[5])<<16 | int(raw[6])<<8 | int(raw[7])
		raw = raw[8:]
		if n > len(raw) {
			n = len(raw)
		}
		out.Write(raw[:n])
		raw = raw[n:]
	}
	out.Write(raw)
	return out.String()
}

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

func ptr[T any](v T) *T { return &v }

func lookupEnv(env []string, key string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			return v
		}
	}
	return ""
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
