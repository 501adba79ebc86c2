package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	a2apb "github.com/a2aproject/a2a-go/v2/a2apb/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentnet/agentnet/a2a/binding"
	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/bundle"
)

// serveOnPort serves a bundle with the host's own Server (HTTP/1.1 and
// cleartext HTTP/2 on one loopback port), as `agentnet serve` does.
func serveOnPort(t *testing.T, agentYAML string, files map[string]string, opts ...host.Option) *served {
	t.Helper()
	dir := t.TempDir()
	files[bundle.FileName] = agentYAML
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	b, err := bundle.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/"
	h, err := host.New(b, url, append([]host.Option{host.WithEnv(os.Environ())}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	srv := h.Server(host.DefaultTimeouts)
	go srv.Serve(ln)
	t.Cleanup(func() {
		srv.Close()
		h.Close()
	})
	return &served{Host: h, URL: strings.TrimSuffix(url, "/"), Dir: dir}
}

// bindingClient resolves the card and returns a2a-go's client of binding b.
func bindingClient(t *testing.T, base string, b binding.Binding) *a2aclient.Client {
	t.Helper()
	card, err := agentcard.DefaultResolver.Resolve(t.Context(), base)
	if err != nil {
		t.Fatal(err)
	}
	c, err := a2aclient.NewFromCard(t.Context(), card, binding.ClientOptions(b, nil, nil)...)
	if err != nil {
		t.Fatalf("NewFromCard(%s) error = %v", b, err)
	}
	t.Cleanup(func() { c.Destroy() })
	return c
}

// TestBindings: one port answers a2a-go's JSON-RPC, HTTP+JSON and gRPC
// clients alike — send, stream, get, cancel and an unknown task's error —
// and the card lists all of them.
func TestBindings(t *testing.T) {
	t.Parallel()
	s := serveOnPort(t, textkit, map[string]string{"upper.py": upperPy})
	var got []string
	for _, ai := range s.Card().SupportedInterfaces {
		got = append(got, string(ai.ProtocolBinding)+" "+string(ai.ProtocolVersion)+" "+ai.URL)
	}
	u := s.URL + "/"
	if want := "JSONRPC 1.0 " + u + ", JSONRPC 0.3 " + u + ", HTTP+JSON 1.0 " + u + ", GRPC 1.0 " + u; strings.Join(got, ", ") != want {
		t.Errorf("card interfaces = %s, want %s", strings.Join(got, ", "), want)
	}
	for _, b := range binding.All {
		t.Run(string(b), func(t *testing.T) {
			t.Parallel()
			c := bindingClient(t, s.URL, b)
			task := send(t, c, textMessage("shout hello "+string(b)))
			if got, want := artifactText(task), "SHOUT HELLO "+strings.ToUpper(string(b))+"\n"; task.Status.State != a2a.TaskStateCompleted || got != want {
				t.Fatalf("%s: task %s output %q (%s), want completed %q", b, task.Status.State, got, statusText(task), want)
			}
			var last a2a.TaskState
			events := 0
			for ev, err := range c.SendStreamingMessage(t.Context(), textMessage("shout streamed")) {
				if err != nil {
					t.Fatalf("%s: stream error = %v", b, err)
				}
				events++
				if u, ok := ev.(*a2a.TaskStatusUpdateEvent); ok {
					last = u.Status.State
				}
			}
			if events < 2 || last != a2a.TaskStateCompleted {
				t.Errorf("%s: stream had %d events ending %s, want several ending completed", b, events, last)
			}
			again, err := c.GetTask(t.Context(), &a2a.GetTaskRequest{ID: task.ID})
			if err != nil || again.ID != task.ID || again.Status.State != a2a.TaskStateCompleted {
				t.Errorf("%s: GetTask = %v, %v; want the completed task", b, again, err)
			}
			_, err = c.GetTask(t.Context(), &a2a.GetTaskRequest{ID: "no-such-task"})
			if !errors.Is(err, a2a.ErrTaskNotFound) {
				t.Errorf("%s: GetTask(unknown) error = %v, want TaskNotFound", b, err)
			}
			_, err = c.CancelTask(t.Context(), &a2a.CancelTaskRequest{ID: task.ID})
			if err == nil {
				t.Errorf("%s: CancelTask(completed) succeeded, want an error", b)
			}
		})
	}
}

// TestBindingsHostile: the limits hold for every binding — an oversized
// HTTP+JSON body and an oversized gRPC message are refused before they
// become tasks, so is a gRPC message nested too deep, and a gRPC call
// naming a host the agent is not served as is refused like any request.
func TestBindingsHostile(t *testing.T) {
	t.Parallel()
	const maxBody = 64 << 10
	s := serveOnPort(t, textkit, map[string]string{"upper.py": upperPy}, host.WithMaxBody(maxBody), host.WithMaxDepth(16))
	big := strings.Repeat("x", 2*maxBody)

	t.Run("rest-oversized", func(t *testing.T) {
		body, _ := json.Marshal(map[string]any{"message": map[string]any{"messageId": "m1", "role": "ROLE_USER", "parts": []any{map[string]any{"text": big}}}})
		resp, err := http.Post(s.URL+"/message:send", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var e struct {
			Error struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		json.NewDecoder(resp.Body).Decode(&e)
		if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(e.Error.Message, "larger than") {
			t.Errorf("oversized REST body: HTTP %d %+v, want 413 saying it is too large", resp.StatusCode, e)
		}
		// The a2a-go client sees an error too.
		_, err = bindingClient(t, s.URL, binding.REST).SendMessage(t.Context(), textMessage(big))
		if err == nil {
			t.Error("a2a-go REST SendMessage(oversized) succeeded, want an error")
		}
	})

	conn, err := binding.Dial(s.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	pb := a2apb.NewA2AServiceClient(conn)
	msg := func(text string, meta *structpb.Struct) *a2apb.SendMessageRequest {
		return &a2apb.SendMessageRequest{Message: &a2apb.Message{MessageId: "m-" + time.Now().Format("150405.000000"), Role: a2apb.Role_ROLE_USER,
			Parts: []*a2apb.Part{{Content: &a2apb.Part_Text{Text: text}}}, Metadata: meta}}
	}
	t.Run("grpc-oversized", func(t *testing.T) {
		_, err := pb.SendMessage(t.Context(), msg(big, nil))
		if status.Code(err) != codes.ResourceExhausted {
			t.Errorf("oversized gRPC message: %v, want ResourceExhausted", err)
		}
	})
	t.Run("grpc-too-deep", func(t *testing.T) {
		v := structpb.NewStringValue("x")
		for range 40 {
			v = structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{"a": v}})
		}
		_, err := pb.SendMessage(t.Context(), msg("shout deep", v.GetStructValue()))
		if err == nil || status.Code(err) == codes.OK {
			t.Error("gRPC message nested 40 deep to a host taking 16 succeeded, want an error")
		}
		t.Logf("nested 40 deep: %v", err)
		// Nested within the bound, the same message runs.
		v = structpb.NewStringValue("x")
		for range 8 {
			v = structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{"a": v}})
		}
		if _, err := pb.SendMessage(t.Context(), msg("shout shallow", v.GetStructValue())); err != nil {
			t.Errorf("gRPC message nested 8 deep: %v, want it to run", err)
		}
	})
	t.Run("grpc-foreign-host", func(t *testing.T) {
		other, err := binding.Dial(s.URL+"/", grpc.WithAuthority("attacker.example:80"))
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		_, err = a2apb.NewA2AServiceClient(other).SendMessage(ctx, msg("shout hi", nil))
		if err == nil || status.Code(err) == codes.OK {
			t.Errorf("gRPC call naming another host: %v, want it refused", err)
		}
	})
}

// TestGRPCTimeouts: the server's timeouts hold for gRPC on the shared
// port (short ones here). A call whose task runs longer than the read
// timeout is still answered — the read deadline is lifted once the request
// is in — while a stream whose client stops reading a large answer is cut
// by the per-write deadline instead of holding the server.
func TestGRPCTimeouts(t *testing.T) {
	t.Parallel()
	const yaml = `version: 1
name: slowbig
description: A slow skill and a big one.
skills:
  - id: slow
    name: Slow
    description: Sleep a while, then say done.
    run: [python3, -c, "import time; time.sleep(1); print('done')"]
  - id: big
    name: Big
    description: Print eight megabytes.
    run: [python3, -c, "import sys; sys.stdout.write('x' * 8000000)"]
`
	s := serveOnPort(t, yaml, map[string]string{}, host.WithMaxOutput(16<<20))
	// serveOnPort's server has the default timeouts; this one short ones,
	// on a port of its own, for the same host.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := s.Host.Server(host.Timeouts{Header: 100 * time.Millisecond, Read: 200 * time.Millisecond, Write: 200 * time.Millisecond, Idle: time.Second})
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	conn, err := binding.Dial("http://"+ln.Addr().String()+"/", grpc.WithAuthority(strings.TrimPrefix(s.URL, "http://")))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	pb := a2apb.NewA2AServiceClient(conn)
	skill := func(id string) *a2apb.SendMessageRequest {
		meta, _ := structpb.NewStruct(map[string]any{"skill": id})
		return &a2apb.SendMessageRequest{Message: &a2apb.Message{MessageId: "m-" + id, Role: a2apb.Role_ROLE_USER,
			Parts: []*a2apb.Part{{Content: &a2apb.Part_Text{Text: "go"}}}, Metadata: meta}}
	}
	res, err := pb.SendMessage(t.Context(), skill("slow"))
	if err != nil || res.GetTask().GetStatus().GetState() != a2apb.TaskState_TASK_STATE_COMPLETED {
		t.Fatalf("a gRPC call running longer than the read timeout = %v, %v; want its completed task", res, err)
	}

	stream, err := pb.SendStreamingMessage(t.Context(), skill("big"))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second) // not reading while the answer is written
	var got int
	for {
		ev, err := stream.Recv()
		if err != nil {
			if status.Code(err) == codes.OK || err.Error() == "EOF" {
				t.Errorf("a stream not read for 2s with a 200ms write timeout ended cleanly after %d bytes, want it cut", got)
			}
			return
		}
		for _, p := range ev.GetArtifactUpdate().GetArtifact().GetParts() {
			got += len(p.GetText())
		}
	}
}
