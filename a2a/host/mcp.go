package host

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"strings"
	"unicode/utf8"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/agentnet/agentnet/bundle"
)

// newMCPServer exposes every skill as an MCP tool whose input schema is the
// skill's params schema. A file parameter (format: path) takes the file's
// contents as a string, since an MCP client has no way to send a file.
func (h *Host) newMCPServer() *server.MCPServer {
	s := server.NewMCPServer(h.b.Name, h.card.Version,
		server.WithToolCapabilities(false),
		server.WithInstructions(h.b.Description),
		server.WithRecovery(),
	)
	for i := range h.b.Skills {
		sk := &h.b.Skills[i]
		schema, err := json.Marshal(mcpSchema(sk))
		if err != nil {
			h.log.Error("MCP tool schema", "skill", sk.ID, "err", err)
			continue
		}
		tool := mcp.NewToolWithRawSchema(sk.ID, sk.Name+": "+sk.Description, schema)
		s.AddTool(tool, func(ctx context.Context, call mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return h.callTool(ctx, sk, call.GetArguments())
		})
	}
	return s
}

// mcpSchema is the skill's params schema with file parameters turned into
// strings holding the file's contents.
func mcpSchema(sk *bundle.Skill) map[string]any {
	s := maps.Clone(sk.ParamsSchema())
	props, _ := s["properties"].(map[string]any)
	if props == nil {
		s["properties"] = map[string]any{}
		return s
	}
	np := map[string]any{}
	for name, v := range props {
		m, ok := v.(map[string]any)
		if !ok || m["format"] != "path" {
			np[name] = v
			continue
		}
		m = maps.Clone(m)
		delete(m, "format")
		desc, _ := m["description"].(string)
		if desc != "" {
			desc += " — "
		}
		m["description"] = desc + "the file's contents"
		np[name] = m
	}
	s["properties"] = np
	return s
}

// callTool runs one MCP tool call through the same path as an A2A task.
func (h *Host) callTool(ctx context.Context, sk *bundle.Skill, args map[string]any) (*mcp.CallToolResult, error) {
	req := &request{taskID: "mcp-" + string(a2a.NewTaskID()), skill: sk.ID, args: map[string]any{}, inline: true}
	for k, v := range args {
		req.args[k] = v
	}
	var total int64
	for _, p := range sk.ParamList() {
		content, ok := args[p.Name].(string)
		if !ok || !p.IsPath() {
			continue
		}
		if total += int64(len(content)); total > h.cfg.maxFileBytes {
			return mcp.NewToolResultError(fmt.Sprintf("the call's files hold more than %d bytes, this agent's limit (--max-file-bytes)", h.cfg.maxFileBytes)), nil
		}
		name := safeName(p.Name+textExt(content), "input.txt")
		req.files = append(req.files, inFile{name: name, data: []byte(content)})
		req.args[p.Name] = name
	}
	out, err := h.invoke(ctx, req, nil)
	var f *failure
	switch {
	case errors.As(err, &f):
		return mcp.NewToolResultError(f.msg), nil
	case err != nil:
		h.log.Error("MCP tool call failed", "skill", sk.ID, "err", err)
		return mcp.NewToolResultError("internal error in the host; see its log"), nil
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(out.stdout)}}
	for _, f := range out.files {
		uri := "file:///" + f.name
		switch {
		case strings.HasPrefix(f.mediaType, "image/"):
			res.Content = append(res.Content, mcp.NewImageContent(base64.StdEncoding.EncodeToString(f.data), f.mediaType))
		case strings.HasPrefix(f.mediaType, "text/") && utf8.Valid(f.data):
			res.Content = append(res.Content, mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: uri, MIMEType: f.mediaType, Text: string(f.data)}))
		default:
			res.Content = append(res.Content, mcp.NewEmbeddedResource(mcp.BlobResourceContents{URI: uri, MIMEType: f.mediaType, Blob: base64.StdEncoding.EncodeToString(f.data)}))
		}
	}
	return res, nil
}

// ServeStdio serves the skills as MCP tools over in and out (JSON-RPC lines)
// until ctx ends or in is closed.
func (h *Host) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	if h.mcp == nil {
		return fmt.Errorf("serve MCP on stdio: %s brings its own server (serve:) and has no MCP tools", h.b.Name)
	}
	err := server.NewStdioServer(h.mcp()).Listen(ctx, in, out)
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		return fmt.Errorf("serve MCP on stdio: %w", err)
	}
	return nil
}
