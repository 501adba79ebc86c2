package orchestrator_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/cards"
	"github.com/agentnet/agentnet/orchestrator"
)

// Bundles of the file benchmark: a skill that writes a file of n zero
// bytes, and one that hashes the file it is given, both with tools whose
// own cost the plain-HTTP baseline pays too.
const (
	zerosYAML = `version: 1
name: zeros
description: Write files of zero bytes.
skills:
  - id: zeros
    name: zeros
    description: Write a file of n zero bytes.
    params: {type: object, properties: {bytes: {type: integer, minimum: 1}}, required: [bytes]}
    run: [sh, -c, 'head -c "$0" /dev/zero > out.bin', "{{bytes}}"]
    timeout: 5m
`
	sumYAML = `version: 1
name: sum
description: Hash files.
skills:
  - id: sum
    name: sum
    description: Print the SHA-256 of a file.
    params: {type: object, properties: {file: {type: string, format: path}}, required: [file]}
    run: [sha256sum, "{{file}}"]
    timeout: 5m
`
)

// BenchmarkFiles moves files of 1, 10 and 100 MiB through chains of agents
// (each a host in a process of its own, as `agentnet serve` runs) and, as
// the baseline, through plain net/http on loopback doing the same work:
//
//   - 1-step: a skill writes the file (head -c N /dev/zero); the client
//     gets it. Chain: one step to the zeros agent, which answers with the
//     file by reference; the client GETs the URL and hashes the bytes.
//     Baseline: an HTTP handler runs the same command and serves the file
//     (http.ServeFile); the client GETs and hashes it.
//   - 2-step: the file is written by one agent and hashed by another.
//     Chain: zeros, then sum (sha256sum), which fetches the file by its
//     URL. Baseline: the client GETs the file from the handler into a file
//     and runs sha256sum on it.
//
// It reports peakRSS-MiB: the highest VmHWM of the agents' processes (0
// for the baseline). Run it with:
//
//	go test ./orchestrator -run '^$' -bench Files -benchtime 5x -timeout 30m
func BenchmarkFiles(b *testing.B) {
	for _, steps := range []int{1, 2} {
		for _, mib := range []int{1, 10, 100} {
			name := fmt.Sprintf("%d-step/%dMiB", steps, mib)
			b.Run(name+"/agentnet", func(b *testing.B) { benchChain(b, steps, mib<<20) })
			b.Run(name+"/plain-http", func(b *testing.B) { benchPlain(b, steps, mib<<20) })
		}
	}
}

// zeroSum is what sha256sum prints for n zero bytes, without the name.
func zeroSum(n int) string {
	h := sha256.New()
	io.CopyN(h, zeroReader{}, int64(n))
	return fmt.Sprintf("%x", h.Sum(nil))
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func benchChain(b *testing.B, steps, size int) {
	zeros := startChild(b, writeBundle(b, zerosYAML, nil))
	agents := []*childAgent{zeros}
	dir := staticDir{candidate("zeros", zeros.URL+"/", cardOf(b, zeros.URL))}
	route := byStep{"zeros"}
	chain := orchestrator.Chain{ID: "files", Input: orchestrator.Input{Data: map[string]any{"bytes": size}},
		Steps: []orchestrator.Step{{Repo: "zeros", Instruction: "Write the file."}}}
	if steps == 2 {
		sum := startChild(b, writeBundle(b, sumYAML, nil), childFetchEnv+"="+zeros.URL)
		agents = append(agents, sum)
		dir = append(dir, candidate("sum", sum.URL+"/", cardOf(b, sum.URL)))
		route = append(route, "sum")
		chain.Steps = append(chain.Steps, orchestrator.Step{Repo: "sum", Instruction: "Hash the file."})
	}
	r := orchestrator.New(dir, route, orchestrator.WithOutputFetchMax(0))
	defer r.Close()
	want := zeroSum(size)
	ctx := context.Background()
	for b.Loop() {
		res, err := r.Run(ctx, chain, nil)
		if err != nil || res.Outcome != orchestrator.OK {
			b.Fatalf("chain: %v %s %s", err, res.Outcome, res.Detail)
		}
		var got string
		if steps == 1 {
			if len(res.Output.Files) != 1 || res.Output.Files[0].URL == "" {
				b.Fatalf("output files %+v, want one by reference", res.Output.Files)
			}
			got = getSum(b, res.Output.Files[0].URL)
		} else {
			got, _, _ = strings.Cut(res.Output.Text, " ")
		}
		if got != want {
			b.Fatalf("the file arrived with SHA-256 %s, want %s", got, want)
		}
	}
	b.StopTimer()
	var peak float64
	for _, a := range agents {
		peak = max(peak, peakRSS(b, a.cmd.Process.Pid))
	}
	b.ReportMetric(peak, "peakRSS-MiB")
	b.SetBytes(int64(size))
}

func benchPlain(b *testing.B, steps, size int) {
	dir := b.TempDir()
	var mu sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		f := filepath.Join(dir, fmt.Sprintf("out-%d.bin", n))
		mu.Unlock()
		if err := exec.Command("sh", "-c", `head -c "$0" /dev/zero > "$1"`, strconv.Itoa(size), f).Run(); err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		defer os.Remove(f)
		http.ServeFile(w, r, f)
	}))
	defer srv.Close()
	want := zeroSum(size)
	for b.Loop() {
		var got string
		if steps == 1 {
			got = getSum(b, srv.URL+"/f")
		} else {
			got = getAndSum(b, srv.URL+"/f", filepath.Join(dir, "in.bin"))
		}
		if got != want {
			b.Fatalf("the file arrived with SHA-256 %s, want %s", got, want)
		}
	}
	b.ReportMetric(0, "peakRSS-MiB")
	b.SetBytes(int64(size))
}

// getSum GETs url and returns the SHA-256 of its body.
func getSum(b *testing.B, url string) string {
	resp, err := http.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	h := sha256.New()
	if _, err := io.Copy(h, resp.Body); err != nil || resp.StatusCode != 200 {
		b.Fatalf("GET %s: %d, %v", url, resp.StatusCode, err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// getAndSum GETs url into the file at p and runs sha256sum on it.
func getAndSum(b *testing.B, url, p string) string {
	resp, err := http.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		b.Fatal(err)
	}
	f.Close()
	defer os.Remove(p)
	out, err := exec.Command("sha256sum", p).Output()
	if err != nil {
		b.Fatal(err)
	}
	s, _, _ := strings.Cut(string(out), " ")
	return s
}

// peakRSS returns a process's peak resident set (VmHWM) in MiB.
func peakRSS(b *testing.B, pid int) float64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if kb, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			v, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 64)
			return v / 1024
		}
	}
	return 0
}

// cardOf fetches an agent's card.
func cardOf(b *testing.B, base string) *a2a.AgentCard {
	resp, err := http.Get(base + host.CardPath)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	card, err := cards.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	return card
}
