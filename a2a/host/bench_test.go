package host_test

import (
	"context"
	"iter"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/proc"
)

// BenchmarkRoundTrip sends one message at a time and waits for its
// answer, over JSON-RPC on loopback, through a2a-go/v2's client. Its
// sub-benchmarks are:
//
//   - bare-message: a bare a2a-go/v2 server whose executor answers with a
//     message echoing the text, no task at all (a2a-go's cheapest path);
//   - bare-echo: a bare a2a-go/v2 server whose executor echoes the text
//     (submitted, working, artifact, completed) with no process;
//   - host: the host serving a bundle whose one skill runs echo;
//   - process-start: the skill's own process alone (exec of echo with its
//     output captured), outside any server;
//   - process-contained: the same in a proc.Group of its own, as the host
//     runs every skill (a cgroup made and removed per run where it can).
//
// Each reports its median (p50-µs) beside the mean. The host's overhead is
// host − bare-echo − process-start, and against a2a-go's message-only path
// host − bare-message − process-start. Run it with:
//
//	go test ./a2a/host -run '^$' -bench RoundTrip -benchtime 200x -count 5
func BenchmarkRoundTrip(b *testing.B) {
	echoPath, err := exec.LookPath("echo")
	if err != nil {
		b.Skip("no echo program")
	}
	b.Run("bare-message", func(b *testing.B) { benchSend(b, bareServer(b, benchMessage{})) })
	b.Run("bare-echo", func(b *testing.B) { benchSend(b, bareServer(b, benchEcho{})) })
	b.Run("host", func(b *testing.B) { benchSend(b, echoHost(b)) })
	b.Run("process-start", func(b *testing.B) {
		var p50 p50Timer
		for b.Loop() {
			p50.start()
			out, err := exec.Command(echoPath, "hello").Output()
			p50.stop()
			if err != nil || string(out) != "hello\n" {
				b.Fatalf("echo = %q, %v", out, err)
			}
		}
		p50.report(b)
	})
	b.Run("process-contained", func(b *testing.B) { benchContained(b, echoPath) })
}

// echoHost serves, as serve does (every check, the default timeouts), a
// bundle whose one skill runs echo, until the benchmark ends, and returns
// its URL.
func echoHost(b *testing.B) string {
	url, _ := echoHostSettled(b)
	return url
}

// echoHostSettled is echoHost, also returning a function that waits until
// the host's work left for after its tasks (removing their work
// directories) is done.
func echoHostSettled(b *testing.B) (string, func()) {
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
	b.Cleanup(func() {
		h.Close()
		srv.Close()
	})
	return url, func() { host.WorkIdle(h) }
}

// benchContained is process-start as the host runs a skill: in a
// proc.Group of its own (a cgroup where one can be made), killed after.
func benchContained(b *testing.B, echoPath string) {
	var p50 p50Timer
	for b.Loop() {
		p50.start()
		benchContainedOnce(b, echoPath)
		p50.stop()
	}
	p50.report(b)
}

// benchContainedOnce runs echo hello in a proc.Group and checks its output.
func benchContainedOnce(b *testing.B, echoPath string) {
	cmd := exec.Command(echoPath, "hello")
	var out strings.Builder
	cmd.Stdout = &out
	g := proc.NewGroup()
	if err := g.Start(cmd); err != nil {
		b.Fatal(err)
	}
	err := cmd.Wait()
	g.Kill()
	if err != nil || out.String() != "hello\n" {
		b.Fatalf("echo = %q, %v", out.String(), err)
	}
}

// bareServer serves a bare a2a-go/v2 server with executor ex on loopback
// until the benchmark ends, and returns its URL.
func bareServer(b *testing.B, ex a2asrv.AgentExecutor) string {
	srv := httptest.NewUnstartedServer(nil)
	url := "http://" + srv.Listener.Addr().String() + "/"
	card := &a2a.AgentCard{
		Name: "echo", Description: "Echoes text.", Version: "1.0.0", Capabilities: a2a.AgentCapabilities{Streaming: true},
		SupportedInterfaces: []*a2a.AgentInterface{{URL: url, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2a.Version}},
		DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []a2a.AgentSkill{{ID: "echo", Name: "Echo", Description: "Echo the text.", Tags: []string{"text"}}},
	}
	handler := a2asrv.NewHandler(ex, a2asrv.WithLogger(slog.New(slog.DiscardHandler)))
	mux := http.NewServeMux()
	mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(card))
	mux.Handle("/", a2asrv.NewJSONRPCHandler(handler))
	srv.Config.Handler = mux
	srv.Start()
	b.Cleanup(srv.Close)
	return url
}

// p50Timer collects the time of each round trip and reports the median,
// and the CPU time the process and its finished children spent per round
// trip (cpu-µs), which a loaded machine's waits do not inflate.
type p50Timer struct {
	t0    time.Time
	cpu0  time.Duration
	times []time.Duration
}

func (p *p50Timer) start() {
	if p.times == nil {
		p.cpu0 = cpuTime()
	}
	p.t0 = time.Now()
}

func (p *p50Timer) stop() { p.times = append(p.times, time.Since(p.t0)) }

func (p *p50Timer) report(b *testing.B) {
	if len(p.times) == 0 {
		return
	}
	b.ReportMetric(float64((cpuTime()-p.cpu0).Microseconds())/float64(len(p.times)), "cpu-µs")
	slices.Sort(p.times)
	b.ReportMetric(float64(p.times[len(p.times)/2].Microseconds()), "p50-µs")
}

// cpuTime is the user and system time of this process and of its children
// that have been waited for.
func cpuTime() time.Duration {
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
}

// benchSend resolves the card at url and sends b.N messages, one at a time.
func benchSend(b *testing.B, url string) {
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
	var p50 p50Timer
	for b.Loop() {
		p50.start()
		res, err := c.SendMessage(ctx, &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("hello"))})
		p50.stop()
		if err != nil {
			b.Fatal(err)
		}
		if m, ok := res.(*a2a.Message); ok && strings.Contains(m.Parts[0].Text(), "hello") {
			continue
		}
		task, ok := res.(*a2a.Task)
		if !ok || task.Status.State != a2a.TaskStateCompleted || len(task.Artifacts) == 0 ||
			!strings.Contains(task.Artifacts[0].Parts[0].Text(), "hello") {
			b.Fatalf("SendMessage() = %#v, want a completed task (or a message) echoing hello", res)
		}
	}
	p50.report(b)
}

// benchMessage is the message-only server's executor: it answers each
// message with a message holding its text.
type benchMessage struct{}

func (benchMessage) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		var text []string
		for _, p := range ec.Message.Parts {
			text = append(text, p.Text())
		}
		yield(a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart(strings.Join(text, "\n"))), nil)
	}
}

func (benchMessage) Cancel(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {}
}

// benchEcho is the bare server's executor: it answers each message with a
// completed task whose artifact is the message's text.
type benchEcho struct{}

func (benchEcho) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		if ec.StoredTask == nil && !yield(a2a.NewSubmittedTask(ec, ec.Message), nil) {
			return
		}
		var text []string
		for _, p := range ec.Message.Parts {
			text = append(text, p.Text())
		}
		if !yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, nil), nil) {
			return
		}
		if !yield(a2a.NewArtifactEvent(ec, a2a.NewTextPart(strings.Join(text, "\n"))), nil) {
			return
		}
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
	}
}

func (benchEcho) Cancel(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}
