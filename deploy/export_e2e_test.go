package deploy_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/deploy/docker"
	"github.com/agentnet/agentnet/deploy/export"
)

// TestComposeExportRuns builds an agent's image, exports it as a Compose
// file, brings that up with docker-compose and fetches the card at the URL
// the file advertises.
func TestComposeExportRuns(t *testing.T) {
	dc := dockerClient(t)
	compose, err := exec.LookPath("docker-compose")
	if err != nil {
		t.Skip("docker-compose is not installed")
	}
	exe := agentnetBinary(t)
	var suffix [3]byte
	rand.Read(suffix[:])
	name := "cx-" + hex.EncodeToString(suffix[:])
	cleanupDocker(t, dc, []string{name})
	dir := writeBundle(t, name, `[sh, -c, "echo {{text}}"]`)
	cfg := deploy.Config{Self: exe, Env: os.Environ()}
	plan, err := docker.PlanImage(cfg, deploy.Spec{Name: name, Bundle: dir})
	if err != nil {
		t.Fatal(err)
	}
	img, err := docker.BuildImage(t.Context(), cfg, deploy.Spec{Name: name, Bundle: dir})
	if err != nil {
		t.Fatal(err)
	}
	if plan.Ref != img.Ref || plan.Base != img.Base {
		t.Fatalf("PlanImage = %s on %s, BuildImage made %s on %s", plan.Ref, plan.Base, img.Ref, img.Base)
	}
	port, err := freeLoopbackPort()
	if err != nil {
		t.Fatal(err)
	}
	data, err := export.Compose([]*docker.Image{img}, export.Options{BasePort: port})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "compose.yaml")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(compose, append([]string{"-f", file, "-p", name}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("docker-compose %v: %v\n%s", args, err, out)
		}
	}
	t.Cleanup(func() {
		exec.Command(compose, "-f", file, "-p", name, "down", "--remove-orphans", "-t", "1").Run()
	})
	run("up", "-d")
	url := "http://127.0.0.1:" + itoa(port) + "/"
	deadline := time.Now().Add(2 * time.Minute)
	for deploy.CardAnswers(context.Background(), url) != nil {
		if time.Now().After(deadline) {
			t.Fatalf("no card at %s from the Compose service", url)
		}
		time.Sleep(200 * time.Millisecond)
	}
	run("down", "-t", "1")
}

func freeLoopbackPort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func itoa(n int) string { return strconv.Itoa(n) }
