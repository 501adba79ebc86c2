package deploy_test

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/client"
	"github.com/google/go-cmp/cmp"

	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/deploy/docker"
)

// newJobs opens a Jobs on the machine's Docker daemon (or skips) and
// returns it with a name unique to the test; at the end it closes the Jobs
// and removes any container that carries the name (a job leaves none).
func newJobs(t *testing.T) (*docker.Jobs, *client.Client, string) {
	t.Helper()
	dc := dockerClient(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatal("python3 is not installed: the test's jobs run it")
	}
	jobs, err := docker.NewJobs(deploy.Config{Env: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	var b [4]byte
	rand.Read(b[:])
	name := "jt-" + hex.EncodeToString(b[:])
	t.Cleanup(func() {
		ctx := context.Background()
		for _, c := range jobContainers(t, jobs, name) {
			t.Logf("clean-up: removing container %s left by %s", c, name)
			dc.ContainerRemove(ctx, c, container.RemoveOptions{Force: true})
		}
		if err := jobs.Close(ctx); err != nil {
			t.Errorf("Close() error = %v", err)
		}
	})
	return jobs, dc, name
}

// jobContainers lists the containers of the job name, stopped ones too.
func jobContainers(t *testing.T, jobs *docker.Jobs, name string) []string {
	t.Helper()
	ids, err := jobs.Containers(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// TestJobRun runs Python in a job: it sees its read-write and read-only
// mounts and nothing else of this machine's files, writes only where it
// may, has no network, and its output, exit status and files come back;
// its container is gone afterwards and the files' owners are restored.
func TestJobRun(t *testing.T) {
	t.Parallel()
	jobs, _, name := newJobs(t)
	root := t.TempDir()
	rw, ro, hidden := filepath.Join(root, "rw"), filepath.Join(root, "ro"), filepath.Join(root, "hidden")
	writeFiles(t, rw, map[string]string{"in.txt": "from the host\n"})
	writeFiles(t, ro, map[string]string{"data.txt": "read me\n"})
	writeFiles(t, hidden, map[string]string{"secret.txt": "never seen\n"})
	script := `
import os, socket, sys
print(open("in.txt").read().strip() + " / " + open(sys.argv[1] + "/data.txt").read().strip())
open("out.txt", "w").write("made in the job\n")
try:
    open(sys.argv[1] + "/x", "w")
    print("ro writable")
except OSError:
    print("ro refused")
print("hidden", os.path.exists(sys.argv[2]))
try:
    socket.create_connection(("1.1.1.1", 53), timeout=3)
    print("network yes")
except OSError:
    print("network no")
print("uid", os.getuid())
print("to stderr", file=sys.stderr)
sys.exit(3)
`
	res := jobs.Run(t.Context(), docker.JobSpec{
		Name: name, Argv: []string{"python3", "-c", script, "/data", hidden}, Dir: rw,
		Mounts:  []docker.Mount{{Host: rw}, {Host: ro, Path: "/data", ReadOnly: true}},
		Timeout: 2 * time.Minute,
	})
	if res.ExitCode != 3 || res.Err == nil || !strings.Contains(res.Err.Error(), "exited with status 3") || !strings.Contains(res.Err.Error(), "to stderr") {
		t.Fatalf("Run() = exit %d, err %v; want status 3 with the stderr tail\nstdout:\n%s", res.ExitCode, res.Err, res.Stdout)
	}
	out := string(res.Stdout)
	for _, want := range []string{"from the host / read me", "ro refused", "hidden False", "network no"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "uid 0\n") {
		t.Errorf("the job ran as root:\n%s", out)
	}
	if string(res.Stderr) != "to stderr\n" {
		t.Errorf("stderr = %q, want the job's own", res.Stderr)
	}
	made := filepath.Join(rw, "out.txt")
	data, err := os.ReadFile(made)
	if err != nil || string(data) != "made in the job\n" {
		t.Errorf("out.txt = %q (%v), want the job's file", data, err)
	}
	for _, p := range []string{rw, made, filepath.Join(rw, "in.txt")} {
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st := fi.Sys().(*syscall.Stat_t); int(st.Uid) != os.Getuid() {
			t.Errorf("%s is owned by %d after the job, want %d", p, st.Uid, os.Getuid())
		}
	}
	if _, err := os.Stat(filepath.Join(ro, "x")); err == nil {
		t.Error("the job wrote into its read-only mount")
	}
	if ids := jobContainers(t, jobs, name); len(ids) != 0 {
		t.Errorf("containers left after Run: %v", ids)
	}
}

// TestJobListen: a job with Reach gets to an HTTP server on the listener
// from Listen and to nothing outside this machine; a job without gets
// nowhere; closing the listener removes
// its network.
func TestJobListen(t *testing.T) {
	t.Parallel()
	jobs, dc, name := newJobs(t)
	ctx := t.Context()
	ln, err := jobs.Listen(ctx)
	if err != nil {
		t.Fatalf("Listen() error = %v", err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello from the host, %s", r.URL.Path)
	})}
	go srv.Serve(ln)
	defer srv.Close()
	url := "http://" + ln.Addr().String() + "/ping"
	fetch := "import socket, sys, urllib.request\ntry:\n    print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())\nexcept OSError as e:\n    print('unreachable:', e)\n" +
		"try:\n    socket.create_connection(('1.1.1.1', 53), timeout=3)\n    print('outside yes')\nexcept OSError:\n    print('outside no')\n" +
		"try:\n    socket.getaddrinfo('example.com', 80)\n    print('names yes')\nexcept OSError:\n    print('names no')\n"
	dir := t.TempDir()
	res := jobs.Run(ctx, docker.JobSpec{Name: name, Argv: []string{"python3", "-c", fetch, url}, Mounts: []docker.Mount{{Host: dir}}, Reach: ln})
	if res.Err != nil || !strings.Contains(string(res.Stdout), "hello from the host, /ping\noutside no\nnames no\n") {
		t.Errorf("Run(reach) = %q, %v; want the host's answer and nothing outside", res.Stdout, res.Err)
	}
	res = jobs.Run(ctx, docker.JobSpec{Name: name, Argv: []string{"python3", "-c", fetch, url}, Mounts: []docker.Mount{{Host: dir}}})
	if res.Err != nil || !strings.Contains(string(res.Stdout), "unreachable") {
		t.Errorf("Run(no network) = %q, %v; want unreachable", res.Stdout, res.Err)
	}
	nets, err := dc.NetworkList(ctx, network.ListOptions{Filters: filters.NewArgs(filters.Arg("label", docker.LabelManaged+"=true"))})
	if err != nil {
		t.Fatal(err)
	}
	var mine string
	for _, n := range nets {
		for _, c := range n.IPAM.Config {
			if c.Gateway != "" && strings.HasPrefix(ln.Addr().String(), c.Gateway+":") {
				mine = n.ID
			}
		}
	}
	if mine == "" {
		t.Fatalf("no agentnet network has the listener's address %s as gateway", ln.Addr())
	}
	srv.Close()
	ln.Close()
	if _, err := dc.NetworkInspect(ctx, mine, network.InspectOptions{}); !cerrdefs.IsNotFound(err) {
		t.Errorf("the listener's network after Close: %v, want not found", err)
	}
	if ids := jobContainers(t, jobs, name); len(ids) != 0 {
		t.Errorf("containers left after Run: %v", ids)
	}
}

// TestJobKill: a job that outlives its timeout, or whose context ends, is
// killed and its container removed.
func TestJobKill(t *testing.T) {
	t.Parallel()
	jobs, _, name := newJobs(t)
	hang := []string{"python3", "-u", "-c", "import time\nprint('started')\ntime.sleep(600)"}
	dir := t.TempDir()

	res := jobs.Run(t.Context(), docker.JobSpec{Name: name, Argv: hang, Mounts: []docker.Mount{{Host: dir}}, Timeout: 3 * time.Second})
	if !res.TimedOut || res.Err == nil || !strings.Contains(res.Err.Error(), "timed out after 3s and was killed") {
		t.Errorf("Run(hang) = timed out %v, err %v; want killed at the timeout", res.TimedOut, res.Err)
	}
	if ids := jobContainers(t, jobs, name); len(ids) != 0 {
		t.Errorf("containers left after the timeout: %v", ids)
	}

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	tee := &onOutput{want: "started", do: cancel}
	res = jobs.Run(ctx, docker.JobSpec{Name: name, Argv: hang, Mounts: []docker.Mount{{Host: dir}}, Timeout: 10 * time.Minute, Tee: tee})
	if res.TimedOut || res.Err == nil || !strings.Contains(res.Err.Error(), context.Canceled.Error()) || !strings.Contains(string(res.Stdout), "started") {
		t.Errorf("Run(hang, canceled) = timed out %v, err %v, stdout %q; want canceled after it started", res.TimedOut, res.Err, res.Stdout)
	}
	if ids := jobContainers(t, jobs, name); len(ids) != 0 {
		t.Errorf("containers left after the cancellation: %v", ids)
	}
}

// onOutput calls do once its input holds want.
type onOutput struct {
	mu   sync.Mutex
	buf  strings.Builder
	want string
	do   func()
	once sync.Once
}

func (o *onOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	o.buf.Write(p)
	hit := strings.Contains(o.buf.String(), o.want)
	o.mu.Unlock()
	if hit {
		o.once.Do(o.do)
	}
	return len(p), nil
}

// TestJobBeside runs a job in the network of a docker runtime agent: it
// reaches the agent's card at BesideURL.
func TestJobBeside(t *testing.T) {
	t.Parallel()
	jobs, dc, name := newJobs(t)
	ctx := t.Context()
	b := filepath.Join(t.TempDir(), "echo")
	writeFiles(t, b, map[string]string{
		"agent.yaml": "version: 1\nname: echo\ndescription: Echoes text.\nskills:\n" +
			"  - id: echo\n    name: Echo\n    description: Echo the text.\n" +
			"    params: {type: object, properties: {text: {type: string}}, required: [text]}\n" +
			"    run: [python3, -c, \"import sys; print(sys.argv[1])\", \"{{text}}\"]\n",
	})
	agentName := name + "-agent"
	cleanupDocker(t, dc, []string{agentName})
	rt, err := deploy.Open("docker", deploy.Config{Self: agentnetBinary(t), Env: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	a, err := rt.Up(ctx, deploy.Spec{Name: agentName, Bundle: b})
	if err != nil {
		t.Fatalf("Up() error = %v", err)
	}
	defer rt.Down(context.WithoutCancel(ctx), a)
	fetch := "import sys, json, urllib.request\nprint(json.load(urllib.request.urlopen(sys.argv[1] + '.well-known/agent-card.json', timeout=10))['name'])\n"
	res := jobs.Run(ctx, docker.JobSpec{Name: name, Argv: []string{"python3", "-c", fetch, docker.BesideURL()}, Mounts: []docker.Mount{{Host: t.TempDir()}}, Beside: a})
	if res.Err != nil || strings.TrimSpace(string(res.Stdout)) != "echo" {
		t.Errorf("Run(beside) = %q, %v; want the agent's card name", res.Stdout, res.Err)
	}
	res = jobs.Run(ctx, docker.JobSpec{Name: name, Argv: []string{"true"}, Beside: &deploy.Agent{Name: "p", Runtime: "process", URL: a.URL}})
	if res.Err == nil || !strings.Contains(res.Err.Error(), "not in a container") {
		t.Errorf("Run(beside a process agent) error = %v, want a refusal", res.Err)
	}
}

// TestJobBadInput: a job that cannot run says why in one line.
func TestJobBadInput(t *testing.T) {
	t.Parallel()
	jobs, _, name := newJobs(t)
	file := filepath.Join(t.TempDir(), "f")
	writeFiles(t, filepath.Dir(file), map[string]string{"f": "x"})
	tests := []struct {
		name string
		spec docker.JobSpec
		want string
	}{
		{"empty command", docker.JobSpec{}, "empty command"},
		{"missing program", docker.JobSpec{Argv: []string{"no-such-program-agentnet"}}, `"no-such-program-agentnet" is not on this machine's PATH`},
		{"mount of a file", docker.JobSpec{Argv: []string{"true"}, Mounts: []docker.Mount{{Host: file}}}, "not a directory"},
		{"missing mount", docker.JobSpec{Argv: []string{"true"}, Mounts: []docker.Mount{{Host: file + "-gone"}}}, "no such file"},
		{"relative mount path", docker.JobSpec{Argv: []string{"true"}, Mounts: []docker.Mount{{Host: filepath.Dir(file), Path: "rel"}}}, "not absolute"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.spec.Name = name
			res := jobs.Run(t.Context(), tt.spec)
			if res.Err == nil || !strings.Contains(res.Err.Error(), tt.want) || strings.Contains(res.Err.Error(), "\n") {
				t.Errorf("Run(%s) error = %v, want one line with %q", tt.name, res.Err, tt.want)
			}
		})
	}
}

// TestJobOrphan kills the process that runs a job (as SIGKILL would kill
// agentnet, with no chance to remove the container): the job still ends by
// itself a little after its timeout.
func TestJobOrphan(t *testing.T) {
	t.Parallel()
	dc := dockerClient(t)
	var b [4]byte
	rand.Read(b[:])
	name := "jt-orphan-" + hex.EncodeToString(b[:])
	t.Cleanup(func() {
		ctx := context.Background()
		cs, _ := dc.ContainerList(ctx, container.ListOptions{All: true, Filters: filters.NewArgs(filters.Arg("label", docker.LabelJob+"="+name))})
		for _, c := range cs {
			dc.ContainerRemove(ctx, c.ID, container.RemoveOptions{Force: true})
			dc.ImageRemove(ctx, c.ImageID, image.RemoveOptions{})
		}
	})
	helper := exec.Command(os.Args[0], "-test.run=^TestJobOrphanHelper$", "-test.v")
	helper.Env = append(os.Environ(), "AGENTNET_JOB_HELPER="+name, "AGENTNET_JOB_HELPER_DIR="+t.TempDir())
	out, err := helper.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	started := false
	for sc.Scan() {
		if strings.Contains(sc.Text(), "job started") {
			started = true
			break
		}
	}
	helper.Process.Kill()
	helper.Wait()
	if !started {
		t.Fatal("the helper's job never started")
	}
	cs, err := dc.ContainerList(t.Context(), container.ListOptions{All: true, Filters: filters.NewArgs(filters.Arg("label", docker.LabelJob+"="+name))})
	if err != nil || len(cs) != 1 {
		t.Fatalf("containers of the orphaned job = %d (%v), want 1", len(cs), err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	waitC, errC := dc.ContainerWait(ctx, cs[0].ID, container.WaitConditionNotRunning)
	select {
	case w := <-waitC:
		if w.StatusCode != 137 {
			t.Errorf("the orphaned job exited with %d, want 137 (killed)", w.StatusCode)
		}
	case err := <-errC:
		t.Fatalf("the orphaned job did not end by itself: %v", err)
	}
}

// TestJobOrphanHelper is the process TestJobOrphan kills: it runs a job
// that would sleep for ten minutes with a timeout of two seconds.
func TestJobOrphanHelper(t *testing.T) {
	name := os.Getenv("AGENTNET_JOB_HELPER")
	if name == "" {
		t.Skip("runs only as TestJobOrphan's helper process")
	}
	jobs, err := docker.NewJobs(deploy.Config{Env: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	jobs.Run(t.Context(), docker.JobSpec{Name: name, Argv: []string{"python3", "-u", "-c", "import time\nprint('job started')\ntime.sleep(600)"},
		Mounts: []docker.Mount{{Host: os.Getenv("AGENTNET_JOB_HELPER_DIR")}}, Timeout: 2 * time.Second, Tee: os.Stdout})
}

// TestJobGo runs this machine's go command in jobs: go test -json against
// its GOROOT, mounted read-only, with the caches in the container's /tmp
// and a test that fails on purpose; the environment a Go job gets; go as
// one of the programs of a shell; cgo with and without gcc in the image;
// modules vendored, and missing (the error says why).
func TestJobGo(t *testing.T) {
	t.Parallel()
	jobs, _, name := newJobs(t)
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Fatal("gcc is not installed: a job of the test brings it")
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	goroot := strings.TrimSpace(string(out))
	tests := []struct {
		name     string
		files    map[string]string
		argv     []string
		programs []string
		env      []string
		want     map[string]string // go test -json: each test's action
		stdout   string
		err      string // in the error; "" for none
		modErr   bool   // the error is a *docker.GoModuleError
	}{
		{
			name: "go test",
			files: map[string]string{
				"go.mod": "module example.com/job\n\ngo 1.22\n",
				"job_test.go": `package job

import (
	"os"
	"path/filepath"
	"testing"
)

func TestGoroot(t *testing.T) {
	goroot := os.Getenv("GOROOT")
	if _, err := os.Stat(filepath.Join(goroot, "src", "runtime", "proc.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(goroot, "agentnet-job-test"), nil, 0o644); err == nil {
		t.Errorf("the job wrote into GOROOT %s", goroot)
	}
}

func TestUser(t *testing.T) {
	if os.Getuid() == 0 {
		t.Error("the job runs as root")
	}
}

func TestFails(t *testing.T) { t.Fatal("on purpose") }
`,
			},
			argv: []string{"go", "test", "-json", "./..."},
			want: map[string]string{"TestGoroot": "pass", "TestUser": "pass", "TestFails": "fail"},
			err:  "exited with status 1",
		},
		{
			name:   "environment",
			files:  map[string]string{"go.mod": "module example.com/job\n\ngo 1.22\n"},
			argv:   []string{"go", "env", "GOROOT", "GOPATH", "GOMODCACHE", "GOCACHE", "GOPROXY", "GOTOOLCHAIN", "CGO_ENABLED", "GOFLAGS"},
			env:    []string{"GOFLAGS=-count=1"},
			stdout: goroot + "\n/tmp/go\n/tmp/go/pkg/mod\n/tmp/go-build\noff\nlocal\n0\n-count=1\n",
		},
		{
			name:     "go among the programs of a shell",
			argv:     []string{"sh", "-c", "command -v go && go env GOROOT"},
			programs: []string{"go"},
			stdout:   "/usr/local/bin/go\n" + goroot + "\n",
		},
		{
			name:     "gcc in the image",
			argv:     []string{"go", "env", "CGO_ENABLED"},
			programs: []string{"gcc"},
			stdout:   "1\n",
		},
		{
			name: "vendored module",
			files: map[string]string{
				"go.mod":                        "module example.com/job\n\ngo 1.22\n\nrequire example.com/dep v1.0.0\n",
				"job.go":                        "package job\n\nimport \"example.com/dep\"\n\nvar X = dep.Answer\n",
				"vendor/modules.txt":            "# example.com/dep v1.0.0\n## explicit; go 1.22\nexample.com/dep\n",
				"vendor/example.com/dep/dep.go": "package dep\n\nconst Answer = 42\n",
			},
			argv:   []string{"go", "list", "-deps", "-f", "{{.ImportPath}} {{.Module}}", "./..."},
			stdout: "example.com/dep example.com/dep v1.0.0\nexample.com/job example.com/job\n",
		},
		{
			name: "missing module",
			files: map[string]string{
				"go.mod": "module example.com/job\n\ngo 1.22\n\nrequire example.com/absent v1.0.0\n",
				"job.go": "package job\n\nimport \"example.com/absent\"\n\nvar X = absent.Answer\n",
			},
			argv:   []string{"go", "build", "./..."},
			err:    "missing go.sum entry for module providing package example.com/absent",
			modErr: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeFiles(t, dir, tt.files)
			res := jobs.Run(t.Context(), docker.JobSpec{Name: name, Argv: tt.argv, Programs: tt.programs, Env: tt.env,
				Mounts: []docker.Mount{{Host: dir}}, Timeout: 5 * time.Minute})
			switch {
			case tt.err == "" && res.Err != nil:
				t.Fatalf("Run(%s) error = %v\nstdout:\n%s", tt.name, res.Err, res.Stdout)
			case tt.err != "" && (res.Err == nil || !strings.Contains(res.Err.Error(), tt.err)):
				t.Fatalf("Run(%s) error = %v, want %q\nstdout:\n%s", tt.name, res.Err, tt.err, res.Stdout)
			}
			var gm *docker.GoModuleError
			if got := errors.As(res.Err, &gm); got != tt.modErr {
				t.Errorf("Run(%s) error = %v: a *GoModuleError %v, want %v", tt.name, res.Err, got, tt.modErr)
			}
			if tt.modErr && !strings.Contains(res.Err.Error(), "vendored beside it (go mod vendor)") {
				t.Errorf("Run(%s) error = %v, want it to say the modules must be vendored", tt.name, res.Err)
			}
			if tt.want != nil {
				if diff := cmp.Diff(tt.want, goTestActions(t, res.Stdout)); diff != "" {
					t.Errorf("Run(%s): tests (-want +got):\n%s\nstdout:\n%s", tt.name, diff, res.Stdout)
				}
			} else if string(res.Stdout) != tt.stdout {
				t.Errorf("Run(%s) stdout = %q, want %q", tt.name, res.Stdout, tt.stdout)
			}
		})
	}
}

// goTestActions reads go test -json output: each test's last pass or fail.
func goTestActions(t *testing.T, out []byte) map[string]string {
	t.Helper()
	got := map[string]string{}
	for line := range strings.Lines(string(out)) {
		var ev struct{ Action, Test string }
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("go test -json line %q: %v", line, err)
		}
		if ev.Test != "" && (ev.Action == "pass" || ev.Action == "fail") {
			got[ev.Test] = ev.Action
		}
	}
	return got
}

// TestJobGoLinkedRoot runs a go command whose GOROOT is mostly relative
// symbolic links out of it (as Debian's /usr/lib/go-1.N links to
// /usr/share/go-1.N): the job follows them to the Go tree and compiles
// with its tools. A Go installation that the job's user could not read is
// refused, when that user is nobody.
func TestJobGoLinkedRoot(t *testing.T) {
	t.Parallel()
	_, _, name := newJobs(t)
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	goroot := strings.TrimSpace(string(out))
	linked := filepath.Join(t.TempDir(), "lib", "go")
	if err := os.MkdirAll(filepath.Join(linked, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	exe, err := os.ReadFile(filepath.Join(goroot, "bin", "go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(linked, "bin", "go"), exe, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(goroot)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() == "bin" {
			continue
		}
		rel, err := filepath.Rel(linked, filepath.Join(goroot, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(rel, filepath.Join(linked, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	// The go command finds its GOROOT from where it lies, unless told.
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOROOT=") {
			env = append(env, kv)
		}
	}
	jobs, err := docker.NewJobs(deploy.Config{Env: env})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { jobs.Close(context.Background()) })
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"go.mod": "module example.com/job\n\ngo 1.22\n", "job.go": "package job\n\nfunc Answer() int { return 42 }\n"})
	goBin := filepath.Join(linked, "bin", "go")
	res := jobs.Run(t.Context(), docker.JobSpec{Name: name, Argv: []string{goBin, "list", "-f", "{{.Dir}}", "fmt"}, Mounts: []docker.Mount{{Host: dir}}})
	if want := filepath.Join(linked, "src", "fmt") + "\n"; res.Err != nil || string(res.Stdout) != want {
		t.Errorf("Run(go list fmt) = %q, %v; want %q", res.Stdout, res.Err, want)
	}
	res = jobs.Run(t.Context(), docker.JobSpec{Name: name, Argv: []string{goBin, "build", "-x", "./..."}, Mounts: []docker.Mount{{Host: dir}}, Timeout: 5 * time.Minute})
	if compile := filepath.Join(linked, "pkg", "tool"); res.Err != nil || !strings.Contains(string(res.Stderr), compile) {
		t.Errorf("Run(go build) error = %v, stderr:\n%s\nwant it built with the tools in %s", res.Err, res.Stderr, compile)
	}

	// A GOROOT with a file only its owner reads, in a Jobs that has not
	// seen it yet.
	if err := os.Chmod(goBin, 0o700); err != nil {
		t.Fatal(err)
	}
	jobs2, err := docker.NewJobs(deploy.Config{Env: env})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { jobs2.Close(context.Background()) })
	res = jobs2.Run(t.Context(), docker.JobSpec{Name: name, Argv: []string{goBin, "env", "GOROOT"}, Mounts: []docker.Mount{{Host: dir}}})
	if os.Getuid() == 0 {
		if res.Err == nil || !strings.Contains(res.Err.Error(), goBin+" is not readable by the job's user (nobody)") {
			t.Errorf("Run(unreadable GOROOT) error = %v, want it refused", res.Err)
		}
	} else if res.Err != nil || string(res.Stdout) != linked+"\n" {
		// The job runs as the owner of the files.
		t.Errorf("Run(GOROOT only its owner reads) = %q, %v; want %s", res.Stdout, res.Err, linked)
	}
}
