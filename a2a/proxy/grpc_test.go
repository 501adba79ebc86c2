package proxy_test

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"

	"github.com/agentnet/agentnet/a2a/binding"
	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/a2a/proxy"
	"github.com/agentnet/agentnet/bundle"
)

// hostedEcho serves a one-skill bundle (echo) with the host's own server:
// JSON-RPC, HTTP+JSON and gRPC on one loopback port.
func hostedEcho(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	yaml := "version: 1\nname: echoer\ndescription: Echo text.\nskills:\n  - id: echo\n    name: Echo\n    description: Echo the text.\n" +
		"    params: {type: object, properties: {text: {type: string}}, required: [text]}\n    run: [echo, \"{{text}}\"]\n"
	if err := os.WriteFile(filepath.Join(dir, bundle.FileName), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := bundle.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	h, err := host.New(b, url+"/", host.WithEnv(os.Environ()))
	if err != nil {
		t.Fatal(err)
	}
	srv := h.Server(host.DefaultTimeouts)
	go srv.Serve(ln)
	t.Cleanup(func() {
		srv.Close()
		h.Close()
	})
	return url
}

// TestGRPCAndREST: a2a-go's gRPC and HTTP+JSON clients work through the
// proxy (the card rewritten to it), and the trace names each call's
// binding and operation, holds gRPC messages as JSON, and ends each gRPC
// call with its status — an error status included.
func TestGRPCAndREST(t *testing.T) {
	t.Parallel()
	up := hostedEcho(t)
	srv, log := start(t, up)
	card, err := agentcard.DefaultResolver.Resolve(t.Context(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []binding.Binding{binding.GRPC, binding.REST} {
		conns := &binding.Conns{}
		defer conns.Close()
		c, err := a2aclient.NewFromCard(t.Context(), card, binding.ClientOptions(b, nil, conns)...)
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("echo via "+string(b)))})
		task, ok := res.(*a2a.Task)
		if err != nil || !ok || task.Status.State != a2a.TaskStateCompleted || !strings.Contains(task.Artifacts[0].Parts[0].Text(), "via "+string(b)) {
			t.Fatalf("%s: SendMessage through the proxy = %+v, %v", b, res, err)
		}
		if _, err := c.GetTask(t.Context(), &a2a.GetTaskRequest{ID: "no-such-task"}); !errors.Is(err, a2a.ErrTaskNotFound) {
			t.Errorf("%s: GetTask(unknown) through the proxy: %v, want TaskNotFound", b, err)
		}
		c.Destroy()
	}

	type call struct{ binding, method, end string }
	var calls []call
	byEx := map[int64]int{}
	for _, e := range log.Entries() {
		switch {
		case e.Kind == proxy.KindRequest && e.Binding != "":
			byEx[e.Exchange] = len(calls)
			calls = append(calls, call{binding: e.Binding, method: e.RPCMethod})
			if e.Binding == proxy.BindingGRPC && e.RPCMethod == "SendMessage" && !strings.Contains(string(e.Body), "echo via grpc") {
				t.Errorf("gRPC request entry body = %s, want the message as JSON", e.Body)
			}
		case e.Kind == proxy.KindEnd && e.GRPCStatus != nil:
			i, ok := byEx[e.Exchange]
			if !ok {
				continue
			}
			calls[i].end = e.Error
			if *e.GRPCStatus == 0 {
				calls[i].end = "OK"
			}
		case e.Kind == proxy.KindEvent && e.Binding == proxy.BindingGRPC:
			if !strings.Contains(string(e.Body), "TASK_STATE_COMPLETED") {
				t.Errorf("gRPC answer entry = %s, want the completed task as JSON", e.Body)
			}
		}
	}
	var got []string
	for _, c := range calls {
		got = append(got, c.binding+" "+c.method+" "+c.end)
	}
	want := []string{"grpc SendMessage OK", "grpc GetTask gRPC NotFound: failed to get task: task not found", "rest SendMessage ", "rest GetTask "}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("trace calls =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
