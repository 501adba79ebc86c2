package proxy

import (
	"bytes"
	"io"
	"net/url"
	"testing"
	"testing/iotest"
)

// FuzzStreamRecorder feeds arbitrary bytes through the stream recorder, a
// byte at a time: what passes is what came in, and recording never panics.
func FuzzStreamRecorder(f *testing.F) {
	f.Add([]byte("data: {\"a\":1}\r\n\r\n: comment\n\ndata: x\ndata: y\n\n"))
	f.Add([]byte("data:"))
	f.Add([]byte("\n\n\n"))
	f.Add([]byte("data: \xff\xfe\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		log := NewLog(nil)
		p := &Proxy{agent: "a", upstream: &url.URL{Scheme: "http", Host: "h"}, rec: log, maxRecord: 16}
		s := &sseRecorder{p: p, ex: &exchange{}, body: io.NopCloser(iotest.OneByteReader(bytes.NewReader(data)))}
		out, err := io.ReadAll(s)
		if err != nil || !bytes.Equal(out, data) {
			t.Fatalf("passed %q (%v), want %q", out, err, data)
		}
		es := log.Entries()
		if len(es) == 0 || es[len(es)-1].Kind != KindEnd || es[len(es)-1].Bytes != int64(len(data)) {
			t.Fatalf("entries = %+v, want an end after %d bytes", es, len(data))
		}
		for _, e := range es[:len(es)-1] {
			if e.Kind != KindEvent || len(e.Body)+len(e.Text) > 3*16 {
				t.Fatalf("entry %+v", e)
			}
		}
	})
}

// FuzzPeekRPC never panics on a request body.
func FuzzPeekRPC(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"SendMessage"}`))
	f.Add([]byte(`{"id":`))
	f.Fuzz(func(t *testing.T, body []byte) {
		peekRPC(body)
		ReplaceOrigin(body, "http://h:1", "http://p:2")
	})
}
