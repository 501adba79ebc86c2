// Package proxy is a recording A2A reverse proxy. A Proxy stands in front of
// one agent and forwards every request to it and every answer back without
// changing a byte of a JSON-RPC body or a streamed event, while it writes
// each exchange — the request, the response or every server-sent event, and
// how the exchange ended — as Entry values to a Recorder, normally a Log that
// keeps them in memory and writes them as JSON lines.
//
//	trace, _ := os.Create("trace.jsonl")
//	log := proxy.NewLog(trace)
//	p, err := proxy.New("textkit", "http://127.0.0.1:9001", log)
//	srv, err := p.Listen("127.0.0.1:0") // or serve p (an http.Handler) yourself
//	defer srv.Close()
//	// point A2A clients at srv.URL instead of the agent's origin
//
// The proxy forwards by origin: the request's path is kept, so an agent
// whose card names http://host:9001/a2a/ is reached at srv.URL+"/a2a/".
//
// A body or event larger than the record limit (WithMaxRecord) is recorded
// by its size and SHA-256 digest alone, and the proxy holds no more of it
// than that limit while it passes: memory stays flat in the size of what
// agents send.
//
// One exception to byte-for-byte forwarding is deliberate and recorded: an
// agent card fetched through the proxy (the well-known card paths) has the
// agent's origin replaced by the proxy's, so that a client that resolves the
// card through the proxy keeps talking through it. Its trace entry says
// rewritten. WithoutCardRewrite turns this off.
//
// Every A2A binding passes: JSON-RPC and HTTP+JSON over HTTP/1.1, gRPC over
// HTTP/2 (cleartext on the proxy's one port, and to an http agent), frames
// and trailers unchanged. A request entry names its Binding and its A2A
// operation (RPCMethod) for all three; a gRPC call's request message and
// each answer message are recorded as JSON (the protobuf JSON mapping,
// through the descriptors of the services linked in, A2A's among them) and
// its end entry carries its GRPCStatus.
//
// With WithTagHeader, a client's tag header marks every entry of its
// exchanges (and is not passed on), so that one proxy serves several
// recorders through a Demux: a runner's concurrent chains, each with its
// own trace.
//
// A Proxy is safe for concurrent use; so are a Log and a Demux.
package proxy
