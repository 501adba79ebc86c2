package deploy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/client"
	"github.com/docker/docker/pkg/stdcopy"

	agentimg "github.com/agentnet/agentnet/deploy/image"
	"github.com/agentnet/agentnet/internal/proc"
)

// LabelJob names the job on the containers Jobs runs ("agentnet.role" is
// "job" on them and on their images).
const LabelJob = "agentnet.job"

// Limits of a job's container: more than an agent's, since coding agents
// and test runners build and compile.
const (
	jobMemory   = 2 << 30 // bytes
	jobNanoCPUs = 1e9     // one CPU
	jobPids     = 512
	jobTmpfs    = "rw,nosuid,nodev,size=1g,mode=1777" // counted in the memory limit
	// selfKillGrace is how long after its timeout a job whose agentnet
	// is gone kills itself.
	selfKillGrace = 10 * time.Second
	nobody        = 65534
)

// jobAPI is the part of the Docker Engine API client Jobs uses.
type jobAPI interface {
	dockerAPI
	ContainerList(ctx context.Context, options container.ListOptions) ([]container.Summary, error)
	ContainerWait(ctx context.Context, containerID string, condition container.WaitCondition) (<-chan container.WaitResponse, <-chan error)
}

var _ jobAPI = (*client.Client)(nil)

// Jobs runs one-off commands — coding agents, hidden tests — each in a
// container of its own that is removed when the command ends, however it
// ends (and that kills itself shortly after its timeout should agentnet
// die first without removing it). The image holds the programs the command names and what they need
// (as the docker runtime's base image does: from this machine's own files,
// nothing pulled), tagged agentnet-job:KEY by a key of its contents and
// reused while the Jobs is open. Jobs is safe for concurrent use; Close
// removes the images it used.
type Jobs struct {
	d   *docker
	api jobAPI
	// svc, when set, runs the jobs without a listener to reach as Swarm
	// jobs (NewSwarmJobs).
	svc *client.Client

	mu      sync.Mutex
	images  map[string]bool    // ids of the images jobs ran in or were imported for
	goroots map[string]*goRoot // the Go installations of this machine's go commands, by command
	closed  bool
}

// NewJobs returns a Jobs talking to the Docker Engine of cfg.Env
// (DOCKER_HOST, else the local socket); programs named by a bare name are
// looked up on cfg.Env's PATH.
func NewJobs(cfg Config) (*Jobs, error) {
	opts := []client.Opt{client.WithAPIVersionNegotiation()}
	if h := lookupEnv(cfg.Env, "DOCKER_HOST"); h != "" {
		opts = append(opts, client.WithHost(h))
	}
	c, err := client.NewClientWithOpts(opts...)
	if err != nil {
		return nil, fmt.Errorf("docker jobs: %w", err)
	}
	return newJobsWith(cfg, c), nil
}

func newJobsWith(cfg Config, api jobAPI) *Jobs {
	return &Jobs{d: newDockerWith(cfg, api), api: api, images: map[string]bool{}, goroots: map[string]*goRoot{}}
}

// Mount is a directory of this machine that a job sees.
type Mount struct {
	Host     string // an existing directory
	Path     string // where the job sees it (absolute); "" means at Host
	ReadOnly bool
}

// JobSpec is one command to run in a container.
type JobSpec struct {
	// Name labels the container (agentnet.job) and names it.
	Name string
	// Argv is the command, never run by a shell. Argv[0] is a bare name
	// looked up on this machine's PATH, an absolute path, or a path
	// relative to Dir; the image holds it and what it needs. The go
	// command (as argv[0] or among Programs) brings its whole
	// installation instead: see Run.
	Argv []string
	// Programs are further programs the command runs (bare names or
	// paths), put in the image when this machine has them and left out
	// otherwise. A POSIX shell brings its usual tools anyway.
	Programs []string
	// Env is the command's environment; PATH, HOME and TMPDIR are the
	// container's own.
	Env []string
	// Dir is the working directory in the container (default: the first
	// mount's path).
	Dir string
	// Mounts are the only directories of this machine the job sees.
	Mounts []Mount
	// Timeout bounds the command's run (default one minute), MaxOutput
	// the bytes of stdout and of stderr kept (default
	// proc.DefaultMaxOutput); Tee, when set, also gets both as they come.
	Timeout   time.Duration
	MaxOutput int
	Tee       io.Writer
	// The job's network: with Reach (a listener from Jobs.Listen), a
	// private internal bridge network on which it reaches that listener
	// at the listener's address and nothing beyond this machine; with
	// Beside (a docker runtime agent), the network of the agent's
	// container, where it reaches the agent at BesideURL; with neither,
	// no network at all.
	Reach  net.Listener
	Beside *Agent
}

// BesideURL is where a job run Beside a docker runtime agent reaches that
// agent's A2A endpoint.
func BesideURL() string { return "http://127.0.0.1:" + dockerPort + "/" }

// Run runs the job to completion and removes its container. Like proc.Run,
// it never returns a nil Result and its Err is nil only when the command
// ran and exited with status 0; it says why not otherwise (the image could
// not be made, the command timed out and was killed, the context ended,
// the exit status with the tail of stderr). A job's container runs as an
// unprivileged user (this machine's user, or nobody when that is root: the
// writable mounts are lent to nobody for the job's run and given back
// afterwards) with a read-only root file system, a tmpfs at /tmp, no
// capabilities, no new privileges, 2 GiB of memory (its 1 GiB /tmp
// included), one CPU and 512 processes.
//
// A job that runs this machine's go command sees its GOROOT (as `go env
// GOROOT` tells) read-only at its own path, with what the installation's
// symbolic links lead to, and gets, unless spec.Env sets them: GOROOT;
// GOPATH, GOMODCACHE and GOCACHE under /tmp, empty at the start;
// GOTOOLCHAIN=local; GOPROXY=off, since a job reaches no module proxy; and
// CGO_ENABLED=0 unless the image holds gcc. Its /tmp allows execution, for
// the binaries go test and go run build there. Modules beyond the standard
// library must therefore be vendored; when the go command failed for want
// of one, Err wraps a *GoModuleError.
func (j *Jobs) Run(ctx context.Context, spec JobSpec) *proc.Result {
	res := &proc.Result{ExitCode: -1}
	if err := j.run(ctx, spec, res); err != nil {
		res.Err = err
	}
	return res
}

func (j *Jobs) run(ctx context.Context, spec JobSpec, res *proc.Result) error {
	p, err := j.prepare(ctx, spec)
	if p != nil {
		// Ownership goes back after the container is gone, on every path.
		defer p.giveBack()
	}
	if err != nil {
		return err
	}
	var out jobOutcome
	if j.svc != nil && spec.Reach == nil {
		out, err = j.runService(ctx, p, res)
	} else {
		out, err = j.runContainer(ctx, p, res)
	}
	if err != nil {
		return err
	}
	return p.verdict(ctx, out, res)
}

// jobPlan is a job made ready to start: its image, its container's
// configuration and the mounts lent to its user.
type jobPlan struct {
	name     string // the command's name, for messages
	jobName  string // the agentnet.job label
	img      jobImage
	cfg      *container.Config
	hc       *container.HostConfig
	timeout  time.Duration
	max      int
	tee      io.Writer
	beside   *Agent
	giveBack func()
}

// jobOutcome is how the job's command ended.
type jobOutcome struct {
	status     int64
	waitFailed error
	oomKilled  bool
}

// prepare checks the spec, builds the job's image and its container's
// configuration, and lends the writable mounts to the job's user; a
// returned plan's giveBack must run once the container is gone, also on
// error.
func (j *Jobs) prepare(ctx context.Context, spec JobSpec) (*jobPlan, error) {
	if len(spec.Argv) == 0 {
		return nil, errors.New("empty command")
	}
	j.mu.Lock()
	closed := j.closed
	j.mu.Unlock()
	if closed {
		return nil, errors.New("docker jobs: closed")
	}
	p := &jobPlan{timeout: spec.Timeout, max: spec.MaxOutput, tee: spec.Tee, beside: spec.Beside, giveBack: func() {}}
	if p.timeout <= 0 {
		p.timeout = time.Minute
	}
	if p.max <= 0 {
		p.max = proc.DefaultMaxOutput
	}
	mounts, err := cleanMounts(spec.Mounts)
	if err != nil {
		return nil, err
	}
	dir := spec.Dir
	if dir == "" && len(mounts) > 0 {
		dir = mounts[0].Path
	}
	if dir == "" {
		dir = "/tmp"
	}
	if !filepath.IsAbs(dir) {
		return nil, fmt.Errorf("job working directory %q is not an absolute path", dir)
	}
	p.name = cmdName(spec.Argv)
	if _, err := j.api.Ping(ctx); err != nil {
		return nil, fmt.Errorf("%q: docker: %w", p.name, err)
	}
	argv := append([]string(nil), spec.Argv...)
	if !filepath.IsAbs(argv[0]) && strings.ContainsRune(argv[0], '/') {
		argv[0] = filepath.Join(dir, argv[0])
	}
	p.img, err = j.image(ctx, argv[0], spec.Programs, mounts)
	if err != nil {
		return nil, fmt.Errorf("%q: build the job's image: %w", p.name, err)
	}
	env, tmpfs := spec.Env, jobTmpfs
	if p.img.goroot != "" {
		env = goEnv(env, p.img.goroot, p.img.gcc)
		// go test and go run execute what they build in /tmp, which
		// Docker mounts noexec unless told otherwise.
		tmpfs += ",exec"
	}
	cmd := argv
	if p.img.selfKill {
		// Should agentnet die without removing the container, the job
		// still ends: timeout kills its process group a little after
		// agentnet would have.
		cmd = append([]string{"timeout", "-s", "KILL", fmt.Sprintf("%ds", int((p.timeout + selfKillGrace).Seconds()))}, argv...)
	}
	netMode, err := j.network(ctx, spec)
	if err != nil {
		return nil, fmt.Errorf("%q: %w", p.name, err)
	}
	binds := p.img.binds
	for _, m := range mounts {
		binds = append(binds, mount.Mount{Type: mount.TypeBind, Source: m.Host, Target: m.Path, ReadOnly: m.ReadOnly})
	}
	user, giveBack, err := lend(mounts)
	p.giveBack = giveBack
	if err != nil {
		return p, fmt.Errorf("%q: %w", p.name, err)
	}
	p.jobName = spec.Name
	if p.jobName == "" {
		p.jobName = filepath.Base(argv[0])
	}
	p.cfg = &container.Config{
		Image:      p.img.ref,
		Cmd:        cmd,
		Env:        jobEnv(env),
		User:       user,
		WorkingDir: dir,
		Labels:     map[string]string{LabelManaged: "true", LabelRole: "job", LabelJob: p.jobName},
	}
	p.hc = &container.HostConfig{
		Mounts:         binds,
		ReadonlyRootfs: true,
		Tmpfs:          map[string]string{"/tmp": tmpfs},
		CapDrop:        []string{"ALL"},
		SecurityOpt:    []string{"no-new-privileges"},
		Init:           ptr(true),
		NetworkMode:    netMode,
		Resources: container.Resources{
			Memory:    jobMemory,
			NanoCPUs:  jobNanoCPUs,
			PidsLimit: ptr(int64(jobPids)),
		},
	}
	return p, nil
}

// output returns the writers of the job's stdout and stderr: bounded
// buffers, and the tee when there is one.
func (p *jobPlan) output() (stdout, stderr *proc.Limited, outW, errW io.Writer) {
	stdout, stderr = &proc.Limited{Max: p.max}, &proc.Limited{Max: p.max}
	outW, errW = stdout, stderr
	if p.tee != nil {
		outW, errW = io.MultiWriter(stdout, p.tee), io.MultiWriter(stderr, p.tee)
	}
	return stdout, stderr, outW, errW
}

// runContainer creates the job's container, starts it, follows its output
// and waits for it to end or be killed at the timeout; it removes the
// container.
func (j *Jobs) runContainer(ctx context.Context, p *jobPlan, res *proc.Result) (jobOutcome, error) {
	out := jobOutcome{status: -1}
	created, err := j.api.ContainerCreate(ctx, p.cfg, p.hc, nil, nil, "agentnet-job-"+agentimg.Sanitize(p.jobName)+"-"+agentimg.RandomSuffix())
	if err != nil {
		return out, fmt.Errorf("%q: create the job's container: %w", p.name, err)
	}
	id := created.ID
	defer j.api.ContainerRemove(context.WithoutCancel(ctx), id, container.RemoveOptions{Force: true})
	if info, err := j.api.ContainerInspect(ctx, id); err == nil {
		// The image the tag named when the container was made.
		j.used(info.Image)
	}

	tctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	// The wait is set up before the start, so that no exit is missed.
	wctx, stopWait := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWait()
	waitC, waitErr := j.api.ContainerWait(wctx, id, container.WaitConditionNextExit)
	start := time.Now()
	if err := j.api.ContainerStart(tctx, id, container.StartOptions{}); err != nil {
		if ctx.Err() != nil {
			return out, fmt.Errorf("%q: %w", p.name, ctx.Err())
		}
		return out, fmt.Errorf("%q: start the job's container: %w", p.name, err)
	}
	stdout, stderr, outW, errW := p.output()
	copied := make(chan struct{})
	logs, err := j.api.ContainerLogs(wctx, id, container.LogsOptions{ShowStdout: true, ShowStderr: true, Follow: true})
	if err != nil {
		close(copied)
	} else {
		go func() {
			defer close(copied)
			stdcopy.StdCopy(outW, errW, logs)
		}()
	}

	select {
	case w := <-waitC:
		out.status = w.StatusCode
		if w.Error != nil && w.Error.Message != "" {
			out.waitFailed = errors.New(w.Error.Message)
		}
	case err := <-waitErr:
		out.waitFailed = err
	case <-tctx.Done():
		// The timeout or the caller's cancellation: the container and
		// everything in it die now.
		_ = j.api.ContainerRemove(context.WithoutCancel(ctx), id, container.RemoveOptions{Force: true})
	}
	res.Elapsed = time.Since(start)
	if logs != nil {
		// The log stream ends with the container; a stream that lingers
		// is cut.
		select {
		case <-copied:
		case <-time.After(5 * time.Second):
			logs.Close()
			<-copied
		}
		logs.Close()
	}
	res.Stdout, res.Stderr = stdout.Buf, stderr.Buf
	res.TimedOut = errors.Is(tctx.Err(), context.DeadlineExceeded)
	if out.status != 0 && !res.TimedOut && ctx.Err() == nil {
		if info, err := j.api.ContainerInspect(context.WithoutCancel(ctx), id); err == nil && info.State != nil && info.State.OOMKilled {
			out.oomKilled = true
		}
	}
	return out, nil
}

// verdict turns how the job ended into Run's error: nil for status 0.
func (p *jobPlan) verdict(ctx context.Context, out jobOutcome, res *proc.Result) error {
	name := p.name
	switch {
	case res.TimedOut:
		return fmt.Errorf("%q timed out after %s and was killed", name, p.timeout)
	case ctx.Err() != nil:
		return fmt.Errorf("%q: %w", name, ctx.Err())
	case out.waitFailed != nil:
		return fmt.Errorf("%q: wait for the job's container: %w", name, out.waitFailed)
	}
	status := out.status
	res.ExitCode = int(status)
	if status == 0 {
		return nil
	}
	detail := ""
	if out.oomKilled {
		detail = fmt.Sprintf(" (killed: out of its %d MiB of memory)", jobMemory>>20)
	}
	if p.img.goroot != "" {
		if line := goModuleTrouble(res.Stdout, res.Stderr); line != "" {
			return fmt.Errorf("%q exited with status %d%s: %w%s", name, status, detail, &GoModuleError{Line: line}, proc.Tail(res.Stderr, 2000))
		}
	}
	return fmt.Errorf("%q exited with status %d%s%s", name, status, detail, proc.Tail(res.Stderr, 2000))
}

// jobImage is a job's image and what running a container of it takes.
type jobImage struct {
	ref string
	// binds are read-only binds: the program files that live under /tmp
	// (where the container's tmpfs would hide them in the image) and the
	// Go installation of a go command.
	binds    []mount.Mount
	selfKill bool   // the image holds timeout (coreutils)
	goroot   string // the GOROOT of the go command the job runs; "" for none
	gcc      bool   // the image holds gcc
}

// image returns the job's image, with the programs it runs and what they
// need, and the binds a container of it takes.
func (j *Jobs) image(ctx context.Context, argv0 string, programs []string, mounts []Mount) (jobImage, error) {
	tc := j.d.img.Tools
	r := agentimg.NewRootfs()
	var img jobImage
	var goBinds []mount.Mount
	// addGo adds the go command at host (this machine's, not in a mount):
	// its installation is bound into the container, not copied.
	addGo := func(host string, bare bool) error {
		g, err := j.goRoot(ctx, host)
		if err != nil {
			return err
		}
		if img.goroot != "" && img.goroot != g.dir {
			return fmt.Errorf("program %s: a job sees one Go installation, %s, not also %s", host, img.goroot, g.dir)
		}
		if img.goroot == "" {
			img.goroot = g.dir
			goBinds = g.binds
			for _, b := range g.binds {
				// The mount points are in the image, so that
				// nothing need be made in its read-only root.
				if g.files[b.Target] {
					r.Data[b.Target] = []byte{}
				} else {
					r.Dirs[b.Target] = true
				}
			}
			// The tools the go command runs, when they are not static.
			tools, _ := filepath.Glob(filepath.Join(g.real, "pkg", "tool", "*", "*"))
			if err := tc.AddLibs(r, tools...); err != nil {
				return err
			}
		}
		real, err := filepath.EvalSymlinks(host)
		if err != nil {
			return fmt.Errorf("program %s: %w", host, err)
		}
		if !strings.HasPrefix(real, g.real+"/") {
			// A go outside its GOROOT (a wrapper) is copied like
			// any other program.
			if bare {
				return tc.AddCommand(r, filepath.Base(host), "")
			}
			return tc.AddProgram(r, host)
		}
		if err := tc.AddNeeds(r, real); err != nil {
			return err
		}
		// Go tests that run go find it on PATH.
		r.Links["/usr/local/bin/go"] = filepath.Join(g.dir, strings.TrimPrefix(real, g.real))
		return nil
	}
	add := func(p string, optional bool) error {
		if !strings.ContainsRune(p, '/') {
			host, err := tc.LookPath(p)
			if err != nil {
				if optional {
					return nil
				}
				return err
			}
			if isGoCommand(host) {
				return addGo(host, true)
			}
			return tc.AddCommand(r, p, "")
		}
		host, inMount := hostPath(p, mounts)
		if _, err := os.Stat(host); err != nil {
			if optional {
				return nil
			}
			return fmt.Errorf("program %s: %w", p, err)
		}
		if inMount {
			// The job sees it through its mount; the image holds only
			// what running it takes.
			return tc.AddNeeds(r, host)
		}
		if isGoCommand(host) {
			return addGo(host, false)
		}
		return tc.AddProgram(r, host)
	}
	if err := add(argv0, false); err != nil {
		return img, err
	}
	for _, p := range programs {
		if err := add(p, true); err != nil {
			return img, err
		}
	}
	if r.Shell {
		if err := tc.AddShellTools(r); err != nil {
			return img, err
		}
	}
	if _, err := tc.LookPath("timeout"); err == nil {
		if err := tc.AddCommand(r, "timeout", ""); err != nil {
			return img, err
		}
		img.selfKill = true
	}
	for _, d := range filepath.SplitList(agentimg.ImagePath) {
		p := filepath.Join(d, "gcc")
		if _, ok := r.Files[p]; ok {
			img.gcc = true
		} else if _, ok := r.Links[p]; ok {
			img.gcc = true
		}
	}
	var binds []mount.Mount
	for p, host := range r.Files {
		if strings.HasPrefix(p, "/tmp/") {
			binds = append(binds, mount.Mount{Type: mount.TypeBind, Source: host, Target: p, ReadOnly: true})
			delete(r.Files, p)
		}
	}
	for p := range r.Links {
		if strings.HasPrefix(p, "/tmp/") {
			target, err := filepath.EvalSymlinks(p)
			if err != nil {
				return img, fmt.Errorf("program %s: %w", p, err)
			}
			binds = append(binds, mount.Mount{Type: mount.TypeBind, Source: target, Target: p, ReadOnly: true})
			delete(r.Links, p)
		}
	}
	for p := range r.Dirs {
		if strings.HasPrefix(p, "/tmp/") {
			delete(r.Dirs, p)
		}
	}
	for p := range r.Data {
		if strings.HasPrefix(p, "/tmp/") {
			delete(r.Data, p)
		}
	}
	binds = append(binds, goBinds...)
	sort.Slice(binds, func(a, b int) bool { return binds[a].Target < binds[b].Target })
	r.Dirs["/tmp"] = true
	r.Data["/etc/passwd"] = []byte("root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/tmp:/sbin/nologin\n")
	r.Data["/etc/group"] = []byte("root:x:0:\nnogroup:x:65534:\n")
	ref := "agentnet-job:" + r.Key("job")[:16]
	err := j.d.img.Ensure(ctx, ref, func() error {
		pr, pw := io.Pipe()
		go func() { pw.CloseWithError(r.WriteTar(pw, "")) }()
		defer pr.Close()
		out, err := j.api.ImageImport(ctx, image.ImportSource{Source: pr, SourceName: "-"}, ref, image.ImportOptions{
			Message: "agentnet job image",
			Changes: []string{
				"ENV PATH=" + agentimg.ImagePath,
				fmt.Sprintf("LABEL %s=true %s=job", LabelManaged, LabelRole),
			},
		})
		if err != nil {
			return err
		}
		defer out.Close()
		id, err := importedID(out)
		if id != "" {
			// Another import of the same contents (another process) may
			// take the tag away from it: it is removed by id.
			j.used(id)
		}
		return err
	})
	if err != nil {
		return img, err
	}
	img.ref, img.binds = ref, binds
	return img, nil
}

// used records an image a job ran in (or was imported for), for Close.
func (j *Jobs) used(id string) {
	j.mu.Lock()
	j.images[id] = true
	j.mu.Unlock()
}

// importedID reads an image import's progress stream to its end and
// returns the new image's id and the error the stream reports, if any.
func importedID(r io.Reader) (string, error) {
	dec := json.NewDecoder(r)
	id := ""
	for {
		var msg struct {
			Status      string `json:"status"`
			Error       string `json:"error"`
			ErrorDetail struct {
				Message string `json:"message"`
			} `json:"errorDetail"`
		}
		if err := dec.Decode(&msg); err == io.EOF {
			return id, nil
		} else if err != nil {
			return id, err
		}
		if strings.HasPrefix(msg.Status, "sha256:") {
			id = strings.TrimSpace(msg.Status)
		}
		if msg.ErrorDetail.Message != "" {
			return id, errors.New(msg.ErrorDetail.Message)
		}
		if msg.Error != "" {
			return id, errors.New(msg.Error)
		}
	}
}

// network returns the network mode of the job's container.
func (j *Jobs) network(ctx context.Context, spec JobSpec) (container.NetworkMode, error) {
	switch {
	case spec.Reach != nil && spec.Beside != nil:
		return "", errors.New("a job reaches either a listener or an agent, not both")
	case spec.Reach != nil:
		l, ok := spec.Reach.(*jobListener)
		if !ok || l.jobs != j {
			return "", errors.New("the job's listener was not opened by Jobs.Listen")
		}
		return container.NetworkMode(l.network), nil
	case spec.Beside != nil && spec.Beside.Runtime == "swarm":
		// The agents' attachable overlay network: a Swarm job, or a
		// container on this node, joins it and reaches the agent's
		// service by name (BesideURLOf).
		return container.NetworkMode(SwarmNetwork), nil
	case spec.Beside != nil:
		if spec.Beside.Runtime != "docker" {
			return "", fmt.Errorf("agent %s runs on the %s runtime, not in a container", spec.Beside.Name, spec.Beside.Runtime)
		}
		info, err := j.api.ContainerInspect(ctx, spec.Beside.ID)
		if err != nil {
			return "", fmt.Errorf("agent %s: %w", spec.Beside.Name, err)
		}
		if info.Config == nil || info.Config.Labels[LabelManaged] != "true" {
			return "", fmt.Errorf("agent %s: container %s was not made by agentnet", spec.Beside.Name, shortID(spec.Beside.ID))
		}
		if info.State == nil || !info.State.Running {
			return "", fmt.Errorf("agent %s: its container is not running", spec.Beside.Name)
		}
		return container.NetworkMode("container:" + info.ID), nil
	}
	return "none", nil
}

// Listen opens a listener on this machine for jobs to reach: it listens on
// the gateway address of a bridge network of its own, an internal one
// (nothing is forwarded out of its subnet, names outside it do not
// resolve), which only the jobs run with it as JobSpec.Reach join. Closing the listener removes the network; close it
// after those jobs end. Like every bridge gateway, its address is one of
// this machine's own: containers on other networks can connect to it too,
// so what it serves should not trust its callers.
func (j *Jobs) Listen(ctx context.Context) (net.Listener, error) {
	if _, err := j.api.Ping(ctx); err != nil {
		return nil, fmt.Errorf("docker: %w", err)
	}
	name := "agentnet-job-" + agentimg.RandomSuffix()
	created, err := j.api.NetworkCreate(ctx, name, network.CreateOptions{
		Driver:   "bridge",
		Internal: true,
		Options: map[string]string{
			"com.docker.network.bridge.enable_icc":           "false",
			"com.docker.network.bridge.enable_ip_masquerade": "false",
		},
		Labels: map[string]string{LabelManaged: "true", LabelRole: "network"},
	})
	if err != nil {
		return nil, fmt.Errorf("create network %s: %w", name, err)
	}
	remove := func() { _ = j.api.NetworkRemove(context.WithoutCancel(ctx), created.ID) }
	n, err := j.api.NetworkInspect(ctx, created.ID, network.InspectOptions{})
	if err != nil {
		remove()
		return nil, fmt.Errorf("inspect network %s: %w", name, err)
	}
	gw := ""
	for _, c := range n.IPAM.Config {
		if ip := net.ParseIP(c.Gateway); ip != nil && ip.To4() != nil {
			gw = c.Gateway
			break
		}
	}
	if gw == "" {
		remove()
		return nil, fmt.Errorf("network %s has no IPv4 gateway", name)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(gw, "0"))
	if err != nil {
		remove()
		return nil, fmt.Errorf("listen on network %s: %w", name, err)
	}
	return &jobListener{Listener: ln, jobs: j, network: name, id: created.ID}, nil
}

// jobListener is a listener on a job network's gateway; closing it removes
// the network.
type jobListener struct {
	net.Listener
	jobs    *Jobs
	network string
	id      string
	once    sync.Once
}

func (l *jobListener) Close() error {
	err := l.Listener.Close()
	l.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if rerr := l.jobs.api.NetworkRemove(ctx, l.id); rerr != nil && !cerrdefs.IsNotFound(rerr) && err == nil {
			err = fmt.Errorf("remove network %s: %w", l.network, rerr)
		}
	})
	return err
}

// Ping reports whether the Docker Engine answers.
func (j *Jobs) Ping(ctx context.Context) error {
	if _, err := j.api.Ping(ctx); err != nil {
		return fmt.Errorf("docker: %w", err)
	}
	return nil
}

// Containers lists the ids of the containers of jobs named name that exist,
// running or not: none once their Run has returned.
func (j *Jobs) Containers(ctx context.Context, name string) ([]string, error) {
	cs, err := j.api.ContainerList(ctx, container.ListOptions{All: true, Filters: filters.NewArgs(
		filters.Arg("label", LabelManaged+"=true"), filters.Arg("label", LabelJob+"="+name))})
	if err != nil {
		return nil, fmt.Errorf("list the containers of job %s: %w", name, err)
	}
	ids := make([]string, 0, len(cs))
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	return ids, nil
}

// Close removes the images the jobs ran in, unless something else uses
// them. Run fails after Close.
func (j *Jobs) Close(ctx context.Context) error {
	j.mu.Lock()
	j.closed = true
	ids := make([]string, 0, len(j.images))
	for id := range j.images {
		ids = append(ids, id)
	}
	j.images = map[string]bool{}
	j.mu.Unlock()
	sort.Strings(ids)
	var errs []error
	for _, id := range ids {
		if _, err := j.d.img.Remove(ctx, id); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Sandbox returns a runner of coding agents in jobs named name: each
// command sees only the directories it is given, read-write at their own
// paths, and reaches the listener it is given (from Listen).
func (j *Jobs) Sandbox(name string) *Sandbox { return &Sandbox{jobs: j, name: name} }

// Sandbox runs commands in job containers, in the shape the generation
// package's Sandbox interface asks for.
type Sandbox struct {
	jobs *Jobs
	name string
}

// Listen is Jobs.Listen.
func (s *Sandbox) Listen(ctx context.Context) (net.Listener, error) { return s.jobs.Listen(ctx) }

// Run runs spec in a job that sees dirs (read-write, at their own paths)
// and reaches the listener reach, when not nil. Spec.Stdin is not passed:
// the command reads an empty input.
func (s *Sandbox) Run(ctx context.Context, spec proc.Spec, dirs []string, reach net.Listener) *proc.Result {
	js := JobSpec{Name: s.name, Argv: spec.Argv, Env: spec.Env, Dir: spec.Dir, Timeout: spec.Timeout,
		MaxOutput: spec.MaxOutput, Tee: spec.Tee, Reach: reach}
	for _, d := range dirs {
		js.Mounts = append(js.Mounts, Mount{Host: d})
	}
	return s.jobs.Run(ctx, js)
}

// cleanMounts checks the mounts and fills in their paths.
func cleanMounts(in []Mount) ([]Mount, error) {
	out := make([]Mount, 0, len(in))
	for _, m := range in {
		host, err := filepath.Abs(m.Host)
		if err != nil {
			return nil, fmt.Errorf("mount %s: %w", m.Host, err)
		}
		fi, err := os.Stat(host)
		if err != nil {
			return nil, fmt.Errorf("mount %s: %w", m.Host, err)
		}
		if !fi.IsDir() {
			return nil, fmt.Errorf("mount %s: not a directory", m.Host)
		}
		p := m.Path
		if p == "" {
			p = host
		}
		if !filepath.IsAbs(p) {
			return nil, fmt.Errorf("mount %s: path %q in the container is not absolute", m.Host, m.Path)
		}
		p = filepath.Clean(p)
		if p == "/" || p == "/tmp" {
			return nil, fmt.Errorf("mount %s: cannot be mounted at %s", m.Host, p)
		}
		out = append(out, Mount{Host: host, Path: p, ReadOnly: m.ReadOnly})
	}
	return out, nil
}

// hostPath maps a path in the container to this machine's file it shows,
// and reports whether it lies in a mount.
func hostPath(p string, mounts []Mount) (string, bool) {
	for _, m := range mounts {
		if p == m.Path || strings.HasPrefix(p, m.Path+"/") {
			return filepath.Join(m.Host, strings.TrimPrefix(p, m.Path)), true
		}
	}
	return p, false
}

// jobEnv is the container's environment: env with the container's own
// PATH, HOME and TMPDIR.
func jobEnv(env []string) []string {
	out := []string{"PATH=" + agentimg.ImagePath, "HOME=/tmp", "TMPDIR=/tmp"}
	for _, kv := range env {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "PATH", "HOME", "TMPDIR", "":
			continue
		}
		out = append(out, kv)
	}
	return out
}

// lend returns the user a job runs as: this machine's user, or nobody when
// that is root, in which case the writable mounts are handed to nobody
// until giveBack restores every file's owner (files the job made go to the
// owner of their mount).
func lend(mounts []Mount) (user string, giveBack func(), _ error) {
	uid, gid := os.Getuid(), os.Getgid()
	if uid != 0 {
		return fmt.Sprintf("%d:%d", uid, gid), func() {}, nil
	}
	type owner struct{ uid, gid int }
	type lent struct {
		root   string
		rootOf owner
		owners map[string]owner
	}
	var all []lent
	giveBack = func() {
		for _, l := range all {
			filepath.WalkDir(l.root, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return nil
				}
				o, ok := l.owners[p]
				if !ok {
					o = l.rootOf
				}
				_ = os.Lchown(p, o.uid, o.gid)
				return nil
			})
		}
	}
	for _, m := range mounts {
		if m.ReadOnly {
			continue
		}
		l := lent{root: m.Host, owners: map[string]owner{}}
		err := filepath.WalkDir(m.Host, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			st, ok := info.Sys().(*syscall.Stat_t)
			if !ok {
				return fmt.Errorf("owner of %s: unknown", p)
			}
			o := owner{int(st.Uid), int(st.Gid)}
			if p == m.Host {
				l.rootOf = o
			}
			l.owners[p] = o
			return os.Lchown(p, nobody, nobody)
		})
		all = append(all, l)
		if err != nil {
			return "", giveBack, fmt.Errorf("lend %s to the job's user: %w", m.Host, err)
		}
	}
	return fmt.Sprintf("%d:%d", nobody, nobody), giveBack, nil
}

func cmdName(argv []string) string {
	name := strings.Join(argv, " ")
	if len(name) > 200 {
		name = name[:200] + "…"
	}
	return name
}

// goRoot is a Go installation of this machine, which the jobs that run its
// go command see read-only at its own path.
type goRoot struct {
	dir  string // GOROOT, as `go env GOROOT` tells
	real string // dir with its symbolic links resolved
	// binds are read-only binds of dir and of what the symbolic links in
	// it lead to outside it (Debian's GOROOT links to /usr/share).
	binds []mount.Mount
	files map[string]bool // the bind targets that are files
}

// isGoCommand reports whether the program at host is a go command.
func isGoCommand(host string) bool {
	if filepath.Base(host) == "go" {
		return true
	}
	real, err := filepath.EvalSymlinks(host)
	return err == nil && filepath.Base(real) == "go"
}

// goRoot returns the Go installation of the go command at goBin, asked of
// it once while the Jobs is open.
func (j *Jobs) goRoot(ctx context.Context, goBin string) (*goRoot, error) {
	j.mu.Lock()
	g := j.goroots[goBin]
	j.mu.Unlock()
	if g != nil {
		return g, nil
	}
	g, err := findGoRoot(ctx, goBin, j.d.cfg.Env, os.Getuid() == 0)
	if err != nil {
		return nil, err
	}
	j.mu.Lock()
	j.goroots[goBin] = g
	j.mu.Unlock()
	return g, nil
}

// findGoRoot asks the go command at goBin (with the environment env) for
// its GOROOT and lists the binds that show it in a container. With
// forNobody, the job's user is nobody, and every file of the installation
// must be readable by all.
func findGoRoot(ctx context.Context, goBin string, env []string, forNobody bool) (*goRoot, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, goBin, "env", "GOROOT")
	// Out of any module, and with no toolchain switch, the answer is this
	// go command's own.
	cmd.Dir = "/"
	cmd.Env = append(withoutEnv(env, "GOTOOLCHAIN", "GOFLAGS"), "GOTOOLCHAIN=local")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s env GOROOT: %w%s", goBin, err, proc.Tail([]byte(stderr.String()), 300))
	}
	dir := strings.TrimSpace(string(out))
	if !filepath.IsAbs(dir) {
		return nil, fmt.Errorf("%s env GOROOT: %q is not an absolute path", goBin, dir)
	}
	dir = filepath.Clean(dir)
	if dir == "/" || dir == "/tmp" {
		return nil, fmt.Errorf("%s env GOROOT: %s cannot be mounted in a job", goBin, dir)
	}
	if fi, err := os.Stat(filepath.Join(dir, "src", "runtime")); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%s env GOROOT: %s holds no Go source tree", goBin, dir)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, fmt.Errorf("GOROOT %s: %w", dir, err)
	}
	g := &goRoot{dir: dir, real: real, files: map[string]bool{}}
	g.binds = append(g.binds, mount.Mount{Type: mount.TypeBind, Source: real, Target: dir, ReadOnly: true})
	outside := map[string]string{} // container path → this machine's file
	if err := walkGoRoot(real, dir, forNobody, outside); err != nil {
		return nil, err
	}
	targets := make([]string, 0, len(outside))
	for t := range outside {
		targets = append(targets, t)
	}
	sort.Strings(targets)
	for i, t := range targets {
		if i > 0 && within(t, targets[:i]) {
			continue
		}
		// What a link leads to is checked like the installation itself;
		// the links in it are not followed further.
		if err := walkGoRoot(outside[t], t, forNobody, nil); err != nil {
			return nil, err
		}
		if fi, err := os.Stat(outside[t]); err == nil && !fi.IsDir() {
			g.files[t] = true
		}
		g.binds = append(g.binds, mount.Mount{Type: mount.TypeBind, Source: outside[t], Target: t, ReadOnly: true})
	}
	return g, nil
}

// walkGoRoot walks the tree at host, which a job sees at path: with
// forNobody, every directory and file must be readable by all; the
// symbolic links that lead out of path (resolved as the job would) go to
// outside when it is not nil, dangling ones left out.
func walkGoRoot(host, path string, forNobody bool, outside map[string]string) error {
	return filepath.WalkDir(host, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("Go installation %s: %w", path, err)
		}
		rel, _ := filepath.Rel(host, p)
		in := filepath.Join(path, rel)
		if forNobody {
			info, err := d.Info()
			if err != nil {
				return fmt.Errorf("Go installation %s: %w", path, err)
			}
			need := fs.FileMode(0o004)
			if info.IsDir() {
				need = 0o005
			}
			if info.Mode()&fs.ModeSymlink == 0 && info.Mode().Perm()&need != need {
				return fmt.Errorf("Go installation %s: %s is not readable by the job's user (nobody); make the installation readable by all", path, in)
			}
		}
		if outside == nil || d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		target, err := os.Readlink(p)
		if err != nil {
			return fmt.Errorf("Go installation %s: %w", path, err)
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(in), target)
		}
		target = filepath.Clean(target)
		if target == path || strings.HasPrefix(target, path+"/") || target == "/" || target == "/tmp" {
			return nil
		}
		if src, err := filepath.EvalSymlinks(p); err == nil {
			outside[target] = src
		}
		return nil
	})
}

// within reports whether p lies in one of the directories dirs.
func within(p string, dirs []string) bool {
	for _, d := range dirs {
		if strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// goEnv adds to env what the go command needs in a job, unless env sets it:
// GOROOT; its module and build caches under the container's /tmp, the only
// place the job's user may write; no module proxy and no toolchain
// download, since a job reaches nothing beyond an agent; and cgo off
// unless the image holds gcc.
func goEnv(env []string, goroot string, gcc bool) []string {
	defaults := []string{
		"GOROOT=" + goroot,
		"GOPATH=/tmp/go",
		"GOMODCACHE=/tmp/go/pkg/mod",
		"GOCACHE=/tmp/go-build",
		"GOTOOLCHAIN=local",
		"GOPROXY=off",
	}
	if !gcc {
		defaults = append(defaults, "CGO_ENABLED=0")
	}
	set := map[string]bool{}
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		set[k] = true
	}
	out := make([]string, 0, len(env)+len(defaults))
	for _, kv := range defaults {
		if k, _, _ := strings.Cut(kv, "="); !set[k] {
			out = append(out, kv)
		}
	}
	return append(out, env...)
}

// withoutEnv returns env without the variables keys.
func withoutEnv(env []string, keys ...string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(keys, k) {
			out = append(out, kv)
		}
	}
	return out
}

// GoModuleError reports that the go command of a job failed for want of a
// module: a job reaches no module proxy (GOPROXY=off) and starts with an
// empty module cache, so the modules that Go code or its tests need beyond
// the standard library must be vendored beside its go.mod (go mod vendor).
type GoModuleError struct {
	// Line is what the go command said about it.
	Line string
}

func (e *GoModuleError) Error() string {
	return "go could not get a module it needs (" + e.Line + "): a job has no network and GOPROXY=off, " +
		"so modules beyond the standard library must be required in go.mod and vendored beside it (go mod vendor)"
}

// goModuleSigns are what the go command says when a module it needs is not
// there and may not be downloaded.
var goModuleSigns = []string{
	"module lookup disabled by GOPROXY=off",
	"missing go.sum entry",
	"no required module provides package",
	"cannot find module providing package",
}

// goModuleTrouble returns the first line of a go command's output (its
// stderr, then its stdout, read as go test -json events when it is JSON)
// that tells of a module it could not get, or "".
func goModuleTrouble(stdout, stderr []byte) string {
	for _, out := range [][]byte{stderr, stdout} {
		for line := range strings.Lines(string(out)) {
			var ev struct{ Output string }
			if json.Unmarshal([]byte(line), &ev) == nil && ev.Output != "" {
				line = ev.Output
			}
			for _, sign := range goModuleSigns {
				if strings.Contains(line, sign) {
					line = strings.TrimSpace(line)
					if len(line) > 300 {
						line = line[:300] + "…"
					}
					return line
				}
			}
		}
	}
	return ""
}
