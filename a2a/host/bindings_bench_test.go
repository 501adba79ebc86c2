package host_test

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	a2agrpc "github.com/a2aproject/a2a-go/v2/a2agrpc/v1"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"google.golang.org/grpc"

	"github.com/agentnet/agentnet/a2a/binding"
	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/bundle"
)

// BenchmarkBindings sends one message at a time and waits for its finished
// task over each A2A binding, on loopback, through a2a-go/v2's clients:
//
//   - bare/BINDING: a bare a2a-go/v2 server per binding, served the way
//     a2a-go's examples serve it (JSON-RPC and HTTP+JSON handlers on
//     net/http, gRPC on grpc-go's own HTTP/2 server on a port of its
//     own), whose executor echoes the text with no process;
//   - host/BINDING: the host serving a bundle whose one skill runs echo,
//     all three bindings on its one port (gRPC as cleartext HTTP/2 through
//     net/http), every check on.
//
// host − bare is the host's cost per binding (a process start included).
// The sub-benchmark interleaved sends one message to each of the six in
// turn (and starts the skill's process alone once), b.N rounds, and
// reports the median of each (µs), so that a load that drifts during the
// run weighs on all alike. Run it with:
//
//	go test ./a2a/host -run '^$' -bench Bindings -benchtime 200x -count 3
func BenchmarkBindings(b *testing.B) {
	for _, bd := range binding.All {
		b.Run("bare/"+string(bd), func(b *testing.B) {
			url := bareBindingServer(b, bd)
			benchBinding(b, bareCard(url, bd), bd)
		})
	}
	dir := b.TempDir()
	y := "version: 1\nname: echo\ndescription: Echoes text.\nskills:\n  - id: echo\n    name: Echo\n    description: Echo the text.\n" +
		"    params: {type: object, properties: {text: {type: string}}, required: [text]}\n    run: [echo, \"{{text}}\"]\n"
	if err := os.WriteFile(filepath.Join(dir, bundle.FileName), []byte(y), 0o644); err != nil {
		b.Fatal(err)
	}
	bdl, err := bundle.Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	h, err := host.New(bdl, "http://"+ln.Addr().String()+"/", host.WithEnv(os.Environ()))
	if err != nil {
		b.Fatal(err)
	}
	srv := h.Server(host.DefaultTimeouts)
	go srv.Serve(ln)
	defer func() {
		h.Close()
		srv.Close()
	}()
	for _, bd := range binding.All {
		b.Run("host/"+string(bd), func(b *testing.B) { benchBinding(b, h.Card(), bd) })
	}
	b.Run("interleaved", func(b *testing.B) {
		type target struct {
			name string
			send func()
			took []time.Duration
		}
		var ts []*target
		for _, side := range []string{"bare", "host"} {
			for _, bd := range binding.All {
				card := h.Card()
				if side == "bare" {
					card = bareCard(bareBindingServer(b, bd), bd)
				}
				ts = append(ts, &target{name: side + "-" + string(bd), send: sender(b, card, bd)})
			}
		}
		// The skill's own process alone, for reading host − bare.
		ts = append(ts, &target{name: "process-start", send: func() {
			if out, err := exec.Command("echo", "hello").Output(); err != nil || string(out) != "hello\n" {
				b.Fatalf("echo = %q, %v", out, err)
			}
		}})
		for range 10 { // warm up connections
			for _, t := range ts {
				t.send()
			}
		}
		for b.Loop() {
			for _, t := range ts {
				t0 := time.Now()
				t.send()
				t.took = append(t.took, time.Since(t0))
			}
		}
		for _, t := range ts {
			slices.Sort(t.took)
			b.ReportMetric(float64(t.took[len(t.took)/2].Microseconds()), t.name+"-p50-µs")
		}
	})
}

// bareBindingServer serves benchEcho over binding bd alone and returns its URL
// (a gRPC target, "127.0.0.1:port", for gRPC, as a2a-go's examples write
// it).
func bareBindingServer(b *testing.B, bd binding.Binding) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	handler := a2asrv.NewHandler(benchEcho{}, a2asrv.WithLogger(slog.New(slog.DiscardHandler)))
	if bd == binding.GRPC {
		s := grpc.NewServer()
		a2agrpc.NewHandler(handler).RegisterWith(s)
		go s.Serve(ln)
		b.Cleanup(s.Stop)
		return ln.Addr().String()
	}
	var hh http.Handler = a2asrv.NewJSONRPCHandler(handler)
	if bd == binding.REST {
		hh = a2asrv.NewRESTHandler(handler)
	}
	s := &http.Server{Handler: hh}
	go s.Serve(ln)
	b.Cleanup(func() { s.Close() })
	return "http://" + ln.Addr().String() + "/"
}

func bareCard(url string, bd binding.Binding) *a2a.AgentCard {
	return &a2a.AgentCard{
		Name: "echo", Description: "Echoes text.", Version: "1.0.0",
		SupportedInterfaces: []*a2a.AgentInterface{{URL: url, ProtocolBinding: bd.Protocol(), ProtocolVersion: a2a.Version}},
		DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []a2a.AgentSkill{{ID: "echo", Name: "Echo", Description: "Echo the text.", Tags: []string{"text"}}},
	}
}

// benchBinding sends b.N messages over binding bd, one at a time.
func benchBinding(b *testing.B, card *a2a.AgentCard, bd binding.Binding) {
	send := sender(b, card, bd)
	for b.Loop() {
		send()
	}
}

// sender returns a function that sends one message over binding bd and
// checks its answer; its client lives until the benchmark ends.
func sender(b *testing.B, card *a2a.AgentCard, bd binding.Binding) func() {
	ctx := context.Background()
	conns := &binding.Conns{}
	b.Cleanup(func() { conns.Close() })
	c, err := a2aclient.NewFromCard(ctx, card, binding.ClientOptions(bd, nil, conns)...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Destroy() })
	return func() {
		res, err := c.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("hello"))})
		if err != nil {
			b.Fatal(err)
		}
		task, ok := res.(*a2a.Task)
		if !ok || task.Status.State != a2a.TaskStateCompleted || len(task.Artifacts) == 0 ||
			!strings.Contains(task.Artifacts[0].Parts[0].Text(), "hello") {
			b.Fatalf("SendMessage() over %s = %#v, want a completed task echoing hello", bd, res)
		}
	}
}
