package host_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"

	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/bundle"
)

// BenchmarkSoak sends 10,000 small messages to one host (4 clients at a
// time, each task running echo) and reports the process's resident memory
// after a warm-up of 200 tasks, after 5,000 and after 10,000, each after a
// garbage collection that returns free memory to the system: with finished
// tasks forgotten (WithMaxTasks, WithTaskTTL) the last two are the same.
// Run it once:
//
//	go test ./a2a/host -run '^$' -bench Soak -benchtime 1x
func BenchmarkSoak(b *testing.B) {
	const total, clients = 10000, 4
	dir := b.TempDir()
	y := "version: 1\nname: echo\ndescription: Echoes text.\nskills:\n  - id: echo\n    name: Echo\n    description: Echo the text.\n" +
		"    params: {type: object, properties: {text: {type: string}}, required: [text]}\n    run: [echo, \"{{text}}\"]\n"
	if err := os.WriteFile(filepath.Join(dir, bundle.FileName), []byte(y), 0o644); err != nil {
		b.Fatal(err)
	}
	bd, err := bundle.Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/"
	h, err := host.New(bd, url, host.WithEnv(os.Environ()))
	if err != nil {
		b.Fatal(err)
	}
	srv := h.Server(host.DefaultTimeouts)
	go srv.Serve(ln)
	defer func() {
		h.Close()
		srv.Close()
	}()
	ctx := context.Background()
	card, err := agentcard.DefaultResolver.Resolve(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	c, err := a2aclient.NewFromCard(ctx, card, a2aclient.WithDefaultsDisabled(), a2aclient.WithJSONRPCTransport(nil))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Destroy()
	sendN := func(n int) {
		var wg sync.WaitGroup
		for w := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w; i < n; i += clients {
					res, err := c.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(fmt.Sprintf("hello %d", i)))})
					if task, ok := res.(*a2a.Task); err != nil || !ok || task.Status.State != a2a.TaskStateCompleted {
						b.Errorf("SendMessage() = %v, %v", res, err)
						return
					}
				}
			}()
		}
		wg.Wait()
	}
	for b.Loop() {
		sendN(200)
		before := settledRSS(b)
		sendN(total/2 - 200)
		half := settledRSS(b)
		sendN(total / 2)
		after := settledRSS(b)
		b.ReportMetric(before, "MiB-rss-warm")
		b.ReportMetric(half, "MiB-rss-5000")
		b.ReportMetric(after, "MiB-rss-10000")
	}
}

// settledRSS collects garbage, returns free memory to the system and
// reads the process's resident set (VmRSS) in MiB.
func settledRSS(b *testing.B) float64 {
	runtime.GC()
	debug.FreeOSMemory()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status")
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	b.Skip("no VmRSS")
	return 0
}
