// Package deploytest gives tests the machine's Docker daemon: a
// docker.Jobs on it, or a skipped test when none answers — a failed one
// when AGENTNET_REQUIRE_DOCKER=1, as CI sets it, so that Docker tests never
// pass by skipping there.
package deploytest

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/api/types/swarm"
	"github.com/docker/docker/client"

	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/deploy/docker"
)

// Required reports whether a test that needs Docker must fail, not skip,
// when it has none.
func Required() bool { return os.Getenv("AGENTNET_REQUIRE_DOCKER") == "1" }

// Jobs returns a docker.Jobs on the machine's Docker daemon, closed when
// the test ends; without a daemon it skips the test (fails it when
// Required).
func Jobs(t testing.TB) *docker.Jobs {
	t.Helper()
	skip := t.Skipf
	if Required() {
		skip = t.Fatalf
	}
	jobs, err := docker.NewJobs(deploy.Config{Env: os.Environ()})
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
// initialises a single-node swarm when the engine is in none, and the last
// test using it leaves it (removing the docker_gwbridge network that came
// with it). Tests that run at once — in one package, in several packages'
// test binaries, in several checkouts on one engine — share the swarm:
// a lock file in the temporary directory counts them (a shared flock per
// test), so that none leaves the swarm under another, and a swarm that was
// there before any test is never left. It skips the test without a daemon
// (fails it when Required), and when the engine is a worker or its swarm is
// in error.
func Swarm(t testing.TB) {
	t.Helper()
	c, skip := daemon(t)
	ctx := context.Background()
	setup := lockFile(t, "setup")
	users := lockFile(t, "users")
	lock(t, setup, syscall.LOCK_EX)
	defer unlock(setup)
	info, err := c.Info(ctx)
	if err != nil {
		skip("no Docker daemon answers: %v", err)
	}
	made := madePath()
	switch info.Swarm.LocalNodeState {
	case swarm.LocalNodeStateActive:
		if !info.Swarm.ControlAvailable {
			t.Skip("the engine is a swarm worker, not a manager")
		}
	case swarm.LocalNodeStateInactive:
		_, err = c.NetworkInspect(ctx, "docker_gwbridge", network.InspectOptions{})
		hadBridge := err == nil
		if _, err := c.SwarmInit(ctx, swarm.InitRequest{ListenAddr: "127.0.0.1:2377", AdvertiseAddr: "127.0.0.1"}); err != nil {
			t.Fatalf("docker swarm init: %v", err)
		}
		// The marker says a test made the swarm (and whether the bridge
		// was there before), for whichever test leaves last.
		if err := os.WriteFile(made, []byte(strconv.FormatBool(hadBridge)), 0o644); err != nil {
			t.Fatalf("mark the swarm as the tests': %v", err)
		}
	default:
		t.Skipf("the engine's swarm state is %q", info.Swarm.LocalNodeState)
	}
	lock(t, users, syscall.LOCK_SH)
	t.Cleanup(func() {
		lock(t, setup, syscall.LOCK_EX)
		defer unlock(setup)
		unlock(users)
		if syscall.Flock(int(users.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
			return // another test still uses the swarm; the last one leaves it
		}
		defer unlock(users)
		marker, err := os.ReadFile(made)
		if err != nil {
			return // the swarm was there before the tests
		}
		os.Remove(made)
		leave(t, c, string(marker) == "true")
	})
}

// daemon returns a client of the engine's daemon, closed when the test
// ends, and how to give up on the test: skip it, or fail it when Required.
// It gives up when no daemon answers.
func daemon(t testing.TB) (*client.Client, func(string, ...any)) {
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
	if _, err := c.Info(context.Background()); err != nil {
		skip("no Docker daemon answers: %v", err)
	}
	return c, skip
}

// madePath is the marker saying a test made the engine's swarm; it holds
// whether the docker_gwbridge network was there before.
func madePath() string { return filepath.Join(os.TempDir(), "agentnet-swarm-test.made") }

// leave makes the engine leave its swarm and removes the docker_gwbridge
// network unless it was there before the swarm (hadBridge).
func leave(t testing.TB, c *client.Client, hadBridge bool) {
	ctx := context.Background()
	if err := c.SwarmLeave(ctx, true); err != nil {
		t.Errorf("leave the swarm the tests made: %v", err)
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
}

// lockFile opens one of the swarm tests' lock files, closed when the test
// ends (which drops its locks).
func lockFile(t testing.TB, name string) *os.File {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(os.TempDir(), "agentnet-swarm-test."+name+".lock"), os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		t.Fatalf("swarm test lock: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func lock(t testing.TB, f *os.File, how int) {
	t.Helper()
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if err == nil {
			return
		}
		if err != syscall.EINTR {
			t.Fatalf("swarm test lock: %v", err)
		}
	}
}

func unlock(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
