package deploy

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
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
)

func init() { Register("docker", newDocker) }

// Labels the docker runtime puts on everything it creates. Down and the
// clean-up of tests select by them and never touch anything without them.
const (
	LabelManaged = "agentnet.managed" // "true" on every container, image and network
	LabelRole    = "agentnet.role"    // "base", "agent" (images), "agent" (containers), "network"
	LabelAgent   = "agentnet.agent"   // the agent's name (agent images and containers)
	LabelBundle  = "agentnet.bundle"  // the bundle directory on the host
	LabelBase    = "agentnet.base"    // on an agent image: the base image it was built on
)

// DockerNetwork is the bridge network agent containers are attached to. It
// has no masquerading (no route out of the machine) and no traffic between
// containers; each agent is reached through its port published on
// 127.0.0.1 only.
const DockerNetwork = "agentnet"

// Container limits and layout.
const (
	dockerMemory   = 512 << 20 // bytes
	dockerNanoCPUs = 1e9       // one CPU
	dockerPids     = 256
	dockerTmpfs    = "rw,nosuid,nodev,size=256m,mode=1777"
	dockerPort     = "8080"
	dockerUser     = "65534:65534" // nobody
	agentRoot      = "/agent"      // the bundle (and its local repo) in the image
)

// dockerAPI is the part of the Docker Engine API client the docker runtime
// uses.
type dockerAPI interface {
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

var _ dockerAPI = (*client.Client)(nil)

// docker runs each agent in a container of its own, from an image built
// locally: nothing is pulled.
type docker struct {
	cfg Config
	api dockerAPI
	tc  *toolchain

	mu     sync.Mutex             // guards builds
	builds map[string]*sync.Mutex // image ref → its build's lock
	// plan makes ensureImage build nothing: the image references are
	// computed without an engine (PlanImage).
	plan bool
	// inflight is read-held by each Up from its base image to its
	// container; shared things (base images, the network) are removed
	// under its write lock, so that an agent coming up in this process
	// never loses them midway.
	inflight sync.RWMutex
}

var _ Runtime = (*docker)(nil)

func newDocker(cfg Config) (Runtime, error) {
	opts := []client.Opt{client.WithAPIVersionNegotiation()}
	if h := lookupEnv(cfg.Env, "DOCKER_HOST"); h != "" {
		opts = append(opts, client.WithHost(h))
	}
	c, err := client.NewClientWithOpts(opts...)
	if err != nil {
		return nil, fmt.Errorf("docker runtime: %w", err)
	}
	return newDockerWith(cfg, c), nil
}

func newDockerWith(cfg Config, api dockerAPI) *docker {
	return &docker{cfg: cfg, api: api, tc: newToolchain(cfg.Env), builds: map[string]*sync.Mutex{}}
}

func (d *docker) Name() string { return "docker" }

// Up builds the agent's image (and the base image holding agentnet and the
// programs the bundle runs, when no image with the same contents exists),
// starts its container with the card's URL set to the published loopback
// port, and waits for the card.
func (d *docker) Up(ctx context.Context, spec Spec) (*Agent, error) {
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
		d.removeImage(cctx, imageRef)
	}
	d.removeShared(cctx, baseRef)
	return nil, err
}

// up makes the images and starts the container; it returns the images it
// made or found, also on failure.
func (d *docker) up(ctx context.Context, spec Spec, b *bundle.Bundle) (_ *Agent, imageRef, baseRef string, _ error) {
	baseRef, err := d.baseImage(ctx, b)
	if err != nil {
		return nil, "", "", fmt.Errorf("up %s: %w", spec.Name, err)
	}
	imageRef, bundleInImage, err := d.agentImage(ctx, spec.Name, b, baseRef)
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
func (d *docker) start(ctx context.Context, spec Spec, b *bundle.Bundle, imageRef, bundleInImage, netID string) (_ *Agent, retry bool, _ error) {
	port, err := freePort()
	if err != nil {
		return nil, false, fmt.Errorf("up %s: %w", spec.Name, err)
	}
	url := fmt.Sprintf("http://127.0.0.1:%d/", port)
	cport := nat.Port(dockerPort + "/tcp")
	labels := map[string]string{LabelManaged: "true", LabelRole: "agent", LabelAgent: spec.Name, LabelBundle: b.Dir}
	cfg := &container.Config{
		Image: imageRef,
		// Files are answered inline: the URL a container serves them at
		// names the host's loopback, which no other container reaches.
		Cmd:          []string{"serve", bundleInImage, "--addr", "0.0.0.0:" + dockerPort, "--url", url, "--verbose", "--inline-file-max", "-1"},
		Env:          []string{"PATH=" + imagePath, "HOME=/tmp", "TMPDIR=/tmp", "LANG=C.UTF-8", "PYTHONDONTWRITEBYTECODE=1"},
		User:         dockerUser,
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
			Memory:    dockerMemory,
			NanoCPUs:  dockerNanoCPUs,
			PidsLimit: ptr(int64(dockerPids)),
		},
	}
	sigVar, err := d.cfg.CardSignaturesVar(b, url)
	if err != nil {
		return nil, false, fmt.Errorf("up %s: %w", spec.Name, err)
	}
	if sigVar != "" {
		cfg.Env = append(cfg.Env, sigVar)
	}
	name := "agentnet-" + sanitize(spec.Name) + "-" + randomSuffix()
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
	a := &Agent{Name: spec.Name, URL: url, Runtime: d.Name(), Bundle: b.Dir, ID: id, Started: time.Now().UTC()}

	deadline := time.NewTimer(d.cfg.ReadyTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for n := 0; ; n++ {
		select {
		case <-ctx.Done():
			remove()
			return nil, false, ctx.Err()
		case <-deadline.C:
			logs := d.logTail(ctx, id)
			remove()
			return nil, false, fmt.Errorf("up %s: no card at %s within %s%s", spec.Name, url, d.cfg.ReadyTimeout, logs)
		case <-tick.C:
			if CardAnswers(ctx, url) == nil {
				return a, false, nil
			}
			if n%10 != 9 {
				continue
			}
			if info, err := d.api.ContainerInspect(ctx, id); err == nil && info.State != nil && !info.State.Running {
				logs := d.logTail(ctx, id)
				remove()
				return nil, false, fmt.Errorf("up %s: the container exited (status %d) before its card answered%s", spec.Name, info.State.ExitCode, logs)
			}
		}
	}
}

// Down removes the agent's container, then its image and, when no other
// agent uses them, the base image and the network. It refuses to touch a
// container that does not carry agentnet's label.
func (d *docker) Down(ctx context.Context, a *Agent) error {
	info, err := d.api.ContainerInspect(ctx, a.ID)
	if cerrdefs.IsNotFound(err) {
		// The container is gone; its images may not be.
		return d.removeAgentImages(ctx, a.Name)
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
	base, err := d.removeImage(ctx, info.Image)
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
func (d *docker) removeShared(ctx context.Context, base string) error {
	d.inflight.Lock()
	defer d.inflight.Unlock()
	if base != "" {
		if _, err := d.removeImage(ctx, base); err != nil {
			return err
		}
	}
	d.removeNetworkIfUnused(ctx)
	return nil
}

// Health reports whether the agent's card answers, and otherwise what
// became of its container.
func (d *docker) Health(ctx context.Context, a *Agent) Health {
	err := CardAnswers(ctx, a.URL)
	if err == nil {
		return Health{Up: true}
	}
	info, ierr := d.api.ContainerInspect(ctx, a.ID)
	switch {
	case cerrdefs.IsNotFound(ierr):
		return Health{Detail: "container gone"}
	case ierr == nil && info.State != nil && !info.State.Running:
		return Health{Detail: fmt.Sprintf("container %s (status %d)", info.State.Status, info.State.ExitCode)}
	}
	return Health{Detail: err.Error()}
}

// removeImage removes an image agentnet made unless a container or another
// image still uses it; it returns the base image an agent image was built
// on.
func (d *docker) removeImage(ctx context.Context, ref string) (base string, _ error) {
	img, err := d.api.ImageInspect(ctx, ref)
	if cerrdefs.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("inspect image %s: %w", ref, err)
	}
	if img.Config == nil || img.Config.Labels[LabelManaged] != "true" {
		return "", nil
	}
	base = img.Config.Labels[LabelBase]
	_, err = d.api.ImageRemove(ctx, img.ID, image.RemoveOptions{PruneChildren: true})
	if err != nil && !cerrdefs.IsNotFound(err) && !cerrdefs.IsConflict(err) {
		return base, fmt.Errorf("remove image %s: %w", ref, err)
	}
	return base, nil
}

// removeAgentImages removes the images agentnet built for the agent name
// (and their base images) that no container uses.
func (d *docker) removeAgentImages(ctx context.Context, name string) error {
	imgs, err := d.api.ImageList(ctx, image.ListOptions{Filters: filters.NewArgs(
		filters.Arg("label", LabelManaged+"=true"), filters.Arg("label", LabelAgent+"="+name))})
	if err != nil {
		return fmt.Errorf("down %s: list images: %w", name, err)
	}
	for _, img := range imgs {
		base, err := d.removeImage(ctx, img.ID)
		if err == nil {
			err = d.removeShared(ctx, base)
		}
		if err != nil {
			return fmt.Errorf("down %s: %w", name, err)
		}
	}
	return nil
}

func (d *docker) removeNetworkIfUnused(ctx context.Context) {
	unlock, err := lockHost("docker-network")
	if err != nil {
		return
	}
	defer unlock()
	n, err := d.api.NetworkInspect(ctx, DockerNetwork, network.InspectOptions{})
	if err != nil || n.Labels[LabelManaged] != "true" || len(n.Containers) > 0 {
		return
	}
	// Another agent may attach meanwhile; then the removal fails, which is
	// what we want.
	_ = d.api.NetworkRemove(ctx, n.ID)
}

// baseImage returns the base image for the bundle: agentnet and every
// program its skills, checks and own server run, with what they need, from this
// machine's own files.
func (d *docker) baseImage(ctx context.Context, b *bundle.Bundle) (string, error) {
	r := newRootfs()
	if err := d.tc.addAgentnet(r, d.cfg.Self); err != nil {
		return "", err
	}
	repo, bundleDir := b.RepoDir(), b.AbsDir()
	var cmds []bundle.Command
	cmds = append(cmds, b.Check...)
	for _, s := range b.Skills {
		cmds = append(cmds, s.Run)
	}
	if len(b.Serve) > 0 {
		// The bundle's own server runs in the container behind the host.
		cmds = append(cmds, b.Serve)
	}
	for _, c := range cmds {
		if len(c) == 0 {
			continue
		}
		argv0 := strings.ReplaceAll(c[0], "{{"+bundle.VarRepo+"}}", repo)
		argv0 = strings.ReplaceAll(argv0, "{{"+bundle.VarBundle+"}}", bundleDir)
		if strings.Contains(argv0, "{{") {
			return "", fmt.Errorf("program %q: only {{repo}} and {{bundle}} can name a program in an image", c[0])
		}
		if !filepath.IsAbs(argv0) && strings.ContainsRune(argv0, '/') {
			argv0 = filepath.Join(repo, argv0)
		}
		if within := treeOf(argv0, repo, bundleDir); within != "" {
			// A program of the repo, or a wrapper beside agent.yaml: it
			// comes with the bundle; what it needs does not, nor what its
			// links (a venv's python) point to outside.
			if err := r.addLinkChain(argv0, within); err != nil {
				return "", err
			}
			if err := d.tc.addNeeds(r, argv0); err != nil {
				return "", err
			}
			continue
		}
		if err := d.tc.addCommand(r, argv0, repo); err != nil {
			return "", err
		}
	}
	// The bundle's virtual environments run on an interpreter of this
	// machine, and its Python code imports packages from the site
	// directories of the interpreters in the image.
	roots := []string{bundleDir}
	if !strings.HasPrefix(repo+"/", bundleDir+"/") {
		roots = append(roots, repo)
	}
	py, err := walkPython(roots...)
	if err != nil {
		return "", err
	}
	for _, v := range py.venvs {
		if err := d.tc.addVenv(r, v); err != nil {
			return "", err
		}
	}
	argvs := make([][]string, len(cmds))
	for i, c := range cmds {
		argvs[i] = c
	}
	if err := d.tc.addPythonPackages(r, py.files, argvs...); err != nil {
		return "", err
	}
	if r.shell {
		if err := d.tc.addShellTools(r); err != nil {
			return "", err
		}
	}
	r.dirs["/tmp"] = true
	r.data["/etc/passwd"] = []byte("root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/tmp:/sbin/nologin\n")
	r.data["/etc/group"] = []byte("root:x:0:\nnogroup:x:65534:\n")
	ref := "agentnet-base:" + r.key()[:16]
	err = d.ensureImage(ctx, ref, func() error {
		pr, pw := io.Pipe()
		go func() { pw.CloseWithError(r.writeTar(pw, "")) }()
		defer pr.Close()
		out, err := d.api.ImageImport(ctx, image.ImportSource{Source: pr, SourceName: "-"}, ref, image.ImportOptions{
			Message: "agentnet base image",
			Changes: []string{
				fmt.Sprintf(`ENTRYPOINT ["%s"]`, agentnetInImage),
				"ENV PATH=" + imagePath,
				fmt.Sprintf("LABEL %s=true %s=base", LabelManaged, LabelRole),
			},
		})
		if err != nil {
			return err
		}
		defer out.Close()
		return readProgress(out)
	})
	if err != nil {
		return "", fmt.Errorf("build base image: %w", err)
	}
	return ref, nil
}

// agentImage builds the agent's image: the base plus the bundle (and its
// local repo, at the same place relative to it). It returns the image and
// the bundle's directory in it.
func (d *docker) agentImage(ctx context.Context, name string, b *bundle.Bundle, baseRef string) (ref, bundleInImage string, _ error) {
	bundleDir, err := filepath.Abs(b.Dir)
	if err != nil {
		return "", "", err
	}
	repo := b.RepoDir()
	root := bundleDir
	if repo != bundleDir && (b.Repo == nil || !bundle.IsGitURL(b.Repo.Source)) {
		root = commonDir(bundleDir, repo)
	}
	r := newRootfs()
	noGit := func(rel string) bool { return filepath.Base(rel) == ".git" }
	relBundle, _ := filepath.Rel(root, bundleDir)
	bundleInImage = filepath.Join(agentRoot, relBundle)
	if err := r.addTree(bundleDir, bundleInImage, noGit); err != nil {
		return "", "", fmt.Errorf("copy bundle %s: %w", bundleDir, err)
	}
	if !strings.HasPrefix(repo+"/", bundleDir+"/") {
		relRepo, _ := filepath.Rel(root, repo)
		if err := r.addTree(repo, filepath.Join(agentRoot, relRepo), noGit); err != nil {
			return "", "", fmt.Errorf("copy repo %s: %w", repo, err)
		}
	}
	ref = "agentnet-agent-" + sanitize(name) + ":" + r.key(baseRef)[:16]
	err = d.ensureImage(ctx, ref, func() error {
		// One commit of a container made from the base, rather than a
		// Dockerfile build: the classic builder commits once per step.
		labels := map[string]string{LabelManaged: "true", LabelRole: "agent", LabelAgent: name, LabelBase: baseRef}
		c, err := d.api.ContainerCreate(ctx, &container.Config{Image: baseRef, Labels: labels},
			&container.HostConfig{NetworkMode: "none"}, nil, nil, "agentnet-build-"+sanitize(name)+"-"+randomSuffix())
		if err != nil {
			return err
		}
		defer d.api.ContainerRemove(context.WithoutCancel(ctx), c.ID, container.RemoveOptions{Force: true})
		pr, pw := io.Pipe()
		go func() { pw.CloseWithError(r.writeTar(pw, "")) }()
		err = d.api.CopyToContainer(ctx, c.ID, "/", pr, container.CopyToContainerOptions{})
		pr.Close()
		if err != nil {
			return err
		}
		_, err = d.api.ContainerCommit(ctx, c.ID, container.CommitOptions{Reference: ref, Comment: "agentnet agent " + name})
		return err
	})
	if err != nil {
		return "", "", fmt.Errorf("build image %s: %w", ref, err)
	}
	return ref, bundleInImage, nil
}

// ensureImage builds the image ref with build unless it exists; builds of
// the same ref in this process wait for each other.
func (d *docker) ensureImage(ctx context.Context, ref string, build func() error) error {
	d.mu.Lock()
	lock := d.builds[ref]
	if lock == nil {
		lock = &sync.Mutex{}
		d.builds[ref] = lock
	}
	d.mu.Unlock()
	lock.Lock()
	defer lock.Unlock()
	if d.plan {
		return nil
	}
	if _, err := d.api.ImageInspect(ctx, ref); err == nil {
		return nil
	} else if !cerrdefs.IsNotFound(err) {
		return err
	}
	return build()
}

// ensureNetwork returns the id of the agentnet network, creating it when
// there is none. Runtimes of other processes may create it at the same time
// and the engine's check for duplicate names is best effort: when several
// networks of the name exist, every runtime keeps the oldest and removes the
// others it can, so that all attach their containers to the same one.
func (d *docker) ensureNetwork(ctx context.Context) (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	unlock, err := lockHost("docker-network")
	if err != nil {
		return "", err
	}
	defer unlock()
	for attempt := 0; ; attempt++ {
		nets, err := d.api.NetworkList(ctx, network.ListOptions{Filters: filters.NewArgs(filters.Arg("name", DockerNetwork))})
		if err != nil {
			return "", fmt.Errorf("list networks: %w", err)
		}
		var ours []network.Summary
		for _, n := range nets {
			if n.Name != DockerNetwork {
				continue // the name filter matches parts of names too
			}
			if n.Labels[LabelManaged] != "true" {
				return "", fmt.Errorf("a Docker network named %q exists that agentnet did not make; remove or rename it", DockerNetwork)
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
			return "", fmt.Errorf("create network %s: it is removed as soon as it is made", DockerNetwork)
		}
		_, err = d.api.NetworkCreate(ctx, DockerNetwork, network.CreateOptions{
			Driver: "bridge",
			Options: map[string]string{
				"com.docker.network.bridge.enable_icc":           "false",
				"com.docker.network.bridge.enable_ip_masquerade": "false",
			},
			Labels: map[string]string{LabelManaged: "true", LabelRole: "network"},
		})
		if err != nil && !cerrdefs.IsConflict(err) {
			return "", fmt.Errorf("create network %s: %w", DockerNetwork, err)
		}
	}
}

// networkGone reports an engine error about a network that no longer
// exists (another process's Down removed it while it was unused).
func networkGone(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "network") && strings.Contains(msg, "not found")
}

func (d *docker) logTail(ctx context.Context, id string) string {
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

// readProgress reads a build or import progress stream to its end and
// returns the error it reports, if any.
func readProgress(r io.Reader) error {
	dec := json.NewDecoder(r)
	var last string
	for {
		var msg struct {
			Stream      string `json:"stream"`
			Error       string `json:"error"`
			ErrorDetail struct {
				Message string `json:"message"`
			} `json:"errorDetail"`
		}
		if err := dec.Decode(&msg); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		if msg.Stream != "" {
			last = strings.TrimSpace(msg.Stream)
		}
		if msg.Error != "" || msg.ErrorDetail.Message != "" {
			e := msg.ErrorDetail.Message
			if e == "" {
				e = msg.Error
			}
			if last != "" {
				e += " (after: " + last + ")"
			}
			return errors.New(e)
		}
	}
}

var unsafeName = regexp.MustCompile(`[^a-z0-9_.-]+`)

// sanitize makes a name usable in image and container names.
func sanitize(name string) string {
	s := strings.Trim(unsafeName.ReplaceAllString(strings.ToLower(name), "-"), "-._")
	if s == "" {
		s = "agent"
	}
	if len(s) > 40 {
		s = s[:40]
	}
	return s
}

func randomSuffix() string {
	var b [4]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// treeOf returns the first of the directories that holds p, or "".
func treeOf(p string, dirs ...string) string {
	for _, d := range dirs {
		if strings.HasPrefix(p, d+"/") {
			return d
		}
	}
	return ""
}

// commonDir is the deepest directory holding both a and b.
func commonDir(a, b string) string {
	for {
		if a == b || strings.HasPrefix(b+"/", a+"/") || a == "/" {
			return a
		}
		a = filepath.Dir(a)
	}
}

func lookupEnv(env []string, key string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			return v
		}
	}
	return ""
}

func ptr[T any](v T) *T { return &v }
