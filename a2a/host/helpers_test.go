package host_test

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"

	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/bundle"
)

// served is a host on httptest.
type served struct {
	*host.Host
	URL string
	Dir string // the bundle directory
}

// serve writes a bundle (agent.yaml plus files) into a temporary directory
// and serves it on an httptest server; both stop at the end of the test.
func serve(t *testing.T, agentYAML string, files map[string]string, opts ...host.Option) *served {
	t.Helper()
	all := map[string]string{bundle.FileName: agentYAML}
	for k, v := range files {
		all[k] = v
	}
	return serveFiles(t, t.TempDir(), all, opts...)
}

func serveFiles(t *testing.T, dir string, files map[string]string, opts ...host.Option) *served {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	b, err := bundle.Load(dir)
	if err != nil {
		t.Fatalf("bundle.Load() error = %v", err)
	}
	srv := httptest.NewUnstartedServer(nil)
	url := "http://" + srv.Listener.Addr().String() + "/"
	opts = append([]host.Option{host.WithEnv(os.Environ()), host.WithHeartbeat(50 * time.Millisecond)}, opts...)
	h, err := host.New(b, url, opts...)
	if err != nil {
		t.Fatalf("host.New() error = %v", err)
	}
	srv.Config.Handler = h
	srv.Start()
	t.Cleanup(func() {
		h.Close()
		srv.Close()
	})
	return &served{Host: h, URL: srv.URL, Dir: dir}
}

// client resolves the card through the well-known path and returns an A2A
// client speaking protocol version ver ("1.0" or "0.3").
func a2aClient(t *testing.T, base, ver string) *a2aclient.Client {
	t.Helper()
	ctx := t.Context()
	card, err := agentcard.DefaultResolver.Resolve(ctx, base)
	if err != nil {
		t.Fatalf("Resolve(%s) error = %v", base, err)
	}
	var c *a2aclient.Client
	switch ver {
	case "1.0":
		c, err = a2aclient.NewFromCard(ctx, card, a2aclient.WithDefaultsDisabled(), a2aclient.WithJSONRPCTransport(nil))
	case "0.3":
		// A 0.3 client reads the card the way 0.3 agents serve it.
		card, err = (&agentcard.Resolver{CardParser: a2av0.NewAgentCardParser()}).Resolve(ctx, base)
		if err != nil {
			t.Fatalf("Resolve(%s) as 0.3 error = %v", base, err)
		}
		c, err = a2aclient.NewFromCard(ctx, card, a2aclient.WithDefaultsDisabled(),
			a2aclient.WithCompatTransport(a2av0.Version, a2a.TransportProtocolJSONRPC, a2av0.NewJSONRPCTransportFactory(a2av0.JSONRPCTransportConfig{})))
	default:
		t.Fatalf("unknown protocol version %q", ver)
	}
	if err != nil {
		t.Fatalf("NewFromCard(%s) error = %v", ver, err)
	}
	t.Cleanup(func() { c.Destroy() })
	return c
}

func textMessage(text string, parts ...*a2a.Part) *a2a.SendMessageRequest {
	return &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, append([]*a2a.Part{a2a.NewTextPart(text)}, parts...)...)}
}

// artifactText concatenates the text parts of a task's artifacts.
func artifactText(task *a2a.Task) string {
	s := ""
	for _, a := range task.Artifacts {
		for _, p := range a.Parts {
			s += p.Text()
		}
	}
	return s
}

func statusText(task *a2a.Task) string {
	if task.Status.Message == nil {
		return ""
	}
	s := ""
	for _, p := range task.Status.Message.Parts {
		s += p.Text()
	}
	return s
}

// send sends req and returns the task it produced.
func send(t *testing.T, c *a2aclient.Client, req *a2a.SendMessageRequest) *a2a.Task {
	t.Helper()
	res, err := c.SendMessage(t.Context(), req)
	if err != nil {
		t.Fatalf("SendMessage() error = %v", err)
	}
	task, ok := res.(*a2a.Task)
	if !ok {
		t.Fatalf("SendMessage() = %T, want *a2a.Task", res)
	}
	return task
}
