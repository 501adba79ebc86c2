package host_test

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentnet/agentnet/a2a/host"
)

func initialize(t *testing.T, c *client.Client) {
	t.Helper()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "agentnet-test", Version: "0"}
	if _, err := c.Initialize(t.Context(), req); err != nil {
		t.Fatalf("Initialize() error = %v", err)
	}
}

func callTool(t *testing.T, c *client.Client, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatalf("CallTool(%s) error = %v", name, err)
	}
	return res
}

func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// exercise lists the tools and calls them through a connected MCP client.
func exercise(t *testing.T, c *client.Client) {
	t.Helper()
	initialize(t, c)
	tools, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatalf("ListTools() error = %v", err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	if got, want := strings.Join(names, ","), "count,repeat,shout"; got != want {
		t.Fatalf("tools = %s, want %s", got, want)
	}
	for _, tl := range tools.Tools {
		data, _ := json.Marshal(tl)
		if tl.Name == "count" && !strings.Contains(string(data), "the file's contents") {
			t.Errorf("count tool = %s, want its file parameter described as contents", data)
		}
	}
	tests := []struct {
		tool    string
		args    map[string]any
		want    string
		isError bool
	}{
		{"shout", map[string]any{"text": "mcp works"}, "MCP WORKS\n", false},
		{"repeat", map[string]any{"word": "ok", "n": 2}, "ok ok\n", false},
		{"count", map[string]any{"file": "twelve bytes"}, "12 ", false},
		{"repeat", map[string]any{"n": 2}, "missing property 'word'", true},
	}
	for _, tc := range tests {
		res := callTool(t, c, tc.tool, tc.args)
		if got := resultText(res); res.IsError != tc.isError || !strings.Contains(got, tc.want) {
			t.Errorf("CallTool(%s, %v) = %q (error %v), want %q (error %v)", tc.tool, tc.args, got, res.IsError, tc.want, tc.isError)
		}
	}
}

func TestMCPHTTP(t *testing.T) {
	t.Parallel()
	s := serve(t, textkit, map[string]string{"upper.py": upperPy})
	c, err := client.NewStreamableHttpClient(s.URL + host.MCPPath)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(t.Context()); err != nil {
		t.Fatalf("Start() error = %v", err)
	}
	exercise(t, c)
}

func TestMCPStdio(t *testing.T) {
	t.Parallel()
	s := serve(t, textkit, map[string]string{"upper.py": upperPy})
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(ctx, toServer, fromServer) }()
	c := client.NewClient(transport.NewIO(toClient, fromClient, io.NopCloser(strings.NewReader(""))))
	if err := c.Start(t.Context()); err != nil {
		t.Fatalf("Start() error = %v", err)
	}
	exercise(t, c)
	cancel()
	fromClient.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeStdio() error = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("ServeStdio did not return after its context ended")
	}
	c.Close()
}
