package swarm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/api/types/swarm"
	"github.com/docker/docker/client"
	"github.com/docker/docker/pkg/stdcopy"

	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/deploy/docker"
	agentimg "github.com/agentnet/agentnet/deploy/image"
	"github.com/agentnet/agentnet/internal/proc"
)

// NewJobs returns Jobs that run each job as a Swarm job (a service in
// replicated-job mode, one completion, never restarted) pinned to this
// manager node, whose files its mounts are, with the containment of a
// container job: the same image, user, read-only root, tmpfs, capabilities
// and limits. A job beside a swarm agent joins the agents' overlay network
// and reaches it at docker.BesideURLOf. A job given a listener to reach
// (JobSpec.Reach: a coding agent's metering proxy) runs as a container job
// on this node, since a Swarm service cannot join the private bridge
// network the listener is on.
func NewJobs(cfg deploy.Config) (*docker.Jobs, error) {
	c, err := docker.Client(lookupEnv(cfg.Env, "DOCKER_HOST"))
	if err != nil {
		return nil, fmt.Errorf("swarm jobs: %w", err)
	}
	return docker.NewJobsWith(cfg, &jobRunner{api: c})
}

// jobRunner runs planned jobs as Swarm jobs.
type jobRunner struct {
	api *client.Client
}

var _ docker.JobRunner = (*jobRunner)(nil)

// RunJob runs the planned job as a Swarm job and waits for its one task to
// end, following the output of its container; it removes the service,
// which removes the container.
func (r *jobRunner) RunJob(ctx context.Context, p *docker.JobPlan, res *proc.Result) (docker.JobOutcome, error) {
	out := docker.JobOutcome{Status: -1}
	spec, err := r.service(ctx, p)
	if err != nil {
		return out, err
	}
	if len(spec.TaskTemplate.Networks) == 0 {
		// A task without a network gets the engine's default bridge,
		// with a route out; Swarm has no "none". An internal overlay
		// network of the job's own has no route anywhere and no other
		// member.
		netID, err := r.jobNetwork(ctx, spec.Annotations.Name)
		if err != nil {
			return out, fmt.Errorf("%q: %w", p.Cmd, err)
		}
		defer removeNetwork(context.WithoutCancel(ctx), r.api, netID)
		spec.TaskTemplate.Networks = []swarm.NetworkAttachmentConfig{{Target: netID}}
	}
	created, err := r.api.ServiceCreate(ctx, spec, swarm.ServiceCreateOptions{})
	if err != nil {
		return out, fmt.Errorf("%q: create the Swarm job: %w", p.Cmd, err)
	}
	p.Used(p.Config.Image)
	rt := &Runtime{api: r.api}
	// Deferred after the network's removal, so it runs first.
	defer rt.removeService(context.WithoutCancel(ctx), created.ID)

	tctx, cancel := context.WithTimeout(ctx, p.Timeout)
	defer cancel()
	start := time.Now()
	stdout, stderr, outW, errW := p.Output()
	logs := &taskLogs{outW: outW, errW: errW}
	task := r.wait(ctx, tctx, created.ID, logs, &out)
	res.Elapsed = time.Since(start)
	logs.end()
	res.Stdout, res.Stderr = stdout.Buf, stderr.Buf
	res.TimedOut = errors.Is(tctx.Err(), context.DeadlineExceeded)
	if out.Status != 0 && !res.TimedOut {
		out.OOMKilled = r.oomKilled(ctx, task)
	}
	return out, nil
}

// service is the Swarm job of the planned job, pinned to this node, which
// must be a swarm manager.
func (r *jobRunner) service(ctx context.Context, p *docker.JobPlan) (swarm.ServiceSpec, error) {
	info, err := r.api.Info(ctx)
	if err != nil {
		return swarm.ServiceSpec{}, fmt.Errorf("%q: %w", p.Cmd, err)
	}
	if info.Swarm.LocalNodeState != swarm.LocalNodeStateActive || !info.Swarm.ControlAvailable {
		return swarm.ServiceSpec{}, fmt.Errorf("%q: the Docker engine is not a swarm manager (docker swarm init makes it one)", p.Cmd)
	}
	return jobService(p, info.Swarm.NodeID), nil
}

// wait polls the Swarm job's task until it ends, following its container's
// output, or until tctx ends, when the service goes at once. It sets out's
// Status or WaitFailed and returns the task as last seen.
func (r *jobRunner) wait(ctx, tctx context.Context, serviceID string, logs *taskLogs, out *docker.JobOutcome) swarm.Task {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var task swarm.Task
	for {
		select {
		case <-tctx.Done():
			_ = r.api.ServiceRemove(context.WithoutCancel(ctx), serviceID)
			return task
		case <-tick.C:
		}
		tasks, err := r.api.TaskList(tctx, swarm.TaskListOptions{Filters: filters.NewArgs(filters.Arg("service", serviceID))})
		if err != nil || len(tasks) == 0 {
			continue
		}
		task = tasks[0]
		logs.follow(ctx, r.api, task)
		switch task.Status.State {
		case swarm.TaskStateComplete, swarm.TaskStateFailed:
			if cs := task.Status.ContainerStatus; cs != nil {
				out.Status = int64(cs.ExitCode)
			}
			return task
		case swarm.TaskStateRejected, swarm.TaskStateShutdown, swarm.TaskStateOrphaned, swarm.TaskStateRemove:
			out.WaitFailed = fmt.Errorf("task %s: %s", task.Status.State, task.Status.Err)
			return task
		}
	}
}

// oomKilled reports whether the task's container was killed for want of
// memory.
func (r *jobRunner) oomKilled(ctx context.Context, task swarm.Task) bool {
	cs := task.Status.ContainerStatus
	if cs == nil || cs.ContainerID == "" {
		return false
	}
	ci, err := r.api.ContainerInspect(context.WithoutCancel(ctx), cs.ContainerID)
	return err == nil && ci.State != nil && ci.State.OOMKilled
}

// taskLogs copies the output of a task's container to outW and errW, from
// the moment the task has a container.
type taskLogs struct {
	outW, errW io.Writer
	rc         io.ReadCloser // the log stream, once followed
	copied     chan struct{} // closed when the copy is done
}

// follow starts following the output of the task's container, unless it
// follows one already or the task has none yet.
func (l *taskLogs) follow(ctx context.Context, api *client.Client, task swarm.Task) {
	cs := task.Status.ContainerStatus
	if l.rc != nil || cs == nil || cs.ContainerID == "" {
		return
	}
	rc, err := api.ContainerLogs(context.WithoutCancel(ctx), cs.ContainerID,
		container.LogsOptions{ShowStdout: true, ShowStderr: true, Follow: true})
	if err != nil {
		return
	}
	copied := make(chan struct{})
	l.rc, l.copied = rc, copied
	go func() {
		defer close(copied)
		stdcopy.StdCopy(l.outW, l.errW, rc)
	}()
}

// end waits for the copy to end: the stream ends with the container, and
// one that lingers is cut after five seconds.
func (l *taskLogs) end() {
	if l.rc == nil {
		return
	}
	select {
	case <-l.copied:
	case <-time.After(5 * time.Second):
		l.rc.Close()
		<-l.copied
	}
	l.rc.Close()
}

// jobNetwork makes an internal overlay network for one job.
func (r *jobRunner) jobNetwork(ctx context.Context, name string) (string, error) {
	n, err := r.api.NetworkCreate(ctx, name, network.CreateOptions{Driver: "overlay", Internal: true,
		Labels: map[string]string{agentimg.LabelManaged: "true", agentimg.LabelRole: "job-network"}})
	if err != nil {
		return "", fmt.Errorf("create the job's network: %w", err)
	}
	return n.ID, nil
}

// jobService is the Swarm job of a planned job container.
func jobService(p *docker.JobPlan, nodeID string) swarm.ServiceSpec {
	mounts := append([]mount.Mount(nil), p.Host.Mounts...)
	mounts = append(mounts, mount.Mount{Type: mount.TypeTmpfs, Target: "/tmp", TmpfsOptions: tmpfsOptions(p.Host.Tmpfs["/tmp"])})
	var nets []swarm.NetworkAttachmentConfig
	if string(p.Host.NetworkMode) == Network {
		nets = []swarm.NetworkAttachmentConfig{{Target: Network}}
	}
	return swarm.ServiceSpec{
		Annotations: swarm.Annotations{Name: "agentnet-job-" + agentimg.Sanitize(p.Name) + "-" + agentimg.RandomSuffix(), Labels: p.Config.Labels},
		TaskTemplate: swarm.TaskSpec{
			ContainerSpec: &swarm.ContainerSpec{
				Image: p.Config.Image, Labels: p.Config.Labels, Command: p.Config.Cmd, Env: p.Config.Env, User: p.Config.User,
				Dir: p.Config.WorkingDir, ReadOnly: true, Init: ptr(true), CapabilityDrop: []string{"ALL"},
				Privileges: &swarm.Privileges{NoNewPrivileges: true}, Mounts: mounts, StopGracePeriod: ptr(time.Second),
			},
			Resources: &swarm.ResourceRequirements{Limits: &swarm.Limit{
				NanoCPUs: p.Host.NanoCPUs, MemoryBytes: p.Host.Memory, Pids: *p.Host.PidsLimit}},
			RestartPolicy: &swarm.RestartPolicy{Condition: swarm.RestartPolicyConditionNone},
			Placement:     &swarm.Placement{Constraints: []string{"node.id==" + nodeID}},
			Networks:      nets,
		},
		Mode: swarm.ServiceMode{ReplicatedJob: &swarm.ReplicatedJob{MaxConcurrent: ptr(uint64(1)), TotalCompletions: ptr(uint64(1))}},
	}
}

// tmpfsOptions reads a tmpfs option string of the container API
// ("rw,nosuid,nodev,size=1g,mode=1777,exec") as the mount API's options.
func tmpfsOptions(opts string) *mount.TmpfsOptions {
	t := &mount.TmpfsOptions{Mode: 0o1777}
	for _, o := range strings.Split(opts, ",") {
		k, v, _ := strings.Cut(o, "=")
		switch k {
		case "size":
			t.SizeBytes = parseSize(v)
		case "exec":
			t.Options = append(t.Options, []string{"exec"})
		}
	}
	return t
}

// parseSize reads 256m, 1g, 4096 as bytes.
func parseSize(v string) int64 {
	mult := int64(1)
	switch {
	case strings.HasSuffix(v, "g"):
		mult, v = 1<<30, strings.TrimSuffix(v, "g")
	case strings.HasSuffix(v, "m"):
		mult, v = 1<<20, strings.TrimSuffix(v, "m")
	case strings.HasSuffix(v, "k"):
		mult, v = 1<<10, strings.TrimSuffix(v, "k")
	}
	var n int64
	fmt.Sscan(v, &n)
	return n * mult
}

// removeNetwork removes a network, waiting (up to 30 s) for the endpoints
// of containers just removed to go, and for the network to be gone: a
// swarm's manager removes an overlay network a moment after it says so.
func removeNetwork(ctx context.Context, c interface {
	NetworkRemove(ctx context.Context, id string) error
	NetworkInspect(ctx context.Context, id string, options network.InspectOptions) (network.Inspect, error)
}, id string) {
	for start := time.Now(); time.Since(start) < 30*time.Second; time.Sleep(200 * time.Millisecond) {
		if _, err := c.NetworkInspect(ctx, id, network.InspectOptions{}); cerrdefs.IsNotFound(err) {
			return
		}
		_ = c.NetworkRemove(ctx, id)
	}
}
