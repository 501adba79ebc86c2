package cli

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"

	"github.com/agentnet/agentnet/cards"
	"github.com/agentnet/agentnet/internal/proc/proctest"
)

// lockedBuffer is a bytes.Buffer safe for a command writing while the test
// reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

const shouterYAML = `version: 1
name: shouter
description: Turns text into capital letters.
check: [[python3, --version]]
skills:
  - id: shout
    name: Shout
    description: Convert the given text to upper case letters.
    params: {type: object, properties: {text: {type: string}}, required: [text]}
    run: [python3, -c, "import sys; print(sys.argv[1].upper())", "{{text}}"]
`

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// served is an "agentnet serve" running in the test, until cancel.
type served struct {
	url    string
	code   chan int // its exit code, once it returns
	errb   *lockedBuffer
	cancel context.CancelFunc
}

// startServe runs agentnet with args (a serve command) and waits for the
// URL it prints; it fails the test if serve exits or prints none.
func startServe(t *testing.T, args ...string) *served {
	t.Helper()
	return startServeEnv(t, nil, args...)
}

// startServeEnv is startServe with environment variables (also handed on
// to skills, as the process's own environment would be).
func startServeEnv(t *testing.T, vars map[string]string, args ...string) *served {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(cancel)
	var out lockedBuffer
	s := &served{code: make(chan int, 1), errb: &lockedBuffer{}, cancel: cancel}
	environ := func() []string {
		list := os.Environ()
		for k, v := range vars {
			list = append(list, k+"="+v)
		}
		return list
	}
	env := &Env{Args: args, Stdout: &out, Stderr: s.errb, Ctx: ctx,
		Getenv: func(k string) string { return vars[k] }, Environ: environ}
	go func() { s.code <- Main(env) }()
	deadline := time.Now().Add(20 * time.Second)
	for s.url == "" && time.Now().Before(deadline) {
		select {
		case c := <-s.code:
			t.Fatalf("serve exited %d before serving (stderr %q)", c, s.errb.String())
		default:
		}
		s.url = strings.TrimSpace(out.String())
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.HasPrefix(s.url, "http://127.0.0.1:") {
		t.Fatalf("serve printed %q (stderr %q), want its URL", s.url, s.errb.String())
	}
	return s
}

func TestServe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "agent.yaml"), shouterYAML)
	s := startServe(t, "serve", dir)
	cancel, code, errb, url := s.cancel, s.code, s.errb, s.url
	resp, err := http.Get(strings.TrimSuffix(url, "/") + "/.well-known/agent-card.json")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if ps := cards.Validate(data); ps != nil {
		t.Errorf("served card has problems: %v", ps)
	}
	card, err := agentcard.DefaultResolver.Resolve(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	c, err := a2aclient.NewFromCard(t.Context(), card)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("quiet"))})
	if err != nil {
		t.Fatalf("SendMessage() error = %v", err)
	}
	task := res.(*a2a.Task)
	if got := task.Artifacts[0].Parts[0].Text(); got != "QUIET\n" {
		t.Errorf("output = %q, want QUIET", got)
	}

	cancel()
	select {
	case c := <-code:
		if c != ExitOK {
			t.Errorf("serve exited %d after interrupt (stderr %q), want 0", c, errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop after interrupt")
	}
}

// TestServeSetupNoCheck runs the setup commands of a bundle whose check
// fails, and serves it: --no-check skips the check also beside --setup.
func TestServeSetupNoCheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "agent.yaml"), strings.Replace(shouterYAML, "check: [[python3, --version]]",
		"setup: [[python3, -c, \"open('made', 'w').close()\"]]\ncheck: [[python3, -c, \"raise SystemExit(1)\"]]", 1))
	s := startServe(t, "serve", "--setup", "--no-check", dir)
	cancel, code := s.cancel, s.code
	if _, err := os.Stat(filepath.Join(dir, "made")); err != nil {
		t.Errorf("the setup command did not run: %v", err)
	}
	cancel()
	<-code
}

func TestServeInvalid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		yaml  string
		args  []string
		code  int
		wants []string
	}{
		{"bad bundle", "version: 1\nname: x\nskills: [{id: a, run: [echo, '{{nope}}']}]\n", nil, ExitInvalid,
			[]string{"agent.yaml:1:1: description: missing or empty", "agent.yaml:3:", "skills[0].run[1]: {{nope}} is not a declared parameter"}},
		{"failing check", strings.Replace(shouterYAML, "[[python3, --version]]", "[[python3, -c, 'import sys; sys.exit(4)']]", 1), nil, ExitFailed,
			[]string{"check of bundle shouter", "exited with status 4"}},
		{"unreachable url", shouterYAML, []string{"--url", "http://0.0.0.0:1/"}, ExitInvalid, []string{"unspecified address"}},
		{"bad flag", shouterYAML, []string{"--colour"}, ExitInvalid, []string{"unknown flag: --colour"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "agent.yaml"), tc.yaml)
			var out, errb lockedBuffer
			env := &Env{Args: append([]string{"serve", dir}, tc.args...), Stdout: &out, Stderr: &errb, Ctx: t.Context(),
				Getenv: func(string) string { return "" }, Environ: os.Environ}
			if code := Main(env); code != tc.code {
				t.Errorf("Main(serve) = %d, want %d (stderr %q)", code, tc.code, errb.String())
			}
			for _, w := range tc.wants {
				if !strings.Contains(errb.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, errb.String())
				}
			}
		})
	}
}

func TestSchemaBundle(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	env := &Env{Args: []string{"schema", "bundle"}, Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	if code := Main(env); code != ExitOK {
		t.Fatalf("schema bundle = %d (%s)", code, errb.String())
	}
	if !strings.Contains(out.String(), `"$id": "https://agentnet.dev/schema/bundle.json"`) {
		t.Errorf("schema bundle printed %.200s", out.String())
	}
}

// TestServeOwnServer serves a bundle that brings its own A2A server (the
// host's Python test server) and calls it through the served card.
func TestServeOwnServer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	server, err := os.ReadFile(filepath.Join("..", "..", "a2a", "host", "testdata", "a2aserver.py"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "server.py"), string(server))
	writeFile(t, filepath.Join(dir, "agent.yaml"), `version: 1
name: pyshout
description: Turns text into capital letters, with a server of its own.
check: [[python3, --version]]
serve: [python3, server.py, --port, "{{port}}", --pidfile, pids]
`)
	s := startServe(t, "serve", dir)
	cancel, code, errb, url := s.cancel, s.code, s.errb, s.url
	card, err := agentcard.DefaultResolver.Resolve(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	if card.Name != "pyshout" || card.SupportedInterfaces[0].URL != url {
		t.Errorf("card = %s at %s, want pyshout at %s", card.Name, card.SupportedInterfaces[0].URL, url)
	}
	c, err := a2aclient.NewFromCard(t.Context(), card)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("quiet"))})
	if err != nil {
		t.Fatalf("SendMessage() error = %v", err)
	}
	if task := res.(*a2a.Task); task.Artifacts[0].Parts[0].Text() != "QUIET" {
		t.Errorf("output = %q, want QUIET", task.Artifacts[0].Parts[0].Text())
	}
	pids, _ := os.ReadFile(filepath.Join(dir, "pids"))

	cancel()
	select {
	case c := <-code:
		if c != ExitOK {
			t.Errorf("serve exited %d after interrupt (stderr %q), want 0", c, errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop after interrupt")
	}
	if !strings.Contains(errb.String(), "a2aserver: listening on") {
		t.Errorf("stderr = %q, want the server's output", errb.String())
	}
	// The group was signalled before serve returned; the kernel ends its
	// members asynchronously, so give them a moment to go.
	for _, f := range strings.Fields(string(pids)) {
		pid, _ := strconv.Atoi(f)
		if pid > 0 && !proctest.Gone(pid, 10*time.Second) {
			t.Errorf("process %d of the server's group still runs after serve stopped", pid)
		}
	}
}

// TestInitAllocations keeps agentnet's own package initialisers light. Every
// "agentnet serve" of a fleet runs the initialisers of the whole binary, and
// what they allocate (compiled regexps, parsed templates) stays resident in
// each idle agent; a package-level value that a command may never use is
// built on first use instead (internal/lazyregexp, sync.OnceValue). The
// test binary links every agentnet package, so its own start-up, traced by
// the runtime (GODEBUG=inittrace=1), shows what each initialiser allocates.
func TestInitAllocations(t *testing.T) {
	t.Parallel()
	const limit = 64 << 10 // bytes per package
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("run the test binary: %v\n%s", err, out)
	}
	seen := 0
	for line := range strings.Lines(string(out)) {
		// init github.com/agentnet/agentnet/eval @18 ms, 0.29 ms clock, 95208 bytes, 2126 allocs
		f := strings.Fields(line)
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," || !strings.HasPrefix(f[1], "github.com/agentnet/agentnet/") {
			continue
		}
		seen++
		n, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("inittrace line %q: %v", line, err)
		}
		if n > limit {
			t.Errorf("initialising %s allocates %d bytes, want at most %d: build heavy package-level values on first use", f[1], n, limit)
		}
	}
	if seen < 5 {
		t.Fatalf("inittrace reported %d agentnet packages, want every one the binary links:\n%s", seen, out)
	}
}
