package proxy

import (
	"bytes"
	"encoding/binary"
	"io"
	"net/http"
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

// FuzzGRPCRecorder feeds arbitrary bytes through the gRPC recorder a byte
// at a time: what passes is what came in, recording never panics, and
// well-formed messages are each recorded once, whatever their size.
func FuzzGRPCRecorder(f *testing.F) {
	frame := func(msg string) []byte {
		return append([]byte{0, 0, 0, 0, byte(len(msg))}, msg...)
	}
	f.Add(append(append(frame("\x0a\x03abc"), frame("")...), frame("0123456789abcdefghij")...))
	f.Add([]byte{0, 0xff, 0xff, 0xff, 0xff, 1, 2})
	f.Add([]byte{1, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		messages := 0 // the whole messages in data
		for rest := data; len(rest) >= 5; messages++ {
			n := uint64(binary.BigEndian.Uint32(rest[1:5]))
			if uint64(len(rest)-5) < n {
				break
			}
			rest = rest[5+n:]
		}
		log := NewLog(nil)
		p := &Proxy{agent: "a", upstream: &url.URL{Scheme: "http", Host: "h"}, rec: log, maxRecord: 16}
		resp := &http.Response{Header: http.Header{}, Trailer: http.Header{"Grpc-Status": {"0"}}}
		g := &grpcRecorder{p: p, ex: &exchange{}, resp: resp, body: io.NopCloser(iotest.OneByteReader(bytes.NewReader(data)))}
		out, err := io.ReadAll(g)
		if err != nil || !bytes.Equal(out, data) {
			t.Fatalf("passed %q (%v), want %q", out, err, data)
		}
		es := log.Entries()
		if len(es) == 0 || es[len(es)-1].Kind != KindEnd || es[len(es)-1].Bytes != int64(len(data)) {
			t.Fatalf("entries = %+v, want an end after %d bytes", es, len(data))
		}
		if len(es)-1 != messages {
			t.Fatalf("recorded %d messages, want %d: %+v", len(es)-1, messages, es)
		}
		for _, e := range es[:len(es)-1] {
			if e.Kind != KindEvent || len(e.Body)+len(e.Text) == 0 && e.Bytes != 0 {
				t.Fatalf("entry %+v, want an event holding its message", e)
			}
		}
	})
}
