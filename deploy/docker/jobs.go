package docker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sort"
	"sync"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/client"

	"github.com/agentnet/agentnet/deploy"
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
	API
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
	cfg deploy.Config
	img *agentimg.Builder // builds the jobs' images
	api jobAPI
	// runner, when set, runs the jobs without a listener to reach
	// (NewJobsWith; the swarm package's NewJobs runs them as Swarm jobs).
	runner JobRunner

	mu      sync.Mutex
	images  map[string]bool    // ids of the images jobs ran in or were imported for
	goroots map[string]*goRoot // the Go installations of this machine's go commands, by command
	closed  bool
}

// NewJobs returns a Jobs talking to the Docker Engine of cfg.Env
// (DOCKER_HOST, else the local socket); programs named by a bare name are
// looked up on cfg.Env's PATH.
func NewJobs(cfg deploy.Config) (*Jobs, error) {
	return NewJobsWith(cfg, nil)
}

// NewJobsWith is NewJobs with the jobs that reach no listener run by
// runner instead, when it is not nil.
func NewJobsWith(cfg deploy.Config, runner JobRunner) (*Jobs, error) {
	c, err := Client(lookupEnv(cfg.Env, "DOCKER_HOST"))
	if err != nil {
		return nil, fmt.Errorf("docker jobs: %w", err)
	}
	return &Jobs{cfg: cfg, img: agentimg.NewBuilder(cfg.Self, cfg.Env, c), api: c, runner: runner,
		images: map[string]bool{}, goroots: map[string]*goRoot{}}, nil
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
	Beside *deploy.Agent
}

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
	var out JobOutcome
	if j.runner != nil && spec.Reach == nil {
		out, err = j.runner.RunJob(ctx, p, res)
	} else {
		out, err = j.runContainer(ctx, p, res)
	}
	if err != nil {
		return err
	}
	return p.verdict(ctx, out, res)
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
		if _, err := j.img.Remove(ctx, id); err != nil {
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
