package cli

import (
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/internal/fetchpolicy"
)

// TestServeFetchFlags: serve fetches a message's file by URL from its
// --fetch-from list, or when vouched for under AGENTNET_FILE_KEY, and
// refuses any other; the skill never sees the key.
func TestServeFetchFlags(t *testing.T) {
	t.Parallel()
	files := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello file\n") }))
	defer files.Close()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "agent.yaml"), `version: 1
name: sizer
description: Size files.
skills:
  - id: size
    name: size
    description: Count the bytes of a file.
    params: {type: object, properties: {file: {type: string, format: path}}, required: [file]}
    run: [sh, -c, 'wc -c < "$0"; env | grep -c AGENTNET_FILE_KEY || true', "{{file}}"]
`)
	key, err := fetchpolicy.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	listed := startServe(t, "serve", dir, "--fetch-from", files.URL)
	keyed := startServeEnv(t, map[string]string{fetchpolicy.KeyEnv: hex.EncodeToString(key)}, "serve", dir)
	send := func(s *served, url, vouch string) string {
		t.Helper()
		meta := ""
		if vouch != "" {
			meta = `,"metadata":{"` + fetchpolicy.VouchMetadataKey + `":"` + vouch + `"}`
		}
		body := `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[` +
			`{"text":"size this"},{"url":"` + url + `","filename":"f.txt","mediaType":"text/plain"` + meta + `}]}}}`
		resp, err := http.Post(s.url, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return string(data)
	}
	u := files.URL + "/f.txt"
	if got := send(listed, u, ""); !strings.Contains(got, `11\n0\n`) {
		t.Errorf("--fetch-from the file's origin: %s, want its 11 bytes counted and no key seen", got)
	}
	if got := send(keyed, u, fetchpolicy.Vouch(key, u)); !strings.Contains(got, `11\n0\n`) {
		t.Errorf("vouched under AGENTNET_FILE_KEY: %s, want its 11 bytes counted and no key seen by the skill", got)
	}
	for name, got := range map[string]string{
		"no list, no vouch":      send(keyed, u, ""),
		"vouched under another":  send(keyed, u, fetchpolicy.Vouch([]byte("another key, another key"), u)),
		"listed, another origin": send(listed, "http://127.0.0.2:1/f.txt", ""),
	} {
		if !strings.Contains(got, "fetch list") {
			t.Errorf("%s: %s, want a refusal naming the fetch list", name, got)
		}
	}
}
