package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	a2apb "github.com/a2aproject/a2a-go/v2/a2apb/v1"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/agentnet/agentnet/a2a/binding"
)

// The ErrorInfo every VersionNotSupportedError carries (A2A 1.0 §3.6.2).
const (
	versionReason = "VERSION_NOT_SUPPORTED"
	a2aDomain     = "a2a-protocol.org"
)

// postVersion posts body to path with an A2A-Version header (none when
// version is "-") and returns the HTTP status and the decoded answer.
func postVersion(t *testing.T, url, version string, body any) (int, map[string]any) {
	t.Helper()
	data, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if version != "-" {
		req.Header.Set("A2A-Version", version)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("POST %s (A2A-Version %s): HTTP %d, not JSON: %.300s", url, version, resp.StatusCode, raw)
	}
	return resp.StatusCode, out
}

// TestVersionJSONRPC: the JSON-RPC endpoint serves A2A 1.0 and 0.3 and
// refuses any other A2A-Version with -32009; no header means 0.3, which it
// serves, and a patch number is ignored.
func TestVersionJSONRPC(t *testing.T) {
	t.Parallel()
	s := serveOnPort(t, textkit, map[string]string{"upper.py": upperPy})
	msg10 := map[string]any{"messageId": "m1", "role": "ROLE_USER", "parts": []any{map[string]any{"text": "shout hi"}}}
	msg03 := map[string]any{"kind": "message", "messageId": "m2", "role": "user", "parts": []any{map[string]any{"kind": "text", "text": "shout hi"}}}
	for _, tc := range []struct {
		method, version string
		msg             map[string]any
		refused         bool
	}{
		{"SendMessage", "1.0", msg10, false},
		{"SendMessage", "1.0.1", msg10, false},
		{"SendMessage", "1", msg10, false},
		{"SendMessage", "-", msg10, false},
		{"SendMessage", "99.0", msg10, true},
		{"SendMessage", "1.1", msg10, true},
		{"SendMessage", "2.0", msg10, true},
		{"SendMessage", "one", msg10, true},
		{"SendMessage", "1.0-beta", msg10, true},
		{"message/send", "0.3", msg03, false},
		{"message/send", "-", msg03, false},
		{"message/send", "0.3.0", msg03, false},
		{"message/send", "0.2", msg03, true},
		{"message/send", "99.0", msg03, true},
	} {
		t.Run(tc.method+"@"+tc.version, func(t *testing.T) {
			t.Parallel()
			_, out := postVersion(t, s.URL+"/", tc.version, map[string]any{"jsonrpc": "2.0", "id": 7, "method": tc.method, "params": map[string]any{"message": tc.msg}})
			e, _ := out["error"].(map[string]any)
			switch {
			case !tc.refused && e != nil:
				t.Errorf("%s with A2A-Version %s: error %v, want it served", tc.method, tc.version, e)
			case !tc.refused && out["result"] == nil:
				t.Errorf("%s with A2A-Version %s: no result: %v", tc.method, tc.version, out)
			case tc.refused && tc.method == "SendMessage" && (e == nil || e["code"] != float64(-32009)):
				t.Errorf("%s with A2A-Version %s: %v, want error -32009 (VersionNotSupportedError)", tc.method, tc.version, out)
			case tc.refused && e == nil:
				// A2A 0.3 has no -32009; a2av0 writes the refusal as
				// its nearest error, but it must be one.
				t.Errorf("%s with A2A-Version %s: %v, want an error", tc.method, tc.version, out)
			}
		})
	}
}

// TestVersionREST: the HTTP+JSON binding serves A2A 1.0 only; another
// A2A-Version (0.3 included: its HTTP+JSON binding has other paths) is
// answered 400 with a google.rpc.Status whose ErrorInfo says
// VERSION_NOT_SUPPORTED; no header is a 1.0 request.
func TestVersionREST(t *testing.T) {
	t.Parallel()
	s := serveOnPort(t, textkit, map[string]string{"upper.py": upperPy})
	body := map[string]any{"message": map[string]any{"messageId": "m1", "role": "ROLE_USER", "parts": []any{map[string]any{"text": "shout hi"}}}}
	for _, tc := range []struct {
		version string
		refused bool
	}{{"1.0", false}, {"1.0.2", false}, {"-", false}, {"99.0", true}, {"0.3", true}, {"1.5", true}} {
		t.Run(tc.version, func(t *testing.T) {
			t.Parallel()
			code, out := postVersion(t, s.URL+"/message:send", tc.version, body)
			if !tc.refused {
				if code != http.StatusOK {
					t.Errorf("A2A-Version %s: HTTP %d %v, want 200", tc.version, code, out)
				}
				return
			}
			e, _ := out["error"].(map[string]any)
			if code != http.StatusBadRequest || e == nil || e["code"] != float64(http.StatusBadRequest) {
				t.Fatalf("A2A-Version %s: HTTP %d %v, want 400 with error.code 400", tc.version, code, out)
			}
			details, _ := e["details"].([]any)
			for _, d := range details {
				m, _ := d.(map[string]any)
				if m["@type"] == "type.googleapis.com/google.rpc.ErrorInfo" {
					if m["reason"] != versionReason || m["domain"] != a2aDomain {
						t.Errorf("A2A-Version %s: ErrorInfo %v, want reason %s in %s", tc.version, m, versionReason, a2aDomain)
					}
					return
				}
			}
			t.Errorf("A2A-Version %s: error %v has no ErrorInfo", tc.version, e)
		})
	}
}

// TestVersionGRPC: the gRPC binding serves A2A 1.0 only; other a2a-version
// metadata fails with FAILED_PRECONDITION and an ErrorInfo saying
// VERSION_NOT_SUPPORTED; no metadata is a 1.0 call.
func TestVersionGRPC(t *testing.T) {
	t.Parallel()
	s := serveOnPort(t, textkit, map[string]string{"upper.py": upperPy})
	conn, err := binding.Dial(s.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	pb := a2apb.NewA2AServiceClient(conn)
	for _, tc := range []struct {
		version string
		refused bool
	}{{"1.0", false}, {"-", false}, {"1.0.9", false}, {"99.0", true}, {"0.3", true}, {"", false}} {
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		if tc.version != "-" {
			ctx = metadata.AppendToOutgoingContext(ctx, "a2a-version", tc.version)
		}
		_, err := pb.SendMessage(ctx, &a2apb.SendMessageRequest{Message: &a2apb.Message{MessageId: "m-" + tc.version, Role: a2apb.Role_ROLE_USER,
			Parts: []*a2apb.Part{{Content: &a2apb.Part_Text{Text: "shout hi"}}}}})
		cancel()
		if !tc.refused {
			if err != nil {
				t.Errorf("a2a-version %q: %v, want it served", tc.version, err)
			}
			continue
		}
		st, _ := status.FromError(err)
		if st.Code() != codes.FailedPrecondition {
			t.Errorf("a2a-version %q: %v, want FAILED_PRECONDITION", tc.version, err)
			continue
		}
		var info *errdetails.ErrorInfo
		for _, d := range st.Details() {
			if i, ok := d.(*errdetails.ErrorInfo); ok {
				info = i
			}
		}
		if info.GetReason() != versionReason || info.GetDomain() != a2aDomain {
			t.Errorf("a2a-version %q: details %v, want ErrorInfo %s in %s", tc.version, st.Details(), versionReason, a2aDomain)
		}
	}
}
