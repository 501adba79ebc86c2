package host

import (
	"bytes"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentnet/agentnet/bundle"
)

// BenchmarkChecks measures what the checks add to one request, without the
// network and the skill's process (whose cost BenchmarkRoundTrip holds):
//
//   - guard/message: the HTTP checks and the body read over a small
//     message/send (~300 bytes), against
//
//   - read/message: reading the same body with a size bound only, as the
//     host did before;
//
//   - guard/1MiB-file: the same over a message carrying a 1 MiB file part
//     (the depth scan runs over every byte), and depth-scan/1MiB-file the
//     scan alone;
//
//   - argv/checked and argv/expand: the argv of a skill with file, list
//     and flag parameters built with the containment checks, against the
//     template's expansion alone.
//
//     go test ./a2a/host -run '^$' -bench Checks -benchmem
func BenchmarkChecks(b *testing.B) {
	small := []byte(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"0f1e","role":"ROLE_USER","parts":[{"text":"Count the words of this text and list the ten most frequent ones"},{"data":{"n":10}}]}}}`)
	file := []byte(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"0f1e","role":"ROLE_USER","parts":[{"text":"count"},{"raw":"` +
		base64.StdEncoding.EncodeToString(bytes.Repeat([]byte("word "), 1<<20/5)) + `","filename":"a.txt"}]}}}`)
	g := &guard{hosts: allowedHosts("http://127.0.0.1:8080/", nil), maxBody: DefaultMaxBody, maxDepth: DefaultMaxDepth,
		next: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = bodyBytes(r) })}
	plain := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = readAllLimited(w, r, DefaultMaxBody)
	})
	run := func(b *testing.B, h http.Handler, body []byte) {
		b.SetBytes(int64(len(body)))
		w := httptest.NewRecorder()
		for b.Loop() {
			r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8080/", bytes.NewReader(body))
			r.Header.Set("Content-Type", "application/json")
			h.ServeHTTP(w, r)
		}
	}
	b.Run("guard/message", func(b *testing.B) { run(b, g, small) })
	b.Run("read/message", func(b *testing.B) { run(b, plain, small) })
	b.Run("guard/1MiB-file", func(b *testing.B) { run(b, g, file) })
	b.Run("read/1MiB-file", func(b *testing.B) { run(b, plain, file) })
	b.Run("depth-scan/1MiB-file", func(b *testing.B) {
		b.SetBytes(int64(len(file)))
		for b.Loop() {
			if jsonDepth(file, DefaultMaxDepth) > DefaultMaxDepth {
				b.Fatal("too deep")
			}
		}
	})

	sk := argvSkill(b)
	vars := bundle.Vars{Workdir: "/work/task"}
	args := map[string]any{"in": "/work/task/a.csv", "out": "report.csv", "log": "run.log", "words": []any{"alpha", "beta"}, "n": 3, "mode": "fast", "name": "x.txt"}
	b.Run("argv/checked", func(b *testing.B) {
		for b.Loop() {
			if _, err := buildArgv(sk, vars, args); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("argv/expand", func(b *testing.B) {
		for b.Loop() {
			if _, err := bundle.Expand(sk.Run, vars, args); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// readAllLimited is how the host read a request body before the guard.
func readAllLimited(w http.ResponseWriter, r *http.Request, n int64) ([]byte, error) {
	return io.ReadAll(http.MaxBytesReader(w, r.Body, n))
}
