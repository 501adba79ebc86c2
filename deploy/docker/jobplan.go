package docker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/mount"

	agentimg "github.com/agentnet/agentnet/deploy/image"
	"github.com/agentnet/agentnet/internal/proc"
)

// JobPlan is a job made ready to start: its image made, its container's
// configuration, and the writable mounts lent to its user. Jobs hands it
// to a JobRunner, which reads it and does not change it.
type JobPlan struct {
	Cmd     string                // the command line (shortened), for messages
	Name    string                // the job's name: its agentnet.job label
	Config  *container.Config     // the container's; Config.Image is the job's image
	Host    *container.HostConfig // its mounts, /tmp, network and limits
	Timeout time.Duration         // the bound of the command's run

	jobs     *Jobs
	img      jobImage
	argv     []string // the command, its argv[0] resolved against dir
	dir      string   // the working directory in the container
	mounts   []Mount  // cleaned
	max      int
	tee      io.Writer
	giveBack func()
}

// JobOutcome is how a job's command ended.
type JobOutcome struct {
	Status     int64 // the exit status; -1 when none is known
	WaitFailed error // why the wait for its end failed
	OOMKilled  bool  // it was killed for want of memory
}

// JobRunner runs planned jobs other than as containers of the Jobs'
// engine (the swarm package's NewJobs runs them as Swarm jobs). Jobs calls
// it concurrently.
type JobRunner interface {
	// RunJob runs the job until it ends, times out (p.Timeout) or ctx
	// ends, and removes what it made for it; it sets res's Elapsed,
	// Stdout, Stderr (through p.Output) and TimedOut, and records the
	// image it ran (p.Used). An error says why the job did not run.
	RunJob(ctx context.Context, p *JobPlan, res *proc.Result) (JobOutcome, error)
}

// Output returns the writers of the job's stdout and stderr: bounded
// buffers, and the tee when there is one.
func (p *JobPlan) Output() (stdout, stderr *proc.Limited, outW, errW io.Writer) {
	stdout, stderr = &proc.Limited{Max: p.max}, &proc.Limited{Max: p.max}
	outW, errW = stdout, stderr
	if p.tee != nil {
		outW, errW = io.MultiWriter(stdout, p.tee), io.MultiWriter(stderr, p.tee)
	}
	return stdout, stderr, outW, errW
}

// Used records an image the job ran in, which Jobs.Close removes.
func (p *JobPlan) Used(id string) { p.jobs.used(id) }

// prepare checks the spec, builds the job's image and its container's
// configuration, and lends the writable mounts to the job's user; a
// returned plan's giveBack must run once the container is gone, also on
// error.
func (j *Jobs) prepare(ctx context.Context, spec JobSpec) (*JobPlan, error) {
	p, err := j.plan(spec)
	if err != nil {
		return nil, err
	}
	if _, err := j.api.Ping(ctx); err != nil {
		return nil, fmt.Errorf("%q: docker: %w", p.Cmd, err)
	}
	if !filepath.IsAbs(p.argv[0]) && strings.ContainsRune(p.argv[0], '/') {
		p.argv[0] = filepath.Join(p.dir, p.argv[0])
	}
	p.img, err = j.image(ctx, p.argv[0], spec.Programs, p.mounts)
	if err != nil {
		return nil, fmt.Errorf("%q: build the job's image: %w", p.Cmd, err)
	}
	netMode, err := j.network(ctx, spec)
	if err != nil {
		return nil, fmt.Errorf("%q: %w", p.Cmd, err)
	}
	user, giveBack, err := lend(p.mounts)
	p.giveBack = giveBack
	if err != nil {
		return p, fmt.Errorf("%q: %w", p.Cmd, err)
	}
	p.configure(spec, user, netMode)
	return p, nil
}

// plan checks the spec and starts the job's plan with its defaults: the
// timeout, the output's bound, the mounts and the working directory.
func (j *Jobs) plan(spec JobSpec) (*JobPlan, error) {
	if len(spec.Argv) == 0 {
		return nil, errors.New("empty command")
	}
	j.mu.Lock()
	closed := j.closed
	j.mu.Unlock()
	if closed {
		return nil, errors.New("docker jobs: closed")
	}
	p := &JobPlan{Timeout: spec.Timeout, jobs: j, max: spec.MaxOutput, tee: spec.Tee, giveBack: func() {}}
	if p.Timeout <= 0 {
		p.Timeout = time.Minute
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
	p.Cmd = cmdName(spec.Argv)
	p.argv, p.dir, p.mounts = append([]string(nil), spec.Argv...), dir, mounts
	return p, nil
}

// configure makes the container's configuration of the planned job, whose
// image is made, run as user on the network netMode.
func (p *JobPlan) configure(spec JobSpec, user string, netMode container.NetworkMode) {
	env, tmpfs := spec.Env, jobTmpfs
	if p.img.goroot != "" {
		env = goEnv(env, p.img.goroot, p.img.gcc)
		// go test and go run execute what they build in /tmp, which
		// Docker mounts noexec unless told otherwise.
		tmpfs += ",exec"
	}
	cmd := p.argv
	if p.img.selfKill {
		// Should agentnet die without removing the container, the job
		// still ends: timeout kills its process group a little after
		// agentnet would have.
		cmd = append([]string{"timeout", "-s", "KILL", fmt.Sprintf("%ds", int((p.Timeout + selfKillGrace).Seconds()))}, p.argv...)
	}
	binds := p.img.binds
	for _, m := range p.mounts {
		binds = append(binds, mount.Mount{Type: mount.TypeBind, Source: m.Host, Target: m.Path, ReadOnly: m.ReadOnly})
	}
	p.Name = spec.Name
	if p.Name == "" {
		p.Name = filepath.Base(p.argv[0])
	}
	p.Config = &container.Config{
		Image:      p.img.ref,
		Cmd:        cmd,
		Env:        jobEnv(env),
		User:       user,
		WorkingDir: p.dir,
		Labels:     map[string]string{LabelManaged: "true", LabelRole: "job", LabelJob: p.Name},
	}
	p.Host = &container.HostConfig{
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
