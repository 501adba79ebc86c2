package deploytest

import (
	"context"
	"errors"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/api/types/swarm"
	"github.com/docker/docker/client"
)

// OwnSwarm makes the machine's Docker engine the manager of a swarm of the
// test's own, which listens on and advertises addr (an address other nodes
// reach), and returns the engine's client. It waits, up to wait, until no
// other test uses the shared swarm of Swarm, holds both of its locks for the
// whole test (other tests' Swarm waits for it), and at the end leaves the
// swarm and removes the docker_gwbridge network unless it was there before.
// A swarm some test made and none uses any longer is left first; a swarm
// that was there before any test makes it skip, since the test would have
// to leave it. It skips without a daemon (fails when Required).
func OwnSwarm(t testing.TB, addr string, wait time.Duration) *client.Client {
	t.Helper()
	c, _ := daemon(t)
	ctx := context.Background()
	if err := lockAlone(t, wait); err != nil {
		t.Fatal(err)
	}
	info, err := c.Info(ctx)
	if err != nil {
		t.Fatalf("Docker daemon: %v", err)
	}
	made := madePath()
	hadBridge := false
	switch info.Swarm.LocalNodeState {
	case swarm.LocalNodeStateActive:
		marker, err := os.ReadFile(made)
		if err != nil {
			t.Skip("the engine is in a swarm that was there before the tests; a swarm of the test's own would mean leaving it")
		}
		// A test made it and none uses it: its last user lost the race
		// for the lock and left it behind.
		os.Remove(made)
		hadBridge = string(marker) == "true"
		leave(t, c, hadBridge)
	case swarm.LocalNodeStateInactive:
		_, err := c.NetworkInspect(ctx, "docker_gwbridge", network.InspectOptions{})
		hadBridge = err == nil
	default:
		t.Skipf("the engine's swarm state is %q", info.Swarm.LocalNodeState)
	}
	// The marker lets a later test leave this swarm should this test's
	// process end before its clean-up.
	if err := os.WriteFile(made, []byte(strconv.FormatBool(hadBridge)), 0o644); err != nil {
		t.Fatalf("mark the swarm as the tests': %v", err)
	}
	if _, err := c.SwarmInit(ctx, swarm.InitRequest{ListenAddr: addr + ":2377", AdvertiseAddr: addr}); err != nil {
		os.Remove(made)
		t.Fatalf("docker swarm init --advertise-addr %s: %v", addr, err)
	}
	t.Cleanup(func() {
		os.Remove(made)
		leave(t, c, hadBridge)
	})
	return c
}

// lockAlone takes the setup lock and the users lock of Swarm, both
// exclusively, until the test ends. Swarm's users hold the users lock
// shared and take the setup lock to leave, so the setup lock is let go
// between tries.
func lockAlone(t testing.TB, wait time.Duration) error {
	setup := lockFile(t, "setup")
	users := lockFile(t, "users")
	deadline := time.Now().Add(wait)
	for {
		lock(t, setup, syscall.LOCK_EX)
		err := syscall.Flock(int(users.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			t.Cleanup(func() { unlock(users); unlock(setup) })
			return nil
		}
		unlock(setup)
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			return err
		}
		if time.Now().After(deadline) {
			return errors.New("other tests used the shared swarm for longer than " + wait.String())
		}
		select {
		case <-t.Context().Done():
			return t.Context().Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}
