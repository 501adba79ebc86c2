package orchestrator_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/cards"
	"github.com/agentnet/agentnet/internal/proc"
	"github.com/agentnet/agentnet/orchestrator"
	"github.com/agentnet/agentnet/registry"
)

// childHostEnv, when set, makes the test binary serve the bundle directory
// it names as an A2A agent and print its URL: the agent as a child process.
const childHostEnv = "AGENTNET_ORCHESTRATOR_TEST_HOST"

// childFetchEnv, with childHostEnv, lists the origins the child's host
// fetches files from (space-separated), and lifts its file limit to 1 GiB.
const childFetchEnv = "AGENTNET_ORCHESTRATOR_TEST_FETCH"

func TestMain(m *testing.M) {
	if dir := os.Getenv(childHostEnv); dir != "" {
		os.Exit(serveChild(dir))
	}
	// Skills run in proc.Groups, whose containment starts one watcher
	// process (and a goroutine waiting for it) for the life of the test
	// binary: start it before any test takes its baseline.
	proc.Containment()
	os.Exit(m.Run())
}

func serveChild(dir string) int {
	b, err := bundle.Load(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	url := "http://" + ln.Addr().String() + "/"
	opts := []host.Option{host.WithEnv(os.Environ()), host.WithHeartbeat(50 * time.Millisecond)}
	if from := os.Getenv(childFetchEnv); from != "" {
		opts = append(opts, host.WithFetchFrom(strings.Fields(from)...), host.WithMaxFileBytes(1<<30))
	}
	h, err := host.New(b, url, opts...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer h.Close()
	fmt.Println(url)
	http.Serve(ln, h)
	return 0
}

// Test bundles: small tools in sh and awk, shaped like the demo suite's
// chain steps (a backtest writes equity.csv, a plotter charts it, a
// counter reports on the result).
const (
	backtestYAML = `version: 1
name: backtest
description: Backtest trading strategies on daily price series.
skills:
  - id: sma-crossover
    name: Moving-average crossover backtest
    description: Backtest a moving-average crossover strategy on daily closing prices from a CSV file and write the equity curve to a CSV file.
    tags: [finance, backtest, trading]
    examples: [Backtest a 5/20-day moving-average crossover on these prices]
    params: {type: object, properties: {prices: {type: string, format: path}}, required: [prices]}
    run: [sh, "{{repo}}/bt.sh", "{{prices}}"]
`
	// bt.sh: equity grows with each day's close relative to the first.
	backtestSh = `awk -F, 'NR==1{next} {n++; if(n==1) first=$2; eq=10000*$2/first; printf "%d,%.2f\n", n, eq > "equity.tmp"; last=eq} END{printf "final equity: %.2f over %d days\n", last, n}' "$1"
{ echo "day,equity"; cat equity.tmp; } > equity.csv
rm equity.tmp
`
	plotterYAML = `version: 1
name: imgtool
description: Draw charts and inspect images.
skills:
  - id: plot
    name: Line chart
    description: Draw a line chart of the last column of a CSV file as an SVG image.
    tags: [chart, plot, image, svg]
    examples: [Draw a line chart of the equity column as an image]
    params: {type: object, properties: {data: {type: string, format: path}}, required: [data]}
    run: [sh, "{{repo}}/plot.sh", "{{data}}"]
`
	plotterSh = `awk -F, 'NR==1{next} {n++; v=$NF; if(n==1||v>mx) mx=v; pts=pts sprintf("%d,%s ", n, v)} END{printf "<svg xmlns=\"http://www.w3.org/2000/svg\"><polyline points=\"%s\"/></svg>\n", pts > "chart.svg"; printf "chart.svg: %d points, max %s\n", n, mx}' "$1"
`
	counterYAML = `version: 1
name: textstats
description: Word and line counts for plain-text files.
skills:
  - id: count
    name: Count lines and words
    description: Count the lines and words of a plain-text document.
    tags: [text, count, statistics]
    examples: ["How many lines and words does this text have?"]
    params: {type: object, properties: {doc: {type: string, format: path}}, required: [doc]}
    run: [sh, "{{repo}}/count.sh", "{{doc}}"]
`
	counterSh = `printf 'lines: %s\nwords: %s\n' "$(wc -l < "$1" | tr -d ' ')" "$(wc -w < "$1" | tr -d ' ')"
`
	prices = "date,close\n2024-01-01,100\n2024-01-02,102\n2024-01-03,101\n2024-01-04,105\n2024-01-05,110\n"
)

// writeBundle writes a bundle into a temporary directory.
func writeBundle(t testing.TB, agentYAML string, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	all := map[string]string{bundle.FileName: agentYAML}
	for k, v := range files {
		all[k] = v
	}
	for name, text := range all {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// agent is a running agent.
type agent struct {
	URL  string
	Card *a2a.AgentCard
	stop func()
}

// serveBundle hosts a bundle in-process on httptest, with the host's own
// server (all three bindings on one port), until the test ends.
func serveBundle(t testing.TB, dir string) *agent {
	t.Helper()
	return serveBundleWith(t, dir)
}

// serveBundleWith is serveBundle with host options.
func serveBundleWith(t testing.TB, dir string, opts ...host.Option) *agent {
	t.Helper()
	b, err := bundle.Load(dir)
	if err != nil {
		t.Fatalf("bundle.Load() error = %v", err)
	}
	srv := httptest.NewUnstartedServer(nil)
	url := "http://" + srv.Listener.Addr().String() + "/"
	h, err := host.New(b, url, append([]host.Option{host.WithEnv(os.Environ()), host.WithHeartbeat(50 * time.Millisecond)}, opts...)...)
	if err != nil {
		t.Fatalf("host.New() error = %v", err)
	}
	srv.Config = h.Server(host.DefaultTimeouts) // HTTP/1.1 and h2c, as agentnet serve
	srv.Start()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			srv.CloseClientConnections()
			srv.Close()
			h.Close()
		})
	}
	t.Cleanup(stop)
	return &agent{URL: srv.URL, Card: h.Card(), stop: stop}
}

// childAgent hosts a bundle in a child process (this test binary); kill
// stops it with SIGKILL.
type childAgent struct {
	URL  string
	cmd  *exec.Cmd
	once sync.Once
}

func startChild(t testing.TB, dir string, env ...string) *childAgent {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(append(os.Environ(), childHostEnv+"="+dir), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &childAgent{cmd: cmd}
	t.Cleanup(c.kill)
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("child host: %v", err)
	}
	c.URL = strings.TrimSuffix(strings.TrimSpace(line), "/")
	return c
}

// kill kills the child and reaps it.
func (c *childAgent) kill() {
	c.once.Do(func() {
		c.cmd.Process.Signal(syscall.SIGKILL)
		c.cmd.Wait()
	})
}

// testRegistry is a real registry (in-memory store) on httptest.
type testRegistry struct {
	URL    string
	svc    *registry.Service
	client *registry.Client
	srv    *httptest.Server
	hc     *http.Client
}

func startRegistry(t testing.TB) *testRegistry {
	t.Helper()
	store, err := registry.OpenSQLite(context.Background(), ":memory:")
	if err != nil {
		t.Fatalf("OpenSQLite() error = %v", err)
	}
	svc := registry.NewService(store, registry.CardsValidator)
	srv := httptest.NewServer(registry.NewHandler(svc))
	hc := &http.Client{Transport: &http.Transport{}, Timeout: 10 * time.Second}
	r := &testRegistry{URL: srv.URL, svc: svc, srv: srv, hc: hc, client: registry.NewClient(srv.URL, registry.WithHTTPClient(hc))}
	t.Cleanup(func() {
		srv.Close()
		hc.CloseIdleConnections()
		store.Close()
	})
	return r
}

func (r *testRegistry) register(t testing.TB, urls ...string) {
	t.Helper()
	for _, u := range urls {
		if _, _, err := r.client.Register(context.Background(), u); err != nil {
			t.Fatalf("Register(%s) error = %v", u, err)
		}
	}
}

// directory adapts a registry client to orchestrator.Directory, the way
// the CLI does.
type directory struct{ c *registry.Client }

func (d directory) Agents(ctx context.Context) ([]orchestrator.Candidate, error) {
	var out []orchestrator.Candidate
	q := registry.Query{Limit: registry.MaxLimit}
	for {
		page, err := d.c.List(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, h := range page.Hits {
			card, err := cards.Parse(h.Card)
			if err != nil {
				continue
			}
			out = append(out, orchestrator.Candidate{ID: h.ID, URL: h.URL, Card: card, Status: string(h.Health.Status)})
		}
		if page.NextCursor == "" {
			return out, nil
		}
		q.Cursor = page.NextCursor
	}
}

// staticDir is a fixed directory.
type staticDir []orchestrator.Candidate

func (d staticDir) Agents(context.Context) ([]orchestrator.Candidate, error) { return d, nil }

// candidate makes a candidate of a card.
func candidate(id, url string, card *a2a.AgentCard) orchestrator.Candidate {
	return orchestrator.Candidate{ID: id, URL: url, Card: card, Status: "up"}
}

// checkNoLeaks fails the test if goroutines or child processes started
// since baseline are still there once everything was closed.
func checkNoLeaks(t *testing.T, baseline int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if tr, ok := http.DefaultTransport.(*http.Transport); ok {
			tr.CloseIdleConnections()
		}
		n := runtime.NumGoroutine()
		kids := children()
		if n <= baseline && len(kids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("leak: %d goroutines (baseline %d), child processes %v\n%s", n, baseline, kids, buf)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// children lists the pids of this process's children (zombies included).
func children() []int {
	if runtime.GOOS != "linux" {
		return nil
	}
	self := os.Getpid()
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...; comm may hold spaces.
		s := string(data)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 1 {
			if ppid, _ := strconv.Atoi(f[1]); ppid == self && !isWatcher(pid) {
				out = append(out, pid)
			}
		}
	}
	return out
}

func stepSummary(res *orchestrator.Result) string {
	var b strings.Builder
	for _, st := range res.Steps {
		name := "-"
		if st.Observed != nil {
			name = st.Observed.Name
		}
		fmt.Fprintf(&b, "[%d %s→%s %s %s] ", st.Step, st.Expected, name, st.Outcome, st.Detail)
	}
	return b.String()
}

// isWatcher reports whether pid is proc's containment watcher, which lives
// as long as the test binary.
func isWatcher(pid int) bool {
	cmdline, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	return bytes.Contains(cmdline, []byte("agentnet-watcher"))
}
