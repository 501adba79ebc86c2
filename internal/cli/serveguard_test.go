package cli

import (
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeLimitFlags: serve's --allow-host, --cors and --max-depth reach
// the host.
func TestServeLimitFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "agent.yaml"), shouterYAML)
	s := startServe(t, "serve", dir, "--allow-host", "agent.example:80", "--cors", "https://app.example", "--max-depth", "5")
	post := func(body, host, origin string) (int, string) {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, s.url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if host != "" {
			req.Host = host
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(data)
	}
	send := `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"hello"}]},"configuration":{"blocking":true}}}`
	if code, answer := post(send, "agent.example", "https://app.example"); code != http.StatusOK || !strings.Contains(answer, "HELLO") {
		t.Errorf("POST as agent.example from the --cors origin = %d %s, want the answer", code, answer)
	}
	if code, _ := post(send, "other.example", ""); code != http.StatusForbidden {
		t.Errorf("POST as other.example = %d, want 403", code)
	}
	if code, _ := post(send, "", "https://elsewhere.example"); code != http.StatusForbidden {
		t.Errorf("POST from another origin = %d, want 403", code)
	}
	deep := `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"x","metadata":{}}]}}}`
	if code, answer := post(deep, "", ""); code != http.StatusOK || !strings.Contains(answer, "JSON nested deeper than 5 levels") {
		t.Errorf("POST nested 6 deep with --max-depth 5 = %d %s, want a JSON-RPC error", code, answer)
	}
}
