package registry

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// binDir holds the agentnet binary the tests build; TestMain removes it.
var binDir string

func TestMain(m *testing.M) {
	code := m.Run()
	stopPostgres()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	for _, d := range benchDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
}

// buildAgentnet builds the agentnet binary once per test run.
var buildAgentnet = sync.OnceValues(func() (string, error) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("no go command to build agentnet: %w", err)
	}
	dir, err := os.MkdirTemp("", "agentnet-registry-test-")
	if err != nil {
		return "", err
	}
	binDir = dir
	bin := filepath.Join(dir, "agentnet")
	cmd := exec.Command(gobin, "build", "-o", bin, "./cmd/agentnet")
	cmd.Dir = ".." // the module root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/agentnet: %v\n%s", err, out)
	}
	return bin, nil
})

// registryProc is `agentnet registry serve` running as a child process.
type registryProc struct {
	cmd *exec.Cmd
	url string
}

func startRegistryProc(t *testing.T, bin, db string) *registryProc {
	t.Helper()
	cmd := exec.Command(bin, "registry", "serve", "--addr", "127.0.0.1:0", "--db", db, "--probe-interval", "1h")
	cmd.Env = append(os.Environ(), "AGENTNET_REGISTRY_TOKEN="+testToken)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &registryProc{cmd: cmd}
	t.Cleanup(func() { p.cmd.Process.Kill(); p.cmd.Wait() })
	line := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(stdout)
		if s.Scan() {
			line <- s.Text()
		}
		close(line)
		io.Copy(io.Discard, stdout)
	}()
	select {
	case p.url = <-line:
	case <-time.After(30 * time.Second):
	}
	if !strings.HasPrefix(p.url, "http://127.0.0.1:") {
		t.Fatalf("registry serve printed %q, want its URL (stderr %q)", p.url, stderr.String())
	}
	return p
}

// TestSIGKILLDurability kills the registry process with SIGKILL while
// registrations are in flight, restarts it on the same file and checks that
// every acknowledged registration is there, searchable, and the database
// intact.
func TestSIGKILLDurability(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL durability test needs a Unix process model")
	}
	bin, err := buildAgentnet()
	if err != nil {
		t.Fatal(err)
	}
	agents := newFakeAgents(t)
	const total = 400
	for i := range total {
		name := fmt.Sprintf("agent%03d", i)
		agents.set(t, name, testCard(name, fmt.Sprintf("Agent number %d, word w%03dx.", i, i),
			skill("work", "Does its work.", "t"+fmt.Sprint(i%7))))
	}
	db := filepath.Join(t.TempDir(), "reg.db")
	proc := startRegistryProc(t, bin, db)
	client := NewClient(proc.url, WithClientToken(testToken), WithHTTPClient(&http.Client{Timeout: 10 * time.Second}))

	var (
		mu       sync.Mutex
		acked    = map[string]string{} // id → name
		attempts atomic.Int32
		killed   = make(chan struct{})
		once     sync.Once
	)
	work := make(chan int)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				attempts.Add(1)
				rec, _, err := client.Register(context.Background(), agents.url(fmt.Sprintf("agent%03d", i)))
				if err != nil {
					continue // not acknowledged: the process died under it
				}
				mu.Lock()
				acked[rec.ID] = rec.Name
				n := len(acked)
				mu.Unlock()
				if n == 120 {
					once.Do(func() {
						proc.cmd.Process.Kill() // SIGKILL
						close(killed)
					})
				}
			}
		}()
	}
feed:
	for i := range total {
		select {
		case work <- i:
		case <-killed:
			// Keep a few more requests going at the dead process.
			for j := i; j < min(i+8, total); j++ {
				work <- j
			}
			break feed
		}
	}
	close(work)
	wg.Wait()
	proc.cmd.Wait()
	select {
	case <-killed:
	default:
		t.Fatalf("the registry was never killed (acked %d)", len(acked))
	}
	t.Logf("%d registrations attempted, %d acknowledged before and around SIGKILL", attempts.Load(), len(acked))

	// The file opens (replaying the WAL) and is intact, index included.
	s, err := OpenSQLite(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	var ic string
	if err := s.r.QueryRowContext(t.Context(), "PRAGMA integrity_check").Scan(&ic); err != nil || ic != "ok" {
		t.Errorf("integrity_check = %q, %v; want ok", ic, err)
	}
	if _, err := s.w.ExecContext(t.Context(), "INSERT INTO agents_fts(agents_fts) VALUES('integrity-check')"); err != nil {
		t.Errorf("FTS integrity check: %v", err)
	}
	s.Close()

	proc = startRegistryProc(t, bin, db)
	client = NewClient(proc.url)
	for id, name := range acked {
		rec, err := client.Get(t.Context(), id)
		if err != nil || rec.Name != name {
			t.Errorf("after SIGKILL and restart: Get(%s) = %q, %v; want %s", id, rec.Name, err, name)
		}
	}
	// Spot-check that acknowledged agents are searchable by their own word.
	n := 0
	for _, name := range acked {
		if n++; n > 20 {
			break
		}
		word := "w" + strings.TrimPrefix(name, "agent") + "x"
		p, err := client.Search(t.Context(), Query{Text: word})
		if err != nil || len(p.Hits) != 1 || p.Hits[0].Name != name {
			t.Errorf("after restart: Search(%q) = %+v, %v; want %s", word, p.Hits, err, name)
		}
	}
}
