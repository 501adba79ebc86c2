// Package deploytest gives tests the machine's Docker daemon: a
// deploy.Jobs on it, or a skipped test when none answers — a failed one
// when AGENTNET_REQUIRE_DOCKER=1, as CI sets it, so that Docker tests never
// pass by skipping there.
package deploytest

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/api/types/swarm"
	"github.com/docker/docker/client"

	"github.com/agentnet/agentnet/deploy"
)

// Required reports whether a test that needs Docker must fail, not skip,
// when it has none.
func Required() bool { return os.Getenv("AGENTNET_REQUIRE_DOCKER") == "1" }

// Jobs returns a deploy.Jobs on the machine's Docker daemon, closed when
// the test ends; without a daemon it skips the test (fails it when
// Required).
func Jobs(t testing.TB) *deploy.Jobs {
	t.Helper()
	skip := t.Skipf
	if Required() {
		skip = t.Fatalf
	}
	jobs, err := deploy.NewJobs(deploy.Config{Env: os.Environ()})
	if err != nil {
		skip("no Docker client: %v", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if err := jobs.Ping(ctx); err != nil {
		jobs.Close(context.Background())
		skip("no Docker daemon answers: %v", err)
	}
	t.Cleanup(func() { jobs.Close(context.Background()) })
	return jobs
}

// Swarm makes the machine's Docker engine a swarm manager for the test: it
// initialises a single-node swarm when the engine is in none, and leaves
// it (removing the docker_gwbridge network that came with it) when the
// test ends. It skips the test without a daemon (fails it when Required),
// and when the engine is a worker or its swarm is in error.
func Swarm(t testing.TB) {
	t.Helper()
	skip := t.Skipf
	if Required() {
		skip = t.Fatalf
	}
	c, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
	if err != nil {
		skip("no Docker client: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	ctx := context.Background()
	info, err := c.Info(ctx)
	if err != nil {
		skip("no Docker daemon answers: %v", err)
	}
	switch info.Swarm.LocalNodeState {
	case swarm.LocalNodeStateActive:
		if !info.Swarm.ControlAvailable {
			t.Skip("the engine is a swarm worker, not a manager")
		}
		return
	case swarm.LocalNodeStateInactive:
	default:
		t.Skipf("the engine's swarm state is %q", info.Swarm.LocalNodeState)
	}
	_, err = c.NetworkInspect(ctx, "docker_gwbridge", network.InspectOptions{})
	hadBridge := err == nil
	if _, err := c.SwarmInit(ctx, swarm.InitRequest{ListenAddr: "127.0.0.1:2377", AdvertiseAddr: "127.0.0.1"}); err != nil {
		t.Fatalf("docker swarm init: %v", err)
	}
	t.Cleanup(func() {
		if err := c.SwarmLeave(ctx, true); err != nil {
			t.Errorf("leave the swarm the test made: %v", err)
		}
		if hadBridge {
			return
		}
		for i := 0; i < 50; i++ {
			if err := c.NetworkRemove(ctx, "docker_gwbridge"); err == nil || strings.Contains(err.Error(), "not found") {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}
