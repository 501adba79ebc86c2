package generation_test

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"

	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/tasks"
)

// TestGeneratedBundleRunsDemoTask generates the bundle of a demo repo,
// serves it through the host over real HTTP, resolves its card from the
// well-known path and sends a demo single task as an A2A client would —
// instruction and attached files, no skill named — and judges the answer
// with the task's own checks.
func TestGeneratedBundleRunsDemoTask(t *testing.T) {
	s, err := tasks.Load(demoSuite)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"textstats-top-words", "fuzzymatch-name-distance", "georoute-ride-summary", "georoute-summit-decimal", "ibankit-check-iban", "ibankit-print-form"} {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			var c *tasks.Case
			for i := range s.Cases {
				if s.Cases[i].ID == id {
					c = &s.Cases[i]
				}
			}
			if c == nil {
				t.Fatalf("task %s not in the demo suite", id)
			}
			var repo tasks.Repo
			for _, r := range s.Repos {
				if r.ID == c.Repo {
					repo = r
				}
			}
			_, b := generateDemo(t, repo)
			srv := httptest.NewUnstartedServer(nil)
			url := "http://" + srv.Listener.Addr().String() + "/"
			h, err := host.New(b, url, host.WithEnv(os.Environ()))
			if err != nil {
				t.Fatalf("host.New: %v", err)
			}
			srv.Config.Handler = h
			srv.Start()
			t.Cleanup(func() { h.Close(); srv.Close() })

			card, err := agentcard.DefaultResolver.Resolve(t.Context(), srv.URL)
			if err != nil {
				t.Fatalf("Resolve(%s): %v", srv.URL, err)
			}
			client, err := a2aclient.NewFromCard(t.Context(), card, a2aclient.WithDefaultsDisabled(), a2aclient.WithJSONRPCTransport(nil))
			if err != nil {
				t.Fatal(err)
			}
			defer client.Destroy()
			parts := []*a2a.Part{a2a.NewTextPart(c.Instruction)}
			if c.Input != nil {
				if len(c.Input.Data) > 0 {
					parts = append(parts, a2a.NewDataPart(c.Input.Data))
				}
				for _, f := range c.Input.Files {
					data, err := os.ReadFile(filepath.Join(filepath.Dir(demoSuite), f))
					if err != nil {
						t.Fatal(err)
					}
					p := a2a.NewRawPart(data)
					p.Filename, p.MediaType = filepath.Base(f), "text/plain"
					parts = append(parts, p)
				}
			}
			res, err := client.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, parts...)})
			if err != nil {
				t.Fatalf("SendMessage: %v", err)
			}
			task, ok := res.(*a2a.Task)
			if !ok {
				t.Fatalf("SendMessage() = %T, want *a2a.Task", res)
			}
			var out strings.Builder
			for _, a := range task.Artifacts {
				for _, p := range a.Parts {
					out.WriteString(p.Text())
				}
			}
			if task.Status.State != a2a.TaskStateCompleted {
				msg := ""
				if task.Status.Message != nil {
					for _, p := range task.Status.Message.Parts {
						msg += p.Text()
					}
				}
				t.Fatalf("task state %s: %s", task.Status.State, msg)
			}
			ok, results := tasks.Eval(c.Expect, tasks.Output{Text: out.String()})
			if !ok {
				t.Errorf("task %s output fails its checks %v:\n%s", id, results, out.String())
			}
		})
	}
}
