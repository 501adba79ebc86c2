package image

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/client"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/agentnet/agentnet/bundle"
)

// Labels on everything agentnet creates in a Docker engine. Removal and the
// clean-up of tests select by them and never touch anything without them.
const (
	LabelManaged = "agentnet.managed" // "true" on every container, image and network
	LabelRole    = "agentnet.role"    // "base", "agent" (images), "agent" (containers), "network"
	LabelAgent   = "agentnet.agent"   // the agent's name (agent images and containers)
	LabelBundle  = "agentnet.bundle"  // the bundle directory on the host
	LabelBase    = "agentnet.base"    // on an agent image: the base image it was built on
)

// AgentRoot is where an agent image holds the bundle (and its local repo).
const AgentRoot = "/agent"

// API is the part of the Docker Engine API client the builder uses.
type API interface {
	ImageImport(ctx context.Context, source image.ImportSource, ref string, options image.ImportOptions) (io.ReadCloser, error)
	ImageInspect(ctx context.Context, imageID string, opts ...client.ImageInspectOption) (image.InspectResponse, error)
	ImageRemove(ctx context.Context, imageID string, options image.RemoveOptions) ([]image.DeleteResponse, error)
	ContainerCreate(ctx context.Context, config *container.Config, hostConfig *container.HostConfig, networkingConfig *network.NetworkingConfig, platform *ocispec.Platform, containerName string) (container.CreateResponse, error)
	CopyToContainer(ctx context.Context, containerID, dstPath string, content io.Reader, options container.CopyToContainerOptions) error
	ContainerCommit(ctx context.Context, containerID string, options container.CommitOptions) (container.CommitResponse, error)
	ContainerRemove(ctx context.Context, containerID string, options container.RemoveOptions) error
}

var _ API = (*client.Client)(nil)

// Builder builds images in one Docker engine from this machine's files.
// It is safe for concurrent use.
type Builder struct {
	self  string // the agentnet executable
	api   API
	Tools *Toolchain // finds programs and what they need on this machine

	mu     sync.Mutex             // guards builds
	builds map[string]*sync.Mutex // image ref → its build's lock
	// plan makes Ensure build nothing: the image references are computed
	// without an engine (see NewPlanner).
	plan bool
}

// NewBuilder returns a builder of images holding self (the agentnet
// executable) and the programs it finds on the PATH of env, in the engine
// api talks to.
func NewBuilder(self string, env []string, api API) *Builder {
	return &Builder{self: self, api: api, Tools: NewToolchain(env), builds: map[string]*sync.Mutex{}}
}

// NewPlanner returns a builder that computes the references of the images
// without building them (no engine needed): the references are keys of the
// contents, so they are those a Builder makes of the same files.
func NewPlanner(self string, env []string) *Builder {
	b := NewBuilder(self, env, nil)
	b.plan = true
	return b
}

// Image is an agent's image as the docker and swarm runtimes build it, and
// how its container serves the bundle.
type Image struct {
	Agent     string `json:"agent"`      // the agent's name
	Ref       string `json:"image"`      // agentnet-agent-NAME:KEY
	Base      string `json:"base"`       // the base image it is built on
	BundleDir string `json:"bundle_dir"` // the bundle's directory in the image
	Port      int    `json:"port"`       // the port the host listens on in the container
	// Command is the container's command up to (not including) --url:
	// agentnet serve BUNDLE --addr 0.0.0.0:PORT.
	Command []string `json:"command"`
}

// Port is the port the host listens on in an agent's container.
const Port = "8080"

// Image builds the base image and the agent image of the bundle in dir
// under name, unless images of the same contents are there.
func (d *Builder) Image(ctx context.Context, name, dir string) (*Image, error) {
	if d.self == "" {
		return nil, fmt.Errorf("image of %s: no agentnet executable to put in it", name)
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	b, err := bundle.Load(dir)
	if err != nil {
		return nil, err
	}
	base, err := d.Base(ctx, b)
	if err != nil {
		return nil, fmt.Errorf("image of %s: %w", name, err)
	}
	ref, inImage, err := d.Agent(ctx, name, b, base)
	if err != nil {
		return nil, fmt.Errorf("image of %s: %w", name, err)
	}
	return &Image{Agent: name, Ref: ref, Base: base, BundleDir: inImage, Port: 8080,
		Command: []string{AgentnetInImage, "serve", inImage, "--addr", "0.0.0.0:" + Port}}, nil
}

// Base returns the base image for the bundle: agentnet and every
// program its skills, checks and own server run, with what they need, and
// the files of its system packages, from this machine's own files.
func (d *Builder) Base(ctx context.Context, b *bundle.Bundle) (string, error) {
	r := NewRootfs()
	if err := d.Tools.AddAgentnet(r, d.self); err != nil {
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
			if err := d.Tools.AddNeeds(r, argv0); err != nil {
				return "", err
			}
			continue
		}
		if err := d.Tools.AddCommand(r, argv0, repo); err != nil {
			return "", err
		}
	}
	// The Debian packages the skills need, as this machine has them.
	if err := d.Tools.AddPackages(r, b.SystemPackages); err != nil {
		return "", err
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
		if err := d.Tools.addVenv(r, v); err != nil {
			return "", err
		}
	}
	argvs := make([][]string, len(cmds))
	for i, c := range cmds {
		argvs[i] = c
	}
	if err := d.Tools.addPythonPackages(r, py.files, argvs...); err != nil {
		return "", err
	}
	if r.Shell {
		if err := d.Tools.AddShellTools(r); err != nil {
			return "", err
		}
	}
	r.Dirs["/tmp"] = true
	r.Data["/etc/passwd"] = []byte("root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/tmp:/sbin/nologin\n")
	r.Data["/etc/group"] = []byte("root:x:0:\nnogroup:x:65534:\n")
	ref := "agentnet-base:" + r.Key()[:16]
	err = d.Ensure(ctx, ref, func() error {
		pr, pw := io.Pipe()
		go func() { pw.CloseWithError(r.WriteTar(pw, "")) }()
		defer pr.Close()
		out, err := d.api.ImageImport(ctx, image.ImportSource{Source: pr, SourceName: "-"}, ref, image.ImportOptions{
			Message: "agentnet base image",
			Changes: []string{
				fmt.Sprintf(`ENTRYPOINT ["%s"]`, AgentnetInImage),
				"ENV PATH=" + ImagePath,
				fmt.Sprintf("LABEL %s=true %s=base", LabelManaged, LabelRole),
			},
		})
		if err != nil {
			return err
		}
		defer out.Close()
		return ReadProgress(out)
	})
	if err != nil {
		return "", fmt.Errorf("build base image: %w", err)
	}
	return ref, nil
}

// Agent builds the agent's image: the base plus the bundle (and its
// local repo, at the same place relative to it). It returns the image and
// the bundle's directory in it.
func (d *Builder) Agent(ctx context.Context, name string, b *bundle.Bundle, baseRef string) (ref, bundleInImage string, _ error) {
	bundleDir, err := filepath.Abs(b.Dir)
	if err != nil {
		return "", "", err
	}
	repo := b.RepoDir()
	root := bundleDir
	if repo != bundleDir && (b.Repo == nil || !bundle.IsGitURL(b.Repo.Source)) {
		root = commonDir(bundleDir, repo)
	}
	r := NewRootfs()
	noGit := func(rel string) bool { return filepath.Base(rel) == ".git" }
	relBundle, _ := filepath.Rel(root, bundleDir)
	bundleInImage = filepath.Join(AgentRoot, relBundle)
	if err := r.addTree(bundleDir, bundleInImage, noGit); err != nil {
		return "", "", fmt.Errorf("copy bundle %s: %w", bundleDir, err)
	}
	if !strings.HasPrefix(repo+"/", bundleDir+"/") {
		relRepo, _ := filepath.Rel(root, repo)
		if err := r.addTree(repo, filepath.Join(AgentRoot, relRepo), noGit); err != nil {
			return "", "", fmt.Errorf("copy repo %s: %w", repo, err)
		}
	}
	ref = "agentnet-agent-" + Sanitize(name) + ":" + r.Key(baseRef)[:16]
	err = d.Ensure(ctx, ref, func() error {
		// One commit of a container made from the base, rather than a
		// Dockerfile build: the classic builder commits once per step.
		labels := map[string]string{LabelManaged: "true", LabelRole: "agent", LabelAgent: name, LabelBase: baseRef}
		c, err := d.api.ContainerCreate(ctx, &container.Config{Image: baseRef, Labels: labels},
			&container.HostConfig{NetworkMode: "none"}, nil, nil, "agentnet-build-"+Sanitize(name)+"-"+RandomSuffix())
		if err != nil {
			return err
		}
		defer d.api.ContainerRemove(context.WithoutCancel(ctx), c.ID, container.RemoveOptions{Force: true})
		pr, pw := io.Pipe()
		go func() { pw.CloseWithError(r.WriteTar(pw, "")) }()
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

// Ensure builds the image ref with build unless it exists; builds of
// the same ref in this process wait for each other.
func (d *Builder) Ensure(ctx context.Context, ref string, build func() error) error {
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

// Remove removes an image agentnet made unless a container or another
// image still uses it; it returns the base image an agent image was built
// on.
func (d *Builder) Remove(ctx context.Context, ref string) (base string, _ error) {
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

// ReadProgress reads a build or import progress stream to its end and
// returns the error it reports, if any.
func ReadProgress(r io.Reader) error {
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

// Sanitize makes a name usable in image and container names.
func Sanitize(name string) string {
	s := strings.Trim(unsafeName.ReplaceAllString(strings.ToLower(name), "-"), "-._")
	if s == "" {
		s = "agent"
	}
	if len(s) > 40 {
		s = s[:40]
	}
	return s
}

func RandomSuffix() string {
	var b [4]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
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

var unsafeName = regexp.MustCompile(`[^a-z0-9_.-]+`)
