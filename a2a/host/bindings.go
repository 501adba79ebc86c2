package host

import (
	"encoding/json"
	"fmt"
	"math"
	"mime"
	"net/http"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	a2agrpc "github.com/a2aproject/a2a-go/v2/a2agrpc/v1"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/protoadapt"
)

// The three A2A 1.0 bindings share the agent's one port: JSON-RPC at "/",
// HTTP+JSON under the paths of a2a-go's REST handler (restPatterns), and
// gRPC over cleartext HTTP/2 (h2c), told apart by its Content-Type
// application/grpc. Every request passes the same guard first; a gRPC
// message is bounded by WithMaxBody and its nesting by WithMaxDepth.

// restPatterns are the ServeMux patterns of the HTTP+JSON binding:
// /message:send, /message:stream, /tasks and /tasks/{id}[:action][/...],
// /extendedAgentCard.
var restPatterns = []string{"/message:send", "/message:stream", "/tasks", "/tasks/", "/extendedAgentCard"}

// isRESTPath reports whether p is a path of the HTTP+JSON binding.
func isRESTPath(p string) bool {
	for _, pat := range restPatterns {
		if p == pat || strings.HasSuffix(pat, "/") && strings.HasPrefix(p, pat) {
			return true
		}
	}
	return false
}

// serveBindings adds the HTTP+JSON and gRPC bindings of handler to the
// host's mux and guard.
func (h *Host) serveBindings(handler a2asrv.RequestHandler) {
	rest := a2asrv.NewRESTHandler(handler)
	for _, p := range restPatterns {
		if p == "/tasks/" {
			h.mux.Handle(p, h.finishedSubscribe(rest))
			continue
		}
		h.mux.Handle(p, rest)
	}
	maxMsg := int(min(h.cfg.maxBody, math.MaxInt32))
	h.grpc = grpc.NewServer(
		grpc.MaxRecvMsgSize(maxMsg),
		grpc.ForceServerCodecV2(boundedCodec{limit: protoDepth(h.cfg.maxDepth)}),
	)
	a2agrpc.NewHandler(handler).RegisterWith(h.grpc)
	h.guard.grpc = h.grpc
}

// isGRPC reports whether r is a gRPC call: HTTP/2 with a Content-Type of
// application/grpc (or application/grpc+proto, ...).
func isGRPC(r *http.Request) bool {
	if r.ProtoMajor != 2 {
		return false
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return mt == "application/grpc" || strings.HasPrefix(mt, "application/grpc+")
}

// protoDepth is the protobuf nesting a gRPC message may have for JSON
// nested depth levels deep: a JSON object in a google.protobuf.Struct is a
// Struct, a map entry and a Value, and the message around it adds a few.
func protoDepth(depth int) int { return 3*depth + 8 }

// boundedCodec is gRPC's protobuf codec with a bound on how deep a
// received message nests (protobuf's own default is 10,000).
type boundedCodec struct{ limit int }

var _ encoding.CodecV2 = boundedCodec{}

func (boundedCodec) Name() string { return "proto" }

func (boundedCodec) Marshal(v any) (mem.BufferSlice, error) {
	return encoding.GetCodecV2("proto").Marshal(v)
}

func (c boundedCodec) Unmarshal(data mem.BufferSlice, v any) error {
	var m proto.Message
	switch x := v.(type) {
	case protoadapt.MessageV2:
		m = x
	case protoadapt.MessageV1:
		m = protoadapt.MessageV2Of(x)
	default:
		return fmt.Errorf("cannot decode into %T: not a protobuf message", v)
	}
	buf := data.MaterializeToBuffer(mem.DefaultBufferPool())
	defer buf.Free()
	return proto.UnmarshalOptions{RecursionLimit: c.limit}.Unmarshal(buf.ReadOnlyData(), m)
}

// finishedSubscribe answers an HTTP+JSON subscription to a finished task
// as A2A 1.0 §3.1.6 says — HTTP 400 with UnsupportedOperationError's
// ErrorInfo — before a2a-go's handler, which streams the task back with
// 200. (JSON-RPC and gRPC get the same error from finishedTaskGuard.)
func (h *Host) finishedSubscribe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/tasks/"), ":subscribe")
		if !ok || id == "" || strings.Contains(id, "/") {
			next.ServeHTTP(w, r)
			return
		}
		st, err := h.store.Get(r.Context(), a2a.TaskID(id))
		if err != nil || st.Task == nil || !st.Task.Status.State.Terminal() {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
			"code":    http.StatusBadRequest,
			"status":  "FAILED_PRECONDITION",
			"message": fmt.Sprintf("task %s is %s: it has no more updates to subscribe to; get it instead", id, st.Task.Status.State),
			"details": []any{map[string]any{
				"@type":    "type.googleapis.com/google.rpc.ErrorInfo",
				"reason":   a2a.ErrorReason(a2a.ErrUnsupportedOperation),
				"domain":   a2a.ProtocolDomain,
				"metadata": map[string]string{"taskId": id},
			}},
		}})
	})
}
