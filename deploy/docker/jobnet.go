package docker

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/network"

	"github.com/agentnet/agentnet/deploy"
	agentimg "github.com/agentnet/agentnet/deploy/image"
)

// Beside is how a job reaches an agent of a runtime other than docker: the
// network its container joins and the agent's URL there.
type Beside struct {
	Network string
	URL     func(a *deploy.Agent) string
}

var (
	besideMu sync.Mutex
	besides  = map[string]Beside{}
)

// RegisterBeside tells jobs how to run beside the agents of runtime (the
// swarm package registers "swarm"). It panics when runtime has one; call
// it from an init function.
func RegisterBeside(runtime string, b Beside) {
	besideMu.Lock()
	defer besideMu.Unlock()
	if _, dup := besides[runtime]; dup {
		panic(fmt.Sprintf("docker: jobs beside runtime %q registered twice", runtime))
	}
	besides[runtime] = b
}

func besideOf(runtime string) (Beside, bool) {
	besideMu.Lock()
	defer besideMu.Unlock()
	b, ok := besides[runtime]
	return b, ok
}

// BesideURL is where a job run Beside a docker runtime agent reaches that
// agent's A2A endpoint.
func BesideURL() string { return "http://127.0.0.1:" + dockerPort + "/" }

// BesideURLOf is where a job run beside agent a reaches its A2A endpoint:
// BesideURL for a docker runtime agent, what RegisterBeside tells for
// another runtime's (the service's name on the overlay network for a swarm
// one).
func BesideURLOf(a *deploy.Agent) string {
	if a != nil {
		if b, ok := besideOf(a.Runtime); ok {
			return b.URL(a)
		}
	}
	return BesideURL()
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
	case spec.Beside != nil:
		if b, ok := besideOf(spec.Beside.Runtime); ok {
			// Another runtime's network (the swarm agents' attachable
			// overlay network, which a Swarm job or a container on this
			// node joins): the job reaches the agent at BesideURLOf.
			return container.NetworkMode(b.Network), nil
		}
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
