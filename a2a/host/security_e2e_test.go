package host_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/mark3labs/mcp-go/client"

	"github.com/agentnet/agentnet/a2a/host"
)

// exporter is shaped as the static generator writes a tool with an output
// option (argparse: "-o/--output FILE  write the rows to FILE"): a file it
// reads, a file it writes, and a list of column names.
const exporter = `version: 1
name: exporter
description: Export the rows of a CSV file.
skills:
  - id: export
    name: export
    description: Export the selected columns of a CSV file to another file.
    params:
      type: object
      properties:
        file: {type: string, format: path, description: the CSV file}
        output: {type: string, format: output-path, description: Write the rows to FILE.}
        columns: {type: array, items: {type: string}, description: the columns to keep}
        note: {type: string, description: a note printed first}
      required: [file]
    run: [python3, "{{bundle}}/export.py", --output, "{{output}}", "{{file}}", "{{columns}}", --note, "{{note}}"]
`

const exportPy = `import argparse, sys
ap = argparse.ArgumentParser()
ap.add_argument("-o", "--output")
ap.add_argument("--note")
ap.add_argument("file")
ap.add_argument("columns", nargs="*")
a = ap.parse_args()
rows = open(a.file).read()
if a.output:
    open(a.output, "w").write(rows)
    print("wrote", a.output)
else:
    print(rows)
`

// postJSON posts body to url with the content type and returns the status
// and the answer.
func postJSON(t *testing.T, url, contentType string, body []byte, header ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s error = %v", url, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

// sendV03 is a blocking A2A 0.3 message/send with a text part and a data
// part, as raw JSON.
func sendV03(id any, text string, data map[string]any) []byte {
	parts := []map[string]any{{"kind": "text", "text": text}}
	if data != nil {
		parts = append(parts, map[string]any{"kind": "data", "data": data})
	}
	req := map[string]any{"jsonrpc": "2.0", "method": "message/send", "params": map[string]any{
		"message":       map[string]any{"kind": "message", "messageId": "m-1", "role": "user", "parts": parts},
		"configuration": map[string]any{"blocking": true},
	}}
	if id != nil {
		req["id"] = id
	}
	b, _ := json.Marshal(req)
	return b
}

func absent(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written: the skill wrote outside its task's work directory", p)
		}
	}
}

// TestOutsideWrites is the attack of writing a file anywhere through an
// output parameter: an absolute path, a path that climbs out, and a list
// element that is an option of its own, over an A2A data part, a text/plain
// POST and an MCP tool call. Each is refused and nothing is written.
func TestOutsideWrites(t *testing.T) {
	t.Parallel()
	s := serve(t, exporter, map[string]string{"export.py": exportPy})
	target := t.TempDir()
	rows := &a2a.Part{Content: a2a.Raw("a,b\n1,2\n"), Filename: "rows.csv", MediaType: "text/csv"}
	c := a2aClient(t, s.URL, "1.0")

	tests := []struct {
		name string
		data map[string]any
		file string // that must not exist afterwards
		want string // in the failed task's status
	}{
		{"absolute output", map[string]any{"output": filepath.Join(target, "abs.txt")}, filepath.Join(target, "abs.txt"), "outside the task's work directory"},
		{"climbing output", map[string]any{"output": "../../../../../../../../" + filepath.Join(target, "up.txt")}, filepath.Join(target, "up.txt"), "climbs out"},
		{"option in a list", map[string]any{"columns": []any{"a", "--output=" + filepath.Join(target, "list.txt")}}, filepath.Join(target, "list.txt"), "would be read as an option"},
		{"option as a value", map[string]any{"columns": []any{"-o" + filepath.Join(target, "short.txt")}}, filepath.Join(target, "short.txt"), "would be read as an option"},
		{"absolute input", map[string]any{"file": "/etc/passwd"}, "", "outside the task's work directory"},
	}
	for _, tc := range tests {
		t.Run("A2A data part/"+tc.name, func(t *testing.T) {
			t.Parallel()
			task := send(t, c, textMessage("export the rows", rows, a2a.NewDataPart(tc.data)))
			if task.Status.State != a2a.TaskStateFailed || !strings.Contains(statusText(task), tc.want) {
				t.Errorf("state = %s (%s), want failed: %s", task.Status.State, statusText(task), tc.want)
			}
			absent(t, tc.file)
		})
	}

	t.Run("a name is kept inside the work directory", func(t *testing.T) {
		t.Parallel()
		task := send(t, c, textMessage("export the rows", rows, a2a.NewDataPart(map[string]any{"output": "sub/dir/../out.csv"})))
		if task.Status.State != a2a.TaskStateCompleted {
			t.Fatalf("state = %s (%s), want completed", task.Status.State, statusText(task))
		}
		var names []string
		for _, a := range task.Artifacts {
			names = append(names, a.Name)
		}
		if !strings.Contains(strings.Join(names, " "), "out.csv") {
			t.Errorf("artifacts = %v, want out.csv", names)
		}
	})

	t.Run("text/plain POST", func(t *testing.T) {
		t.Parallel()
		evil := filepath.Join(target, "form.txt")
		body := sendV03(1, "export the rows", map[string]any{"file": "x.csv", "output": evil})
		status, answer := postJSON(t, s.URL+"/", "text/plain", body)
		if status != http.StatusUnsupportedMediaType || !strings.Contains(answer, "application/json") {
			t.Errorf("text/plain POST = %d %s, want 415 asking for application/json", status, answer)
		}
		absent(t, evil)
	})

	t.Run("MCP tools/call", func(t *testing.T) {
		t.Parallel()
		mc, err := client.NewStreamableHttpClient(s.URL + host.MCPPath)
		if err != nil {
			t.Fatal(err)
		}
		defer mc.Close()
		if err := mc.Start(t.Context()); err != nil {
			t.Fatalf("Start() error = %v", err)
		}
		initialize(t, mc)
		for _, out := range []string{filepath.Join(target, "mcp.txt"), "../../../../../../../.." + filepath.Join(target, "mcp-up.txt")} {
			res := callTool(t, mc, "export", map[string]any{"file": "a,b\n1,2\n", "output": out})
			if !res.IsError || !strings.Contains(resultText(res), "work directory") {
				t.Errorf("tools/call with output %q = %v %q, want an error about the work directory", out, res.IsError, resultText(res))
			}
		}
		res := callTool(t, mc, "export", map[string]any{"file": "a,b\n1,2\n", "columns": []any{"--output=" + filepath.Join(target, "mcp-list.txt")}})
		if !res.IsError || !strings.Contains(resultText(res), "option") {
			t.Errorf("tools/call with an option in a list = %v %q, want an error", res.IsError, resultText(res))
		}
		absent(t, filepath.Join(target, "mcp.txt"), filepath.Join(target, "mcp-up.txt"), filepath.Join(target, "mcp-list.txt"))
	})
}

// TestBrowserRequests: a page of another site, or one whose name was
// rebound to this machine, reaches nothing; --cors lets one origin in.
func TestBrowserRequests(t *testing.T) {
	t.Parallel()
	s := serve(t, textkit, map[string]string{"upper.py": upperPy})
	body := sendV03(1, "upper hello", nil)
	tests := []struct {
		name   string
		ct     string
		header []string
		want   int
	}{
		{"rebound host name", "application/json", []string{"Host", "attacker.example:80"}, http.StatusForbidden},
		{"another site's origin", "application/json", []string{"Origin", "https://attacker.example"}, http.StatusForbidden},
		{"a sandboxed page", "application/json", []string{"Origin", "null"}, http.StatusForbidden},
		{"form post", "application/x-www-form-urlencoded", nil, http.StatusUnsupportedMediaType},
		{"no content type", "", nil, http.StatusUnsupportedMediaType},
		{"a client", "application/json; charset=utf-8", nil, http.StatusOK},
		{"the host's own origin", "application/json", []string{"Origin", s.URL}, http.StatusOK},
		{"localhost for 127.0.0.1", "application/json", []string{"Host", strings.Replace(strings.TrimPrefix(s.URL, "http://"), "127.0.0.1", "localhost", 1)}, http.StatusOK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got, answer := postJSON(t, s.URL+"/", tc.ct, body, tc.header...); got != tc.want {
				t.Errorf("POST = %d (%s), want %d", got, strings.TrimSpace(answer), tc.want)
			}
		})
	}
	t.Run("MCP from a rebound name", func(t *testing.T) {
		t.Parallel()
		init := []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`)
		if got, _ := postJSON(t, s.URL+host.MCPPath, "application/json", init, "Host", "attacker.example"); got != http.StatusForbidden {
			t.Errorf("MCP initialize with Host attacker.example = %d, want 403", got)
		}
		if got, _ := postJSON(t, s.URL+host.MCPPath, "text/plain", init); got != http.StatusUnsupportedMediaType {
			t.Errorf("MCP initialize as text/plain = %d, want 415", got)
		}
	})

	t.Run("CORS", func(t *testing.T) {
		t.Parallel()
		const app = "https://app.example"
		open := serve(t, textkit, map[string]string{"upper.py": upperPy}, host.WithCORS(app), host.WithAllowHosts("agent.example:80"))
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodOptions, open.URL+"/", nil)
		req.Header.Set("Origin", app)
		req.Header.Set("Access-Control-Request-Method", "POST")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("Access-Control-Allow-Origin"); resp.StatusCode != http.StatusNoContent || got != app {
			t.Errorf("preflight = %d, Allow-Origin %q; want 204, %q", resp.StatusCode, got, app)
		}
		if got, _ := postJSON(t, open.URL+"/", "application/json", body, "Origin", app, "Host", "agent.example"); got != http.StatusOK {
			t.Errorf("POST from %s to an allowed host = %d, want 200", app, got)
		}
		if got, _ := postJSON(t, open.URL+"/", "application/json", body, "Origin", "https://other.example"); got != http.StatusForbidden {
			t.Errorf("POST from another origin = %d, want 403", got)
		}
		// Without --cors no CORS header is ever sent.
		req2, _ := http.NewRequestWithContext(t.Context(), http.MethodOptions, s.URL+"/", nil)
		req2.Header.Set("Origin", app)
		resp2, err := http.DefaultClient.Do(req2)
		if err != nil {
			t.Fatal(err)
		}
		resp2.Body.Close()
		if got := resp2.Header.Get("Access-Control-Allow-Origin"); got != "" || resp2.StatusCode != http.StatusForbidden {
			t.Errorf("preflight without --cors = %d, Allow-Origin %q; want 403 and none", resp2.StatusCode, got)
		}
	})
}

// TestLimitsBeforeParsing: a deeply nested or oversized body is refused
// with a JSON-RPC error before it is decoded; messages with too many parts
// or too many file bytes, or not from a user, are refused before a task.
func TestLimitsBeforeParsing(t *testing.T) {
	t.Parallel()
	s := serve(t, textkit, map[string]string{"upper.py": upperPy}, host.WithMaxParts(3), host.WithMaxFileBytes(1000), host.WithMaxBody(1<<20))
	deep := strings.Repeat("[", 9000) + strings.Repeat("]", 9000)
	tests := []struct {
		name string
		body string
		want string
	}{
		{"nested 9000 deep", `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"data","data":{"x":` + deep + `}}]}}}`, fmt.Sprintf("JSON nested deeper than %d levels", host.DefaultMaxDepth)},
		{"nested in a string is no nesting", `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"upper ` + deep + `"}]},"configuration":{"blocking":true}}}`, `"result"`},
		{"larger than the body limit", `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"` + strings.Repeat("x", 2<<20) + `"}]}}}`, "request body larger than 1048576 bytes"},
		{"too many parts", `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"a"},{"kind":"text","text":"b"},{"kind":"text","text":"c"},{"kind":"text","text":"d"}]}}}`, "at most 3 (--max-parts)"},
		{"too many file bytes", `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"file","file":{"name":"a.txt","bytes":"` + strings.Repeat("QUFB", 400) + `"}}]}}}`, "at most 1000 (--max-file-bytes)"},
		{"an agent's role", `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"agent","parts":[{"kind":"text","text":"upper x"}]}}}`, "a message to an agent is the user's"},
		{"an invalid role", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_ADMIN","parts":[{"text":"upper x"}]}}}`, `ROLE_ADMIN`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			status, answer := postJSON(t, s.URL+"/", "application/json", []byte(tc.body))
			if status != http.StatusOK || !strings.Contains(answer, tc.want) {
				t.Errorf("POST = %d %s, want 200 with %q", status, headOf(answer), tc.want)
			}
			if strings.Contains(answer, "upper") && tc.want != `"result"` {
				t.Errorf("the skill ran: %s", headOf(answer))
			}
		})
	}
}

func headOf(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// TestNotificationRunsNothing: a JSON-RPC notification (no id) is not
// answered and runs no skill.
func TestNotificationRunsNothing(t *testing.T) {
	t.Parallel()
	marker := filepath.Join(t.TempDir(), "ran")
	s := serve(t, `version: 1
name: toucher
description: Touch a file.
skills:
  - id: touch
    name: touch
    description: Touch the marker file.
    run: [python3, -c, "open('`+marker+`', 'w').write('x'); print('done')"]
`, nil)
	status, answer := postJSON(t, s.URL+"/", "application/json", sendV03(nil, "touch it", nil))
	if status != http.StatusNoContent || answer != "" {
		t.Errorf("notification = %d %q, want 204 and no answer", status, answer)
	}
	// The same message with an id runs, and is answered after the run: had
	// the notification started a run, its marker would be there already.
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the notification ran the skill")
	}
	status, answer = postJSON(t, s.URL+"/", "application/json", sendV03(7, "touch it", nil))
	if status != http.StatusOK || !strings.Contains(answer, "done") {
		t.Fatalf("request = %d %s, want the skill's answer", status, headOf(answer))
	}
}
