package deploy

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/api/types/swarm"
	"github.com/docker/docker/pkg/stdcopy"

	agentimg "github.com/agentnet/agentnet/deploy/image"
	"github.com/agentnet/agentnet/internal/proc"
)

// NewSwarmJobs returns Jobs that run each job as a Swarm job (a service in
// replicated-job mode, one completion, never restarted) pinned to this
// manager node, whose files its mounts are, with the containment of a
// container job: the same image, user, read-only root, tmpfs, capabilities
// and limits. A job beside a swarm agent joins the agents' overlay network
// and reaches it at BesideURLOf. A job given a listener to reach
// (JobSpec.Reach: a coding agent's metering proxy) runs as a container job
// on this node, since a Swarm service cannot join the private bridge
// network the listener is on.
func NewSwarmJobs(cfg Config) (*Jobs, error) {
	j, err := NewJobs(cfg)
	if err != nil {
		return nil, err
	}
	c, err := dockerClient(lookupEnv(cfg.Env, "DOCKER_HOST"))
	if err != nil {
		return nil, fmt.Errorf("swarm jobs: %w", err)
	}
	j.svc = c
	return j, nil
}

// BesideURLOf is where a job run beside agent a reaches its A2A endpoint:
// BesideURL for a docker runtime agent, the service's name on the overlay
// network for a swarm one.
func BesideURLOf(a *Agent) string {
	if a != nil && a.Runtime == "swarm" {
		return "http://" + swarmServicePrefix + agentimg.Sanitize(a.Name) + ":" + dockerPort + "/"
	}
	return BesideURL()
}

// runService runs the planned job as a Swarm job and waits for its one
// task to end, following the output of its container; it removes the
// service, which removes the container.
func (j *Jobs) runService(ctx context.Context, p *jobPlan, res *proc.Result) (jobOutcome, error) {
	out := jobOutcome{status: -1}
	info, err := j.svc.Info(ctx)
	if err != nil {
		return out, fmt.Errorf("%q: %w", p.name, err)
	}
	if info.Swarm.LocalNodeState != swarm.LocalNodeStateActive || !info.Swarm.ControlAvailable {
		return out, fmt.Errorf("%q: the Docker engine is not a swarm manager (docker swarm init makes it one)", p.name)
	}
	spec := jobService(p, info.Swarm.NodeID)
	if len(spec.TaskTemplate.Networks) == 0 {
		// A task without a network gets the engine's default bridge,
		// with a route out; Swarm has no "none". An internal overlay
		// network of the job's own has no route anywhere and no other
		// member.
		netID, err := j.jobNetwork(ctx, spec.Annotations.Name)
		if err != nil {
			return out, fmt.Errorf("%q: %w", p.name, err)
		}
		defer removeNetwork(context.WithoutCancel(ctx), j.svc, netID)
		spec.TaskTemplate.Networks = []swarm.NetworkAttachmentConfig{{Target: netID}}
	}
	created, err := j.svc.ServiceCreate(ctx, spec, swarm.ServiceCreateOptions{})
	if err != nil {
		return out, fmt.Errorf("%q: create the Swarm job: %w", p.name, err)
	}
	j.used(p.img.ref)
	rt := &swarmRuntime{api: j.svc}
	// Deferred after the network's removal, so it runs first.
	defer rt.removeService(context.WithoutCancel(ctx), created.ID)

	tctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	start := time.Now()
	stdout, stderr, outW, errW := p.output()
	var logs func()
	copied := make(chan struct{})
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var task swarm.Task
wait:
	for {
		select {
		case <-tctx.Done():
			_ = j.svc.ServiceRemove(context.WithoutCancel(ctx), created.ID)
			break wait
		case <-tick.C:
		}
		tasks, err := j.svc.TaskList(tctx, swarm.TaskListOptions{Filters: filters.NewArgs(filters.Arg("service", created.ID))})
		if err != nil || len(tasks) == 0 {
			continue
		}
		task = tasks[0]
		if cs := task.Status.ContainerStatus; logs == nil && cs != nil && cs.ContainerID != "" {
			rc, err := j.api.ContainerLogs(context.WithoutCancel(ctx), cs.ContainerID,
				container.LogsOptions{ShowStdout: true, ShowStderr: true, Follow: true})
			if err == nil {
				go func() {
					defer close(copied)
					stdcopy.StdCopy(outW, errW, rc)
				}()
				logs = func() { rc.Close() }
			}
		}
		switch task.Status.State {
		case swarm.TaskStateComplete, swarm.TaskStateFailed:
			if cs := task.Status.ContainerStatus; cs != nil {
				out.status = int64(cs.ExitCode)
			}
			break wait
		case swarm.TaskStateRejected, swarm.TaskStateShutdown, swarm.TaskStateOrphaned, swarm.TaskStateRemove:
			out.waitFailed = fmt.Errorf("task %s: %s", task.Status.State, task.Status.Err)
			break wait
		}
	}
	res.Elapsed = time.Since(start)
	if logs != nil {
		select {
		case <-copied:
		case <-time.After(5 * time.Second):
			logs()
			<-copied
		}
		logs()
	}
	res.Stdout, res.Stderr = stdout.Buf, stderr.Buf
	res.TimedOut = errors.Is(tctx.Err(), context.DeadlineExceeded)
	if out.status != 0 && !res.TimedOut {
		if cs := task.Status.ContainerStatus; cs != nil && cs.ContainerID != "" {
			if ci, err := j.api.ContainerInspect(context.WithoutCancel(ctx), cs.ContainerID); err == nil && ci.State != nil && ci.State.OOMKilled {
				out.oomKilled = true
			}
		}
	}
	return out, nil
}

// jobNetwork makes an internal overlay network for one job.
func (j *Jobs) jobNetwork(ctx context.Context, name string) (string, error) {
	n, err := j.svc.NetworkCreate(ctx, name, network.CreateOptions{Driver: "overlay", Internal: true,
		Labels: map[string]string{LabelManaged: "true", LabelRole: "job-network"}})
	if err != nil {
		return "", fmt.Errorf("create the job's network: %w", err)
	}
	return n.ID, nil
}

// jobService is the Swarm job of a planned job container.
func jobService(p *jobPlan, nodeID string) swarm.ServiceSpec {
	mounts := append([]mount.Mount(nil), p.hc.Mounts...)
	mounts = append(mounts, mount.Mount{Type: mount.TypeTmpfs, Target: "/tmp", TmpfsOptions: tmpfsOptions(p.hc.Tmpfs["/tmp"])})
	var nets []swarm.NetworkAttachmentConfig
	if string(p.hc.NetworkMode) == SwarmNetwork {
		nets = []swarm.NetworkAttachmentConfig{{Target: SwarmNetwork}}
	}
	return swarm.ServiceSpec{
		Annotations: swarm.Annotations{Name: "agentnet-job-" + agentimg.Sanitize(p.jobName) + "-" + agentimg.RandomSuffix(), Labels: p.cfg.Labels},
		TaskTemplate: swarm.TaskSpec{
			ContainerSpec: &swarm.ContainerSpec{
				Image: p.cfg.Image, Labels: p.cfg.Labels, Command: p.cfg.Cmd, Env: p.cfg.Env, User: p.cfg.User,
				Dir: p.cfg.WorkingDir, ReadOnly: true, Init: ptr(true), CapabilityDrop: []string{"ALL"},
				Privileges: &swarm.Privileges{NoNewPrivileges: true}, Mounts: mounts, StopGracePeriod: ptr(time.Second),
			},
			Resources: &swarm.ResourceRequirements{Limits: &swarm.Limit{
				NanoCPUs: p.hc.NanoCPUs, MemoryBytes: p.hc.Memory, Pids: *p.hc.PidsLimit}},
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
