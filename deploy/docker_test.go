package deploy_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/client"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/deploy/deploytest"
	"github.com/agentnet/agentnet/deploy/docker"
	"github.com/agentnet/agentnet/generation"
	"github.com/agentnet/agentnet/generation/static"
)

// dockerClient returns a client of the machine's Docker daemon, or skips the
// test when none answers. With AGENTNET_REQUIRE_DOCKER=1 (as CI sets it), a
// missing daemon fails the test instead.
func dockerClient(t testing.TB) *client.Client {
	t.Helper()
	skip := t.Skipf
	if deploytest.Required() {
		skip = t.Fatalf
	}
	c, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
	if err != nil {
		skip("no Docker client: %v", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if _, err := c.Ping(ctx); err != nil {
		c.Close()
		skip("no Docker daemon answers: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// writeFiles writes files (path → contents) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// cleanupDocker removes, at the end of the test, the containers and images
// that carry one of the agent names, and the base images they were built
// on when nothing else uses them. Nothing else is touched.
func cleanupDocker(t testing.TB, c *client.Client, names []string) {
	t.Cleanup(func() {
		ctx := context.Background()
		for _, name := range names {
			f := filters.NewArgs(filters.Arg("label", docker.LabelAgent+"="+name))
			cs, _ := c.ContainerList(ctx, container.ListOptions{All: true, Filters: f})
			for _, ct := range cs {
				t.Logf("clean-up: removing container %s left by %s", ct.ID[:12], name)
				c.ContainerRemove(ctx, ct.ID, container.RemoveOptions{Force: true})
			}
			imgs, _ := c.ImageList(ctx, image.ListOptions{All: true, Filters: f})
			for _, img := range imgs {
				t.Logf("clean-up: removing image %s left by %s", img.ID, name)
				c.ImageRemove(ctx, img.ID, image.RemoveOptions{Force: true, PruneChildren: true})
				if base := img.Labels[docker.LabelBase]; base != "" {
					c.ImageRemove(ctx, base, image.RemoveOptions{PruneChildren: true})
				}
			}
		}
	})
}

func TestDockerRuntime(t *testing.T) {
	t.Parallel()
	dc := dockerClient(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatal("python3 is not installed: the test's agents run it")
	}
	exe := agentnetBinary(t)
	ctx := t.Context()
	var suffix [3]byte
	rand.Read(suffix[:])
	id := hex.EncodeToString(suffix[:])
	root := t.TempDir()

	type agentCase struct {
		name, text, want string
		bundle           string
		artifact         string
	}
	// A Python skill that writes a file artifact into its work directory
	// (a tmpfs in the read-only container).
	py := filepath.Join(root, "py")
	writeFiles(t, py, map[string]string{
		"agent.yaml": "version: 1\nname: py\ndescription: Shouts text.\ncheck: [[python3, -c, \"import json\"]]\nskills:\n" +
			"  - id: shout\n    name: Shout\n    description: Shout the text.\n" +
			"    params: {type: object, properties: {text: {type: string}}, required: [text]}\n" +
			"    run: [python3, \"{{repo}}/main.py\", \"{{text}}\"]\n    outputs: [\"*.txt\"]\n",
		"main.py": "import sys\nopen('shout.txt', 'w').write(sys.argv[1].upper())\nprint(sys.argv[1].upper())\n",
	})
	// A POSIX shell skill whose repo lies outside the bundle directory.
	writeFiles(t, filepath.Join(root, "repos", "words"), map[string]string{
		"count.sh": "#!/bin/sh\nprintf '%s\\n' \"$1\" | tr ' ' '\\n' | sort | uniq -c | sort -rn | head -n 1 | awk '{print $2 \"=\" $1}'\n",
	})
	sh := filepath.Join(root, "bundles", "words")
	writeFiles(t, sh, map[string]string{
		"agent.yaml": "version: 1\nname: words\ndescription: Finds the most frequent word.\nrepo: {source: ../../repos/words}\nskills:\n" +
			"  - id: top\n    name: Top word\n    description: The most frequent word.\n" +
			"    params: {type: object, properties: {text: {type: string}}, required: [text]}\n" +
			"    run: [sh, \"{{repo}}/count.sh\", \"{{text}}\"]\n",
	})
	// A bundle with its own A2A server (the host's Python test server),
	// run by agentnet serve in the container.
	own := filepath.Join(root, "own")
	server, err := os.ReadFile(filepath.Join("..", "a2a", "host", "testdata", "a2aserver.py"))
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, own, map[string]string{
		"agent.yaml": "version: 1\nname: own\ndescription: Shouts text with a server of its own.\n" +
			"serve: [python3, server.py, --port, \"{{port}}\"]\n",
		"server.py": string(server),
	})
	cases := []agentCase{
		{name: "dt-" + id + "-py", bundle: py, text: "hello docker", want: "HELLO DOCKER", artifact: "shout.txt"},
		{name: "dt-" + id + "-words", bundle: sh, text: "b a b c b a", want: "b=3"},
		{name: "dt-" + id + "-own", bundle: own, text: "hello own server", want: "HELLO OWN SERVER"},
	}
	if _, err := exec.LookPath("node"); err == nil {
		js := filepath.Join(root, "js")
		writeFiles(t, js, map[string]string{
			"agent.yaml": "version: 1\nname: js\ndescription: Reverses text.\nskills:\n" +
				"  - id: reverse\n    name: Reverse\n    description: Reverse the text.\n" +
				"    params: {type: object, properties: {text: {type: string}}, required: [text]}\n" +
				"    run: [node, \"{{repo}}/main.js\", \"{{text}}\"]\n",
			"main.js": "console.log(process.argv[2].split('').reverse().join(''))\n",
		})
		cases = append(cases, agentCase{name: "dt-" + id + "-js", bundle: js, text: "stressed", want: "desserts"})
	}
	broken := filepath.Join(root, "broken")
	writeFiles(t, broken, map[string]string{
		"agent.yaml": "version: 1\nname: broken\ndescription: Never starts.\ncheck: [[python3, -c, \"import sys; sys.exit('check says no')\"]]\nskills:\n" +
			"  - id: x\n    name: X\n    description: Nothing.\n    run: [python3, -c, \"pass\"]\n",
	})
	names := []string{"dt-" + id + "-broken"}
	for _, c := range cases {
		names = append(names, c.name)
	}
	cleanupDocker(t, dc, names)

	rt, err := deploy.Open("docker", deploy.Config{Self: exe, Env: os.Environ(), ReadyTimeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	agents := make([]*deploy.Agent, len(cases))
	var wg sync.WaitGroup
	errs := make([]error, len(cases))
	for i, c := range cases {
		wg.Go(func() { agents[i], errs[i] = rt.Up(ctx, deploy.Spec{Name: c.name, Bundle: c.bundle}) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("Up(%s) error = %v", cases[i].name, err)
		}
	}

	var bases []string
	for i, a := range agents {
		c := cases[i]
		t.Run(c.name, func(t *testing.T) {
			if !strings.HasPrefix(a.URL, "http://127.0.0.1:") || a.Runtime != "docker" {
				t.Errorf("Up() = %+v, want a loopback URL on the docker runtime", a)
			}
			card, err := agentcard.DefaultResolver.Resolve(ctx, a.URL)
			if err != nil {
				t.Fatalf("Resolve(%s) error = %v", a.URL, err)
			}
			for _, in := range card.SupportedInterfaces {
				if in.URL != a.URL {
					t.Errorf("card interface URL = %s, want the published URL %s", in.URL, a.URL)
				}
			}
			cl, err := a2aclient.NewFromCard(ctx, card, a2aclient.WithDefaultsDisabled(), a2aclient.WithJSONRPCTransport(nil))
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Destroy()
			res, err := cl.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(c.text))})
			if err != nil {
				t.Fatalf("SendMessage() error = %v", err)
			}
			task, ok := res.(*a2a.Task)
			if !ok {
				t.Fatalf("SendMessage() = %T, want a task", res)
			}
			var text, files []string
			for _, art := range task.Artifacts {
				for _, p := range art.Parts {
					text = append(text, p.Text())
					if p.Filename != "" {
						files = append(files, p.Filename)
					}
				}
			}
			if task.Status.State != a2a.TaskStateCompleted || !strings.Contains(strings.Join(text, ""), c.want) {
				t.Errorf("task = %s %q, want completed with %q (status %+v)", task.Status.State, text, c.want, task.Status.Message)
			}
			if c.artifact != "" && !strings.Contains(strings.Join(files, " "), c.artifact) {
				t.Errorf("artifact files = %v, want %s", files, c.artifact)
			}

			info, err := dc.ContainerInspect(ctx, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			hc := info.HostConfig
			if !hc.ReadonlyRootfs || hc.Memory == 0 || hc.NanoCPUs == 0 || hc.PidsLimit == nil || *hc.PidsLimit == 0 {
				t.Errorf("container limits: read-only %v, memory %d, cpus %d, pids %v; want all set", hc.ReadonlyRootfs, hc.Memory, hc.NanoCPUs, hc.PidsLimit)
			}
			for port, binds := range hc.PortBindings {
				for _, b := range binds {
					if b.HostIP != "127.0.0.1" {
						t.Errorf("port %s published on %q, want 127.0.0.1 only", port, b.HostIP)
					}
				}
			}
			if info.Config.Labels[docker.LabelManaged] != "true" || info.Config.Labels[docker.LabelAgent] != c.name {
				t.Errorf("container labels = %v, want agentnet's", info.Config.Labels)
			}
			img, err := dc.ImageInspect(ctx, info.Image)
			if err != nil {
				t.Fatal(err)
			}
			if img.Config.Labels[docker.LabelAgent] != c.name || img.Config.Labels[docker.LabelBase] == "" {
				t.Errorf("image labels = %v, want agentnet's", img.Config.Labels)
			}
			bases = append(bases, img.Config.Labels[docker.LabelBase])
			if h := rt.Health(ctx, a); !h.Up {
				t.Errorf("Health() = %+v, want up", h)
			}
		})
	}

	n, err := dc.NetworkInspect(ctx, docker.Network, network.InspectOptions{})
	if err != nil {
		t.Fatalf("NetworkInspect(%s) error = %v", docker.Network, err)
	}
	if n.Labels[docker.LabelManaged] != "true" || n.Options["com.docker.network.bridge.enable_ip_masquerade"] != "false" || n.Options["com.docker.network.bridge.enable_icc"] != "false" {
		t.Errorf("network %s: labels %v, options %v; want agentnet's, no masquerading, no inter-container traffic", n.Name, n.Labels, n.Options)
	}

	t.Run("a failing check fails Up with the container's log and leaves nothing", func(t *testing.T) {
		_, err := rt.Up(ctx, deploy.Spec{Name: names[0], Bundle: broken})
		if err == nil || !strings.Contains(err.Error(), "check says no") {
			t.Errorf("Up(broken) error = %v, want the check's complaint", err)
		}
		f := filters.NewArgs(filters.Arg("label", docker.LabelAgent+"="+names[0]))
		if cs, _ := dc.ContainerList(ctx, container.ListOptions{All: true, Filters: f}); len(cs) != 0 {
			t.Errorf("containers left by a failed Up: %d", len(cs))
		}
		if imgs, _ := dc.ImageList(ctx, image.ListOptions{Filters: f}); len(imgs) != 0 {
			t.Errorf("images left by a failed Up: %d", len(imgs))
		}
	})

	for i, a := range agents {
		info, _ := dc.ContainerInspect(ctx, a.ID)
		if err := rt.Down(ctx, a); err != nil {
			t.Errorf("Down(%s) error = %v", a.Name, err)
		}
		if _, err := dc.ContainerInspect(ctx, a.ID); !cerrdefs.IsNotFound(err) {
			t.Errorf("container of %s after Down: %v, want not found", a.Name, err)
		}
		if _, err := dc.ImageInspect(ctx, info.Image); !cerrdefs.IsNotFound(err) {
			t.Errorf("image of %s after Down: %v, want not found", cases[i].name, err)
		}
		if h := rt.Health(ctx, a); h.Up {
			t.Errorf("Health(%s) after Down = up", a.Name)
		}
		if err := rt.Down(ctx, a); err != nil {
			t.Errorf("second Down(%s) error = %v, want none", a.Name, err)
		}
	}
	for _, base := range bases {
		if _, err := dc.ImageInspect(ctx, base); err == nil {
			f := filters.NewArgs(filters.Arg("label", docker.LabelBase+"="+base))
			if users, _ := dc.ImageList(ctx, image.ListOptions{Filters: f}); len(users) == 0 {
				t.Errorf("base image %s remains after the last Down, unused", base)
			}
		}
	}
}

// TestDockerForeignContainer runs against a fake Docker Engine that speaks the
// Engine API's wire format: Down leaves alone a container agentnet did not
// make, and takes a vanished one for done.
func TestDockerForeignContainer(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var deletes []string
	srv := newFakeEngine(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			mu.Lock()
			deletes = append(deletes, r.URL.Path)
			mu.Unlock()
		}
		switch {
		case strings.HasSuffix(r.URL.Path, "/containers/foreign/json"):
			io.WriteString(w, `{"Id":"foreign","Image":"sha256:aa","Config":{"Labels":{"com.example":"x"}},"State":{"Status":"running","Running":true}}`)
		case strings.HasSuffix(r.URL.Path, "/containers/exited/json"):
			io.WriteString(w, `{"Id":"exited","Image":"sha256:aa","Config":{"Labels":{"agentnet.managed":"true"}},"State":{"Status":"exited","Running":false,"ExitCode":3}}`)
		case strings.HasSuffix(r.URL.Path, "/images/json"):
			if !strings.Contains(r.URL.Query().Get("filters"), "agentnet.agent=x") {
				t.Errorf("image list filters = %s, want the agent's label", r.URL.Query().Get("filters"))
			}
			io.WriteString(w, `[]`)
		default:
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"message":"No such container: gone"}`)
		}
	})
	rt, err := deploy.Open("docker", deploy.Config{Self: "agentnet", Env: []string{"DOCKER_HOST=tcp://" + srv}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if err := rt.Down(ctx, &deploy.Agent{Name: "x", ID: "foreign"}); err == nil || !strings.Contains(err.Error(), "not made by agentnet") {
		t.Errorf("Down(foreign) error = %v, want a refusal", err)
	}
	if err := rt.Down(ctx, &deploy.Agent{Name: "x", ID: "gone"}); err != nil {
		t.Errorf("Down(gone) error = %v, want none", err)
	}
	if h := rt.Health(ctx, &deploy.Agent{Name: "x", ID: "exited", URL: "http://127.0.0.1:1/"}); h.Up || !strings.Contains(h.Detail, "exited (status 3)") {
		t.Errorf("Health(exited) = %+v, want down with the exit status", h)
	}
	if h := rt.Health(ctx, &deploy.Agent{Name: "x", ID: "gone", URL: "http://127.0.0.1:1/"}); h.Up || h.Detail != "container gone" {
		t.Errorf("Health(gone) = %+v, want container gone", h)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(deletes) > 0 {
		t.Errorf("the runtime sent %v, want no deletion", deletes)
	}
}

// newFakeEngine serves the Docker Engine API's ping (API version 1.41) and
// hands every other request to h; it returns the server's host:port.
func newFakeEngine(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Api-Version", "1.41")
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/_ping") {
			io.WriteString(w, "OK")
			return
		}
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://")
}

// TestDockerPythonEnvironment generates a bundle (static) from a Python
// package whose code imports PyYAML, which the interpreter finds only in
// Debian's dist-packages, and runs it in a container: the image carries the
// interpreter, the venv with the package pip installed into it, and of the
// system's site packages the one the code imports (with libyaml, which its
// extension module loads). Three skills run there: the generated one, the
// console script pip installed into the venv, and a wrapper kept beside
// agent.yaml, named through {{bundle}}.
func TestDockerPythonEnvironment(t *testing.T) {
	t.Parallel()
	dc := dockerClient(t)
	// Only the system's interpreters: PyYAML then comes from dist-packages.
	env := []string{"PATH=/usr/local/bin:/usr/bin:/bin"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	if out, err := exec.Command("/usr/bin/python3", "-c", "import yaml; print(yaml.__file__)").Output(); err != nil || !strings.Contains(string(out), "/dist-packages/") {
		msg := fmt.Sprintf("/usr/bin/python3 does not import yaml from dist-packages (%v %s): apt-get install python3-yaml", err, out)
		if deploytest.Required() { // CI installs it (.ci/run)
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	exe := agentnetBinary(t)
	ctx := t.Context()
	var suffix [3]byte
	rand.Read(suffix[:])
	name := "dt-" + hex.EncodeToString(suffix[:]) + "-yamlkit"
	cleanupDocker(t, dc, []string{name})

	out := filepath.Join(t.TempDir(), "yamlkit")
	rep, err := generation.Run(ctx, generation.Config{Repo: filepath.Join("testdata", "yamlkit"), Out: out, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		a := rep.Attempts[len(rep.Attempts)-1]
		t.Fatalf("generate yamlkit failed at %s: %s", a.Stage, a.Reason)
	}
	data, err := os.ReadFile(filepath.Join(out, generation.EnvironmentFile))
	if err != nil {
		t.Fatal(err)
	}
	var pe static.PythonEnv
	if err := json.Unmarshal(data, &pe); err != nil {
		t.Fatal(err)
	}
	if pe.Python == nil || !pe.Python.Debian || !pe.Installed || !slices.Contains(pe.Debian, "python3-yaml") {
		t.Fatalf("environment = %s, want Debian's interpreter, the package installed, python3-yaml recorded", data)
	}

	// The console script pip wrote still runs here although the bundle
	// moved from its attempt's directory to out.
	script := filepath.Join(out, "repo", ".agentnet", "venv", "bin", "yamlkit")
	if got, err := exec.Command(script, "a: 1").CombinedOutput(); err != nil || strings.TrimSpace(string(got)) != `{"a": 1}` {
		t.Errorf("%s on this machine = %q, %v; want {\"a\": 1}", script, got, err)
	}
	b, err := bundle.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if b.Skill("yamlkit") == nil {
		t.Fatalf("generated skills = %v, want yamlkit", b.Skills)
	}
	// The Debian package the environment uses is recorded for the image.
	if !slices.Contains(b.SystemPackages, "python3-yaml") {
		t.Errorf("generated system_packages = %q, want python3-yaml", b.SystemPackages)
	}
	params := map[string]any{"type": "object", "properties": map[string]any{"content": map[string]any{"type": "string"}}, "required": []any{"content"}}
	b.Skills = append(b.Skills,
		bundle.Skill{ID: "installed", Name: "Installed", Description: "The console script pip installed into the venv.",
			Params: params, Run: bundle.Command{"{{repo}}/.agentnet/venv/bin/yamlkit", "{{content}}"}},
		bundle.Skill{ID: "bundled", Name: "Bundled", Description: "A wrapper beside agent.yaml.",
			Params: params, Run: bundle.Command{"{{bundle}}/wrapper/bundled.sh", "{{repo}}", "{{content}}"}},
	)
	yml, err := static.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, out, map[string]string{
		bundle.FileName:      string(yml),
		"wrapper/bundled.sh": "#!/bin/sh\nexec \"$1/.agentnet/venv/bin/python\" -c 'import sys, yamlkit; print(yamlkit.to_json(sys.argv[1]))' \"$2\"\n",
	})
	if err := os.Chmod(filepath.Join(out, "wrapper", "bundled.sh"), 0o755); err != nil {
		t.Fatal(err)
	}

	rt, err := deploy.Open("docker", deploy.Config{Self: exe, Env: env, ReadyTimeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	a, err := rt.Up(ctx, deploy.Spec{Name: name, Bundle: out})
	if err != nil {
		t.Fatalf("Up(yamlkit) error = %v", err)
	}
	defer func() {
		if err := rt.Down(context.WithoutCancel(ctx), a); err != nil {
			t.Errorf("Down() error = %v", err)
		}
	}()
	card, err := agentcard.DefaultResolver.Resolve(ctx, a.URL)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := a2aclient.NewFromCard(ctx, card, a2aclient.WithDefaultsDisabled(), a2aclient.WithJSONRPCTransport(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Destroy()
	for _, skill := range []string{"yamlkit", "installed", "bundled"} {
		msg := a2a.NewMessage(a2a.MessageRoleUser, a2a.NewDataPart(map[string]any{"content": "b: [1, 2]\na: x"}))
		msg.Metadata = map[string]any{"skill": skill}
		res, err := cl.SendMessage(ctx, &a2a.SendMessageRequest{Message: msg})
		if err != nil {
			t.Fatalf("SendMessage(%s) error = %v", skill, err)
		}
		task, ok := res.(*a2a.Task)
		if !ok {
			t.Fatalf("SendMessage(%s) = %T, want a task", skill, res)
		}
		var text strings.Builder
		for _, art := range task.Artifacts {
			for _, p := range art.Parts {
				text.WriteString(p.Text())
			}
		}
		if status := taskStatus(task); task.Status.State != a2a.TaskStateCompleted || !strings.Contains(text.String(), `{"a": "x", "b": [1, 2]}`) {
			t.Errorf("skill %s: task %s %q (%s), want completed with the JSON", skill, task.Status.State, text.String(), status)
		}
	}

	// Of the system's site packages, the image holds what the code imports.
	info, err := dc.ContainerInspect(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dc.ContainerStatPath(ctx, a.ID, "/usr/lib/python3/dist-packages/yaml/__init__.py"); err != nil {
		t.Errorf("the image lacks PyYAML from dist-packages: %v", err)
	}
	if _, err := os.Stat("/usr/lib/python3/dist-packages/pip"); err == nil {
		if _, err := dc.ContainerStatPath(ctx, a.ID, "/usr/lib/python3/dist-packages/pip"); err == nil {
			t.Errorf("the image holds dist-packages/pip, which the code does not import")
		}
	}
	img, err := dc.ImageInspect(ctx, info.Image)
	if err != nil {
		t.Fatal(err)
	}
	base, err := dc.ImageInspect(ctx, img.Config.Labels[docker.LabelBase])
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("image sizes: base %.1f MB, agent %.1f MB", float64(base.Size)/1e6, float64(img.Size)/1e6)
}

func taskStatus(task *a2a.Task) string {
	if task.Status.Message == nil {
		return ""
	}
	var s strings.Builder
	for _, p := range task.Status.Message.Parts {
		s.WriteString(p.Text())
	}
	return s.String()
}

// TestDockerSystemPackages deploys a bundle whose shell script runs a
// program that only its system_packages bring into the image: the image
// holds the package's files and the libraries its program loads, and the
// skill runs in the container.
func TestDockerSystemPackages(t *testing.T) {
	t.Parallel()
	dc := dockerClient(t)
	if err := exec.Command("dpkg-query", "-W", "jq").Run(); err != nil {
		msg := "the Debian package jq is not installed: apt-get install jq"
		if deploytest.Required() { // CI installs it (.ci/run)
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	exe := agentnetBinary(t)
	ctx := t.Context()
	var suffix [3]byte
	rand.Read(suffix[:])
	name := "dt-" + hex.EncodeToString(suffix[:]) + "-pick"
	cleanupDocker(t, dc, []string{name})
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"agent.yaml": "version: 1\nname: pick\ndescription: Picks a field of a JSON document.\nsystem_packages: [jq]\nskills:\n" +
			"  - id: pick\n    name: Pick\n    description: The value of the field a.\n" +
			"    params: {type: object, properties: {text: {type: string}}, required: [text]}\n" +
			"    run: [sh, \"{{bundle}}/pick.sh\", \"{{text}}\"]\n",
		// jq is no POSIX tool: only the package brings it.
		"pick.sh": "#!/bin/sh\nprintf '%s' \"$1\" | jq -r '.a | ascii_upcase'\n",
	})
	rt, err := deploy.Open("docker", deploy.Config{Self: exe, Env: os.Environ(), ReadyTimeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	a, err := rt.Up(ctx, deploy.Spec{Name: name, Bundle: dir})
	if err != nil {
		t.Fatalf("Up(pick) error = %v", err)
	}
	defer func() {
		if err := rt.Down(context.WithoutCancel(ctx), a); err != nil {
			t.Errorf("Down() error = %v", err)
		}
	}()
	for _, p := range []string{"/usr/bin/jq", "/usr/share/doc/jq/copyright"} {
		if _, err := dc.ContainerStatPath(ctx, a.ID, p); err != nil {
			t.Errorf("the image lacks %s of the package jq: %v", p, err)
		}
	}
	card, err := agentcard.DefaultResolver.Resolve(ctx, a.URL)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := a2aclient.NewFromCard(ctx, card, a2aclient.WithDefaultsDisabled(), a2aclient.WithJSONRPCTransport(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Destroy()
	res, err := cl.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(`{"a": "in the image"}`))})
	if err != nil {
		t.Fatalf("SendMessage() error = %v", err)
	}
	task, ok := res.(*a2a.Task)
	if !ok {
		t.Fatalf("SendMessage() = %T, want a task", res)
	}
	var text strings.Builder
	for _, art := range task.Artifacts {
		for _, p := range art.Parts {
			text.WriteString(p.Text())
		}
	}
	if task.Status.State != a2a.TaskStateCompleted || !strings.Contains(text.String(), "IN THE IMAGE") {
		t.Errorf("task = %s %q (%s), want completed with IN THE IMAGE", task.Status.State, text.String(), taskStatus(task))
	}
}
