package proxy

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
)

// The kinds of trace entries.
const (
	KindRequest  = "request"  // a request arrived (its body as sent)
	KindResponse = "response" // a non-streamed answer, recorded when its body has passed
	KindStream   = "stream"   // a streamed answer began (status and headers)
	KindEvent    = "event"    // one server-sent event of a stream
	KindEnd      = "end"      // a stream ended (Error says how, if not cleanly)
	KindError    = "error"    // the agent could not be reached; the proxy answered 502
)

// Entry is one line of a trace. The entries of one HTTP exchange share
// Exchange; Seq orders all entries of a Log.
type Entry struct {
	Seq      int64     `json:"seq"`
	Exchange int64     `json:"exchange"`
	Tag      string    `json:"tag,omitempty"` // the client's tag (WithTagHeader)
	Kind     string    `json:"kind"`
	Agent    string    `json:"agent"`              // the proxy's label for the agent
	Upstream string    `json:"upstream,omitempty"` // the agent's origin
	Time     time.Time `json:"time"`
	// ElapsedMS is the time since the exchange's request arrived.
	ElapsedMS float64 `json:"elapsed_ms"`

	HTTPMethod string `json:"http_method,omitempty"`
	Path       string `json:"path,omitempty"`
	Status     int    `json:"status,omitempty"`
	// ContentType is the body's media type (requests and responses).
	ContentType string `json:"content_type,omitempty"`
	// Binding is the A2A binding of a request and of a gRPC call's
	// entries: "jsonrpc", "rest" or "grpc" ("" for anything else, such as
	// a card).
	Binding string `json:"binding,omitempty"`
	// RPCMethod names the A2A operation: read from a JSON-RPC request body
	// ("SendMessage", "message/send"), from an HTTP+JSON request's method
	// and path, or from a gRPC call's path. RPCID is a JSON-RPC request's id.
	RPCMethod string          `json:"rpc_method,omitempty"`
	RPCID     json.RawMessage `json:"rpc_id,omitempty"`

	// Body is the body (or an event's data) when it is JSON, exactly as it
	// passed; Text holds any other body as text.
	Body      json.RawMessage `json:"body,omitempty"`
	Text      string          `json:"text,omitempty"`
	Bytes     int64           `json:"bytes"`               // the body's full size
	Truncated bool            `json:"truncated,omitempty"` // the body was larger than MaxRecord: Digest stands for it, no bytes are kept
	// Digest is "sha256:" and the hex SHA-256 of the whole body (or
	// event's data) when it was larger than MaxRecord.
	Digest string `json:"digest,omitempty"`
	// Rewritten marks an agent card whose origin the proxy replaced by its own.
	Rewritten bool   `json:"rewritten,omitempty"`
	Error     string `json:"error,omitempty"`
	// GRPCStatus is a gRPC call's status code (0 is OK), on its end entry.
	GRPCStatus *int `json:"grpc_status,omitempty"`
}

// Recorder receives trace entries. Implementations must be safe for
// concurrent use; Record must not block for long, since it runs on the path
// of the traffic.
type Recorder interface {
	Record(Entry)
}

// Log is a Recorder that keeps every entry in memory and, when it has a
// writer, writes each as one JSON line as it arrives. The zero Log keeps
// entries only.
type Log struct {
	mu      sync.Mutex
	w       io.Writer
	entries []Entry
	seq     int64
	err     error
}

var _ Recorder = (*Log)(nil)

// NewLog returns a Log that also writes to w (nil: memory only).
func NewLog(w io.Writer) *Log { return &Log{w: w} }

// Record numbers e and stores it.
func (l *Log) Record(e Entry) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seq++
	e.Seq = l.seq
	l.entries = append(l.entries, e)
	if l.w == nil || l.err != nil {
		return
	}
	line, err := json.Marshal(e)
	if err == nil {
		_, err = l.w.Write(append(line, '\n'))
	}
	if err != nil {
		l.err = fmt.Errorf("write trace: %w", err)
	}
}

// Entries returns a copy of the entries recorded so far, in order.
func (l *Log) Entries() []Entry {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Entry(nil), l.entries...)
}

// Err reports the first error writing the trace, if any.
func (l *Log) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// ReadLog parses a trace written by a Log.
func ReadLog(r io.Reader) ([]Entry, error) {
	var out []Entry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 256<<20)
	for n := 1; sc.Scan(); n++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return out, fmt.Errorf("trace line %d: %w", n, err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("read trace: %w", err)
	}
	return out, nil
}

// Demux is a Recorder that hands each entry to the recorder added for its
// tag (see WithTagHeader); entries whose tag has none go to Default, or
// nowhere when Default is nil. It is safe for concurrent use.
type Demux struct {
	Default Recorder

	mu    sync.RWMutex
	byTag map[string]Recorder
}

var _ Recorder = (*Demux)(nil)

// Add routes entries tagged tag to r.
func (d *Demux) Add(tag string, r Recorder) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.byTag == nil {
		d.byTag = map[string]Recorder{}
	}
	d.byTag[tag] = r
}

// Remove stops routing entries tagged tag.
func (d *Demux) Remove(tag string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.byTag, tag)
}

// Record hands e on.
func (d *Demux) Record(e Entry) {
	d.mu.RLock()
	r := d.byTag[e.Tag]
	d.mu.RUnlock()
	if r == nil {
		r = d.Default
	}
	if r != nil {
		r.Record(e)
	}
}

// Len returns the number of entries recorded so far.
func (l *Log) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.entries)
}

// EntriesFrom returns a copy of the entries from the i-th (0-based) on.
func (l *Log) EntriesFrom(i int) []Entry {
	l.mu.Lock()
	defer l.mu.Unlock()
	if i >= len(l.entries) {
		return nil
	}
	return append([]Entry(nil), l.entries[max(i, 0):]...)
}
