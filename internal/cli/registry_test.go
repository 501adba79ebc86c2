package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentnet/agentnet/registry"
)

// startLong runs a long-running command in-process and returns the URL it
// prints, and a stop function that interrupts it and checks it exits 0.
func startLong(t *testing.T, getenv func(string) string, args ...string) (string, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	var out, errb lockedBuffer
	env := &Env{Args: args, Stdout: &out, Stderr: &errb, Ctx: ctx, Getenv: getenv, Environ: os.Environ}
	code := make(chan int, 1)
	go func() { code <- Main(env) }()
	var url string
	deadline := time.Now().Add(20 * time.Second)
	for url == "" && time.Now().Before(deadline) {
		select {
		case c := <-code:
			t.Fatalf("%v exited %d early (stderr %q)", args, c, errb.String())
		case <-time.After(20 * time.Millisecond):
		}
		url = strings.TrimSpace(out.String())
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		cancel()
		t.Fatalf("%v printed %q (stderr %q), want its URL", args, url, errb.String())
	}
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case c := <-code:
			if c != ExitOK {
				t.Errorf("%v exited %d after interrupt (stderr %q), want 0", args, c, errb.String())
			}
		case <-time.After(10 * time.Second):
			t.Errorf("%v did not stop after interrupt", args)
		}
	}
	t.Cleanup(stop)
	return url, stop
}

func runEnv(t *testing.T, getenv func(string) string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb lockedBuffer
	env := &Env{Args: args, Stdout: &out, Stderr: &errb, Ctx: t.Context(), Getenv: getenv, Stdin: strings.NewReader("")}
	code := Main(env)
	return code, out.String(), errb.String()
}

// TestRegistryEndToEnd serves a bundle with `agentnet serve`, runs
// `agentnet registry serve` and drives it with add, list and search.
func TestRegistryEndToEnd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "bundle", "agent.yaml"), shouterYAML)
	noenv := func(string) string { return "" }
	agentURL, _ := startLong(t, noenv, "serve", filepath.Join(dir, "bundle"))

	withToken := func(k string) string {
		if k == "AGENTNET_REGISTRY_TOKEN" {
			return "tok"
		}
		return ""
	}
	db := filepath.Join(dir, "state", "reg.db")
	regURL, stopReg := startLong(t, withToken, "registry", "serve", "--addr", "127.0.0.1:0", "--db", db, "--probe-interval", "50ms")

	tests := []struct {
		name   string
		getenv func(string) string
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{"add without token", noenv, []string{"registry", "add", "--registry", regURL, agentURL}, ExitFailed, nil, []string{"401", "bearer token"}},
		{"add", withToken, []string{"registry", "add", "--registry", regURL, agentURL}, ExitOK, []string{"registered", "shouter"}, nil},
		{"add again", withToken, []string{"registry", "add", "--registry", regURL, agentURL}, ExitOK, []string{"updated", "shouter"}, nil},
		{"add unreachable", withToken, []string{"registry", "add", "--registry", regURL, "http://127.0.0.1:1"}, ExitInvalid, nil, []string{"422", "connection refused"}},
		{"add ftp", withToken, []string{"registry", "add", "--registry", regURL, "ftp://x"}, ExitInvalid, nil, []string{"http or https"}},
		{"list", noenv, []string{"registry", "list", "--registry", regURL}, ExitOK, []string{"NAME", "shouter", "up", strings.TrimSuffix(agentURL, "/")}, nil},
		{"list by tag", noenv, []string{"registry", "list", "--registry", regURL, "--tag", "nope"}, ExitOK, []string{"ID"}, nil},
		{"search", noenv, []string{"registry", "search", "--registry", regURL, "upper", "case"}, ExitOK, []string{"SCORE", "shouter"}, nil},
		{"search none", noenv, []string{"registry", "search", "--registry", regURL, "chemistry"}, ExitOK, []string{"no agent matches"}, nil},
		{"search sql", noenv, []string{"registry", "search", "--registry", regURL, "'; DROP TABLE agents; --"}, ExitOK, []string{"no agent matches"}, nil},
		{"search bad status", noenv, []string{"registry", "search", "--registry", regURL, "--status", "sideways", "x"}, ExitInvalid, nil, []string{"unknown status"}},
		{"search punctuation", noenv, []string{"registry", "search", "--registry", regURL, "?!"}, ExitInvalid, nil, []string{"no letters or digits"}},
		{"no registry", noenv, []string{"registry", "list", "--registry", "http://127.0.0.1:1"}, ExitFailed, nil, []string{"connection refused"}},
		{"serve bad interval", noenv, []string{"registry", "serve", "--probe-interval", "0s"}, ExitInvalid, nil, []string{"--probe-interval"}},
		{"unknown subcommand", noenv, []string{"registry", "frobnicate"}, ExitInvalid, nil, []string{"unknown command"}},
	}
	for _, tc := range tests {
		code, out, errb := runEnv(t, tc.getenv, tc.args...)
		if code != tc.code {
			t.Errorf("%s: %v = %d, want %d (stdout %q, stderr %q)", tc.name, tc.args, code, tc.code, out, errb)
		}
		for _, w := range tc.stdout {
			if !strings.Contains(out, w) {
				t.Errorf("%s: stdout lacks %q:\n%s", tc.name, w, out)
			}
		}
		for _, w := range tc.stderr {
			if !strings.Contains(errb, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", tc.name, w, errb)
			}
		}
	}

	code, out, errb := runEnv(t, noenv, "registry", "search", "--registry", regURL, "--json", "shout")
	var hits []registry.Hit
	if err := json.Unmarshal([]byte(out), &hits); code != 0 || err != nil || len(hits) != 1 || hits[0].Score <= 0 || hits[0].Name != "shouter" {
		t.Fatalf("search --json = %d %q %v (stderr %q), want one scored hit", code, out, err, errb)
	}

	// Restarted on the same file, the registry still has the agent.
	stopReg()
	regURL, _ = startLong(t, withToken, "registry", "serve", "--addr", "127.0.0.1:0", "--db", db)
	code, out, _ = runEnv(t, noenv, "registry", "list", "--registry", regURL, "--json")
	if code != 0 || !strings.Contains(out, `"name": "shouter"`) {
		t.Errorf("list after restart = %d %q, want shouter", code, out)
	}
}

func TestRegistryHome(t *testing.T) {
	t.Parallel()
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"AGENTNET_HOME": "/srv/agentnet", "HOME": "/home/u"}, "/srv/agentnet"},
		{map[string]string{"HOME": "/home/u"}, "/home/u/.agentnet"},
		{map[string]string{}, ".agentnet"},
	}
	for _, tt := range tests {
		env := &Env{Getenv: func(k string) string { return tt.env[k] }}
		if got := agentnetHomeDir(env); got != tt.want {
			t.Errorf("agentnetHomeDir(%v) = %q, want %q", tt.env, got, tt.want)
		}
	}
}

// TestRegistryServeDatabaseURL checks that --db routes postgres:// URLs to
// the PostgreSQL store: a URL that does not parse is bad usage, a server
// that does not answer a failure, each one line that names the problem and
// never the password. (registry's tests run the store on a real server.)
func TestRegistryServeDatabaseURL(t *testing.T) {
	t.Parallel()
	noenv := func(string) string { return "" }
	tests := []struct {
		db   string
		code int
		want string
	}{
		{"postgres://reg:s3cretpw@127.0.0.1:99999/registry", ExitInvalid, "database URL"},
		{"postgresql://reg:s3cretpw@127.0.0.1/registry?sslmode=sideways", ExitInvalid, "sslmode"},
		// Port 1 on loopback refuses connections.
		{"postgres://reg:s3cretpw@127.0.0.1:1/registry?sslmode=disable", ExitFailed, "refused"},
		// pgx reports a line per address "localhost" resolves to: still one line.
		{"postgres://reg:s3cretpw@localhost:1/registry?sslmode=disable", ExitFailed, "refused"},
	}
	for _, tt := range tests {
		code, out, errb := runEnv(t, noenv, "registry", "serve", "--addr", "127.0.0.1:0", "--db", tt.db)
		if code != tt.code || !strings.Contains(errb, tt.want) || out != "" {
			t.Errorf("registry serve --db %s = %d (stdout %q, stderr %q), want %d with %q", tt.db, code, out, errb, tt.code, tt.want)
		}
		if strings.Contains(errb, "s3cretpw") || strings.Count(errb, "\n") != 1 {
			t.Errorf("registry serve --db %s: stderr %q shows the password or is not one line", tt.db, errb)
		}
	}
	// Nothing was created in the working directory for the URL.
	if _, err := os.Stat("postgres:"); !os.IsNotExist(err) {
		t.Errorf("registry serve --db postgres://... made a local file or directory: %v", err)
	}
}
