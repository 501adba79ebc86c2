package host_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/a2a/host"
)

// fileKit writes files of a given size (each byte 'x') and hashes the files
// it is given.
const fileKit = `version: 1
name: filekit
description: Make and hash files.
skills:
  - id: make
    name: make
    description: Write a file of n kibibytes.
    params: {type: object, properties: {kib: {type: integer, minimum: 1}}, required: [kib]}
    run: [python3, -c, "import sys\nwith open('out.bin', 'wb') as f:\n  for _ in range(int(sys.argv[1])): f.write(b'x' * 1024)", "{{kib}}"]
    timeout: 60s
  - id: hash
    name: hash
    description: Print the SHA-256 and size of a file.
    params: {type: object, properties: {file: {type: string, format: path}}, required: [file]}
    run: [python3, -c, "import hashlib, os, sys\nh = hashlib.sha256()\nwith open(sys.argv[1], 'rb') as f:\n  for b in iter(lambda: f.read(1 << 16), b''): h.update(b)\nprint(h.hexdigest(), os.path.getsize(sys.argv[1]))", "{{file}}"]
    timeout: 60s
`

func makeFile(kib int) *a2a.SendMessageRequest {
	req := textMessage("make a file", a2a.NewDataPart(map[string]any{"kib": kib}))
	req.Message.Metadata = map[string]any{"skill": "make"}
	return req
}

// xsum is the SHA-256 and size that hash prints for kib kibibytes of 'x'.
func xsum(kib int) string {
	h := sha256.New()
	block := []byte(strings.Repeat("x", 1024))
	for range kib {
		h.Write(block)
	}
	return fmt.Sprintf("%s %d", hex.EncodeToString(h.Sum(nil)), kib<<10)
}

// fileRef returns the URL of the task's one file artifact sent by reference.
func fileRef(t *testing.T, task *a2a.Task) (string, *a2a.Part) {
	t.Helper()
	for _, a := range task.Artifacts {
		for _, p := range a.Parts {
			if u, ok := p.Content.(a2a.URL); ok {
				return string(u), p
			}
		}
	}
	t.Fatalf("task %s (%s: %s) has no file part by URL; artifacts: %d", task.ID, task.Status.State, statusText(task), len(task.Artifacts))
	return "", nil
}

func getFile(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	h := sha256.New()
	n, err := io.Copy(h, resp.Body)
	if err != nil {
		t.Fatalf("GET %s: reading: %v", url, err)
	}
	return resp.StatusCode, fmt.Sprintf("%s %d", hex.EncodeToString(h.Sum(nil)), n)
}

// TestFilesByReference: a file above the inline size comes back as a URL;
// only its token reaches it, the bytes are the file's, and it goes with its
// task. Small files stay inline.
func TestFilesByReference(t *testing.T) {
	t.Parallel()
	s := serve(t, fileKit, nil, host.WithMaxTasks(1))
	c := a2aClient(t, s.URL, "1.0")

	small := send(t, c, makeFile(4))
	if len(small.Artifacts) == 0 || small.Artifacts[len(small.Artifacts)-1].Parts[0].Content == nil {
		t.Fatalf("small file task: %s (%s)", small.Status.State, statusText(small))
	}
	if raw, ok := small.Artifacts[len(small.Artifacts)-1].Parts[0].Content.(a2a.Raw); !ok || len(raw) != 4<<10 {
		t.Errorf("a 4 KiB file came back as %T, want its bytes inline", small.Artifacts[len(small.Artifacts)-1].Parts[0].Content)
	}

	task := send(t, c, makeFile(1024))
	url, part := fileRef(t, task)
	if !strings.HasPrefix(url, s.URL+host.FilesPath) {
		t.Errorf("file URL %s is not under %s%s", url, s.URL, host.FilesPath)
	}
	if size, _ := part.Metadata[host.SizeKey].(float64); size != 1<<20 {
		t.Errorf("part metadata %s = %v, want %d", host.SizeKey, part.Metadata[host.SizeKey], 1<<20)
	}
	if code, sum := getFile(t, url); code != http.StatusOK || sum != xsum(1024) {
		t.Errorf("GET the file URL: %d, %s; want 200, %s", code, sum, xsum(1024))
	}
	token := strings.Split(strings.TrimPrefix(url, s.URL+host.FilesPath), "/")[0]
	for _, bad := range []string{
		s.URL + host.FilesPath + "out.bin",                            // no token
		s.URL + host.FilesPath + strings.Repeat("0", 64) + "/out.bin", // a wrong token
		s.URL + host.FilesPath + token[:63] + "/out.bin",              // part of the token
		s.URL + host.FilesPath + token + "/other.bin",                 // the token with another name
	} {
		if code, _ := getFile(t, bad); code != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", bad, code)
		}
	}

	// With one finished task kept, the next task forgets this one, and its
	// file goes with it.
	send(t, c, makeFile(4))
	if code, _ := getFile(t, url); code != http.StatusNotFound {
		t.Errorf("GET the file of a forgotten task = %d, want 404", code)
	}
}

// TestFetchByURL: a message's file by URL is fetched only from the fetch
// list, under the registry's address policy, within --max-file-bytes; a
// file passed on from one agent to the next arrives whole.
func TestFetchByURL(t *testing.T) {
	t.Parallel()
	maker := serve(t, fileKit, nil)
	task := send(t, a2aClient(t, maker.URL, "1.0"), makeFile(2048))
	url, _ := fileRef(t, task)

	hashMsg := func(u string) *a2a.SendMessageRequest {
		req := textMessage("hash this file", &a2a.Part{Content: a2a.URL(u), Filename: "in.bin", MediaType: "application/octet-stream"})
		req.Message.Metadata = map[string]any{"skill": "hash"}
		return req
	}

	t.Run("not listed", func(t *testing.T) {
		t.Parallel()
		s := serve(t, fileKit, nil)
		_, err := a2aClient(t, s.URL, "1.0").SendMessage(t.Context(), hashMsg(url))
		if err == nil || !strings.Contains(err.Error(), "fetch list") {
			t.Errorf("a URL with no fetch list: err = %v, want a refusal naming the fetch list", err)
		}
	})
	t.Run("listed", func(t *testing.T) {
		t.Parallel()
		s := serve(t, fileKit, nil, host.WithFetchFrom(maker.URL))
		got := send(t, a2aClient(t, s.URL, "1.0"), hashMsg(url))
		if txt := strings.TrimSpace(artifactText(got)); txt != xsum(2048) {
			t.Errorf("hash of the fetched file = %q (%s: %s), want %q", txt, got.Status.State, statusText(got), xsum(2048))
		}
	})
	t.Run("another origin", func(t *testing.T) {
		t.Parallel()
		s := serve(t, fileKit, nil, host.WithFetchFrom(maker.URL+"/other/"))
		_, err := a2aClient(t, s.URL, "1.0").SendMessage(t.Context(), hashMsg(url))
		if err == nil || !strings.Contains(err.Error(), "fetch list") {
			t.Errorf("a URL outside the listed prefix: err = %v, want a refusal", err)
		}
	})
	t.Run("deny private", func(t *testing.T) {
		t.Parallel()
		s := serve(t, fileKit, nil, host.WithFetchFrom(maker.URL), host.WithFetchDenyPrivate(true))
		got := send(t, a2aClient(t, s.URL, "1.0"), hashMsg(url))
		if got.Status.State != a2a.TaskStateFailed || !strings.Contains(statusText(got), "loopback") {
			t.Errorf("a listed loopback URL under deny-private: %s (%s), want failed naming loopback", got.Status.State, statusText(got))
		}
	})
	t.Run("redirect elsewhere", func(t *testing.T) {
		t.Parallel()
		redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, url, http.StatusFound)
		}))
		t.Cleanup(redirect.Close)
		s := serve(t, fileKit, nil, host.WithFetchFrom(redirect.URL))
		got := send(t, a2aClient(t, s.URL, "1.0"), hashMsg(redirect.URL+"/f.bin"))
		if got.Status.State != a2a.TaskStateFailed || !strings.Contains(statusText(got), "another origin") {
			t.Errorf("a redirect to another origin: %s (%s), want failed naming it", got.Status.State, statusText(got))
		}
	})
	t.Run("too large", func(t *testing.T) {
		t.Parallel()
		s := serve(t, fileKit, nil, host.WithFetchFrom(maker.URL), host.WithMaxFileBytes(1<<20))
		got := send(t, a2aClient(t, s.URL, "1.0"), hashMsg(url))
		if got.Status.State != a2a.TaskStateFailed || !strings.Contains(statusText(got), "max-file-bytes") {
			t.Errorf("a 2 MiB file to an agent taking 1 MiB: %s (%s), want failed naming --max-file-bytes", got.Status.State, statusText(got))
		}
	})
}

// TestBlockingCallQuiet: a blocking call's task carries no progress report
// its client could not have seen; a stream still gets every state change.
func TestBlockingCallQuiet(t *testing.T) {
	t.Parallel()
	s := serve(t, fileKit, nil)
	c := a2aClient(t, s.URL, "1.0")
	task := send(t, c, makeFile(1))
	for _, m := range task.History {
		if m.Role == a2a.MessageRoleAgent {
			t.Errorf("a blocking call's task history holds an agent message %q; want only the user's", m.Parts[0].Text())
		}
	}
	var states []a2a.TaskState
	for ev, err := range c.SendStreamingMessage(t.Context(), makeFile(1)) {
		if err != nil {
			t.Fatal(err)
		}
		if e, ok := ev.(*a2a.TaskStatusUpdateEvent); ok {
			states = append(states, e.Status.State)
		}
	}
	if len(states) < 2 || states[0] != a2a.TaskStateWorking || states[len(states)-1] != a2a.TaskStateCompleted {
		t.Errorf("streamed states %v, want working ... completed", states)
	}
}

// TestFileMemoryFlat: a file passed from one agent to another by reference
// never sits whole in either host's memory: the heap grows by far less than
// the file while it is made, served, fetched and hashed. No timing is
// asserted.
func TestFileMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("moves a 64 MiB file")
	}
	// Not parallel: it reads the process's heap.
	const kib = 64 << 10
	maker := serve(t, fileKit, nil)
	hasher := serve(t, fileKit, nil, host.WithFetchFrom(maker.URL), host.WithMaxFileBytes(128<<20))
	cm, ch := a2aClient(t, maker.URL, "1.0"), a2aClient(t, hasher.URL, "1.0")
	send(t, cm, makeFile(1)) // warm both hosts up before the baseline
	send(t, ch, textMessage("hash", &a2a.Part{Content: a2a.Raw("x"), Filename: "x.bin", MediaType: "application/octet-stream"}))

	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	})
	task := send(t, cm, makeFile(kib))
	url, _ := fileRef(t, task)
	req := textMessage("hash this file", &a2a.Part{Content: a2a.URL(url), Filename: "in.bin", MediaType: "application/octet-stream"})
	req.Message.Metadata = map[string]any{"skill": "hash"}
	got := send(t, ch, req)
	close(stop)
	wg.Wait()
	if txt := strings.TrimSpace(artifactText(got)); txt != xsum(kib) {
		t.Fatalf("hash of the passed file = %q (%s: %s), want %q", txt, got.Status.State, statusText(got), xsum(kib))
	}
	grew := int64(peak.Load()) - int64(base.HeapAlloc)
	t.Logf("heap grew by at most %d KiB while moving a %d KiB file", grew>>10, kib)
	if grew > 16<<20 {
		t.Errorf("the heap grew by %d MiB while a %d MiB file passed between two hosts; want it flat in the file's size (under 16 MiB)", grew>>20, kib>>10)
	}
}

// TestReplyCarriesPayloadOnce: a blocking call that sends a file to a skill
// that copies it gets a reply holding the bytes once (the output), not again
// in the task's history.
func TestReplyCarriesPayloadOnce(t *testing.T) {
	t.Parallel()
	const copyKit = `version: 1
name: copykit
description: Copy files.
skills:
  - id: copy
    name: copy
    description: Copy a file.
    params: {type: object, properties: {file: {type: string, format: path}}, required: [file]}
    run: [cp, "{{file}}", copy.bin]
`
	s := serve(t, copyKit, nil)
	payload := make([]byte, 200<<10)
	for i := range payload {
		payload[i] = byte(i * 7)
	}
	b64 := base64.StdEncoding.EncodeToString(payload)
	body := `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m1","role":"ROLE_USER","parts":[` +
		`{"text":"copy this file"},{"raw":"` + b64 + `","filename":"in.bin","mediaType":"application/octet-stream"}]}}}`
	resp, err := http.Post(s.URL+"/", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	reply, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(reply), b64); n != 1 {
		t.Errorf("the reply (%d bytes) holds the %d-byte payload %d times, want once; its head: %.300s", len(reply), len(payload), n, reply)
	}
}
