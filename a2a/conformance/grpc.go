package conformance

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2apb/v1"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// grpcProbe runs the checks of a gRPC interface (A2A 1.0 section 10):
// status codes, ErrorInfo details, ListTasks paging, server streams,
// SubscribeToTask and the a2a-version metadata.
type grpcProbe struct {
	r    *run
	cl   a2apb.A2AServiceClient
	seq  int
	task map[string]any
}

var grpcChecks = []string{GRPCSend, GRPCGetTask, GRPCNotFound, GRPCErrorInfo, GRPCCancelNotFound, GRPCCancelFinished, GRPCListTasks,
	GRPCStream, GRPCSubscribe, GRPCVersion}

// grpcTarget turns an interface URL ("host:port", "http://host:port",
// "grpc://host:port") into a dial target and whether it wants TLS.
func grpcTarget(raw string) (string, bool, error) {
	if !strings.Contains(raw, "://") {
		raw = "grpc://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "", false, fmt.Errorf("%q is not a host:port", raw)
	}
	tlsOn := u.Scheme == "https" || u.Scheme == "grpcs"
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = "443"
		if !tlsOn {
			port = "80"
		}
	}
	return net.JoinHostPort(host, port), tlsOn, nil
}

// dialGRPC connects to target if it is one of the audited origins; every
// connection is checked again as it is made.
func (r *run) dialGRPC(raw string) (*grpc.ClientConn, error) {
	target, tlsOn, err := grpcTarget(raw)
	if err != nil {
		return nil, err
	}
	allowed := func(hostport string) bool {
		return r.a.allowed["http://"+strings.ToLower(hostport)] || r.a.allowed["https://"+strings.ToLower(hostport)]
	}
	if !allowed(target) {
		return nil, fmt.Errorf("%s: %w (give it with --allow-origin)", target, ErrNotAllowed)
	}
	creds := insecure.NewCredentials()
	if tlsOn {
		creds = credentials.NewTLS(&tls.Config{MinVersion: tls.VersionTLS12})
	}
	dialer := &net.Dialer{Timeout: r.c.timeout}
	return grpc.NewClient("passthrough:///"+target,
		grpc.WithTransportCredentials(creds),
		grpc.WithContextDialer(func(ctx context.Context, addr string) (net.Conn, error) {
			if !allowed(addr) {
				return nil, fmt.Errorf("%s: %w", addr, ErrNotAllowed)
			}
			return dialer.DialContext(ctx, "tcp", addr)
		}),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(int(min(r.c.maxBody, 1<<30)))),
	)
}

func (p *grpcProbe) pass(id string) { p.r.pass(id, "1.0") }
func (p *grpcProbe) failf(id, format string, args ...any) {
	p.r.fail(id, "1.0", format, args...)
}
func (p *grpcProbe) skip(id, format string, args ...any) { p.r.skip(id, "1.0", format, args...) }
func (p *grpcProbe) result(id, why string) {
	if why == "" {
		p.pass(id)
	} else {
		p.failf(id, "%s", why)
	}
}

// ctx bounds one call and sends the a2a-version metadata.
func (p *grpcProbe) ctx(parent context.Context, version string) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(parent, p.r.c.timeout)
	return metadata.AppendToOutgoingContext(ctx, "a2a-version", version), cancel
}

func (p *grpcProbe) request(text string) *a2apb.SendMessageRequest {
	p.seq++
	return &a2apb.SendMessageRequest{Message: &a2apb.Message{
		MessageId: fmt.Sprintf("agentnet-audit-grpc-%d", p.seq), Role: a2apb.Role_ROLE_USER,
		Parts: []*a2apb.Part{{Content: &a2apb.Part_Text{Text: text}}},
	}}
}

// asMap is a protobuf message in its JSON form, for the checks shared with
// the JSON bindings.
func asMap(m proto.Message) map[string]any {
	data, err := protojson.Marshal(m)
	if err != nil {
		return nil
	}
	var out map[string]any
	if json.Unmarshal(data, &out) != nil {
		return nil
	}
	return out
}

func (p *grpcProbe) runAll(ctx context.Context) {
	p.send(ctx)
	p.getTask(ctx)
	p.notFound(ctx)
	p.listTasks(ctx)
	p.stream(ctx)
	p.subscribeFinished(ctx)
	p.cancelFinished(ctx)
	p.version(ctx)
}

func (p *grpcProbe) cancelFinished(ctx context.Context) {
	if p.task == nil || !terminal(p.state()) {
		p.skip(GRPCCancelFinished, "no finished task to cancel")
		return
	}
	cctx, cancel := p.ctx(ctx, "1.0")
	defer cancel()
	_, err := p.cl.CancelTask(cctx, &a2apb.CancelTaskRequest{Id: p.taskID()})
	codeWhy, infoWhy := grpcError(err, codes.FailedPrecondition, "TASK_NOT_CANCELABLE")
	if codeWhy == "" {
		codeWhy = infoWhy
	}
	p.result(GRPCCancelFinished, codeWhy)
}

func (p *grpcProbe) send(ctx context.Context) {
	cctx, cancel := p.ctx(ctx, "1.0")
	defer cancel()
	resp, err := p.cl.SendMessage(cctx, p.request(p.r.sampleText()))
	if err != nil {
		p.failf(GRPCSend, "SendMessage: %v", err)
		return
	}
	ev, err := v10.decodeEvent(mustJSON(asMap(resp)), false)
	if err != nil {
		p.failf(GRPCSend, "SendMessage: %v", err)
		return
	}
	p.pass(GRPCSend)
	if ev.kind == "task" {
		p.task = ev.obj
		p.settle(ctx)
		p.r.answer("grpc", replyText(p.task))
	} else {
		p.r.answer("grpc", replyText(ev.obj))
	}
}

func (p *grpcProbe) taskID() string {
	s, _ := p.task["id"].(string)
	return s
}

func (p *grpcProbe) state() string {
	st, _ := p.task["status"].(map[string]any)
	s, _ := st["state"].(string)
	return normState(s)
}

func (p *grpcProbe) settle(ctx context.Context) {
	for range 50 {
		if s := p.state(); terminal(s) || interrupted(s) {
			return
		}
		cctx, cancel := p.ctx(ctx, "1.0")
		t, err := p.cl.GetTask(cctx, &a2apb.GetTaskRequest{Id: p.taskID()})
		cancel()
		if err != nil {
			return
		}
		p.task = asMap(t)
		select {
		case <-ctx.Done():
			return
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func (p *grpcProbe) getTask(ctx context.Context) {
	if p.task == nil {
		p.skip(GRPCGetTask, "SendMessage created no task to work with")
		return
	}
	cctx, cancel := p.ctx(ctx, "1.0")
	defer cancel()
	t, err := p.cl.GetTask(cctx, &a2apb.GetTaskRequest{Id: p.taskID()})
	switch {
	case err != nil:
		p.failf(GRPCGetTask, "GetTask: %v", err)
	case t.GetId() != p.taskID():
		p.failf(GRPCGetTask, "GetTask returned task %q, want %q", t.GetId(), p.taskID())
	default:
		p.pass(GRPCGetTask)
	}
}

// grpcError says why err is not a gRPC status code with an ErrorInfo of
// reason, or "".
func grpcError(err error, code codes.Code, reason string) (codeWhy, infoWhy string) {
	st, ok := status.FromError(err)
	if err == nil || !ok {
		return fmt.Sprintf("the call succeeded or failed without a gRPC status (%v), want %s", err, code), "no gRPC status"
	}
	if st.Code() != code {
		codeWhy = fmt.Sprintf("status %s (%s), want %s", st.Code(), oneLine(st.Message()), code)
	}
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			if info.GetReason() != reason || info.GetDomain() != errorInfoDomain {
				return codeWhy, fmt.Sprintf("ErrorInfo has reason %q and domain %q, want %s and %s", info.GetReason(), info.GetDomain(), reason, errorInfoDomain)
			}
			return codeWhy, ""
		}
	}
	return codeWhy, fmt.Sprintf("the status details have no google.rpc.ErrorInfo (reason %s, domain %s)", reason, errorInfoDomain)
}

func (p *grpcProbe) notFound(ctx context.Context) {
	cctx, cancel := p.ctx(ctx, "1.0")
	_, err := p.cl.GetTask(cctx, &a2apb.GetTaskRequest{Id: unknownTaskID})
	cancel()
	codeWhy, infoWhy := grpcError(err, codes.NotFound, "TASK_NOT_FOUND")
	p.result(GRPCNotFound, codeWhy)
	p.result(GRPCErrorInfo, infoWhy)
	cctx, cancel = p.ctx(ctx, "1.0")
	_, err = p.cl.CancelTask(cctx, &a2apb.CancelTaskRequest{Id: unknownTaskID})
	cancel()
	codeWhy, _ = grpcError(err, codes.NotFound, "TASK_NOT_FOUND")
	p.result(GRPCCancelNotFound, codeWhy)
}

func (p *grpcProbe) listTasks(ctx context.Context) {
	if p.task == nil {
		p.skip(GRPCListTasks, "SendMessage created no task to list")
		return
	}
	cctx, cancel := p.ctx(ctx, "1.0")
	p.cl.SendMessage(cctx, p.request(p.r.sampleText())) // a second task, for a second page
	cancel()
	token, seen := "", 0
	size := int32(1)
	for page := 1; page <= 3; page++ {
		cctx, cancel := p.ctx(ctx, "1.0")
		resp, err := p.cl.ListTasks(cctx, &a2apb.ListTasksRequest{PageSize: &size, PageToken: token})
		cancel()
		if status.Code(err) == codes.Unauthenticated {
			p.skip(GRPCListTasks, "ListTasks lists a caller's tasks only to an authenticated caller, and the audit sends no credentials")
			return
		}
		if err != nil {
			p.failf(GRPCListTasks, "ListTasks: %v", err)
			return
		}
		if len(resp.GetTasks()) > 1 {
			p.failf(GRPCListTasks, "ListTasks with page_size 1 returned %d tasks", len(resp.GetTasks()))
			return
		}
		seen += len(resp.GetTasks())
		if token = resp.GetNextPageToken(); token == "" {
			break
		}
	}
	if seen == 0 {
		p.failf(GRPCListTasks, "ListTasks listed no task, though SendMessage created %s", p.taskID())
		return
	}
	p.pass(GRPCListTasks)
}

// drain reads a server stream to its end: the responses, and the error
// that ended it (nil at a clean end).
func drain(s grpc.ServerStreamingClient[a2apb.StreamResponse]) ([]*a2apb.StreamResponse, error) {
	var out []*a2apb.StreamResponse
	for {
		m, err := s.Recv()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, m)
	}
}

func (p *grpcProbe) stream(ctx context.Context) {
	if !p.r.capability("streaming") {
		p.skip(GRPCStream, "the card does not declare streaming")
		return
	}
	cctx, cancel := p.ctx(ctx, "1.0")
	defer cancel()
	s, err := p.cl.SendStreamingMessage(cctx, p.request(p.r.sampleText()))
	if err != nil {
		p.failf(GRPCStream, "SendStreamingMessage: %v", err)
		return
	}
	msgs, err := drain(s)
	switch {
	case err != nil:
		p.failf(GRPCStream, "the stream ended with %v after %d responses", err, len(msgs))
	case len(msgs) == 0:
		p.failf(GRPCStream, "the stream carried no StreamResponse")
	default:
		p.pass(GRPCStream)
	}
}

func (p *grpcProbe) subscribeFinished(ctx context.Context) {
	switch {
	case !p.r.capability("streaming"):
		p.skip(GRPCSubscribe, "the card does not declare streaming")
		return
	case p.task == nil || !terminal(p.state()):
		p.skip(GRPCSubscribe, "no finished task to subscribe to")
		return
	}
	cctx, cancel := p.ctx(ctx, "1.0")
	defer cancel()
	s, err := p.cl.SubscribeToTask(cctx, &a2apb.SubscribeToTaskRequest{Id: p.taskID()})
	var msgs []*a2apb.StreamResponse
	if err == nil {
		msgs, err = drain(s)
	}
	codeWhy, infoWhy := grpcError(err, codes.FailedPrecondition, "UNSUPPORTED_OPERATION")
	if len(msgs) > 0 {
		codeWhy = fmt.Sprintf("SubscribeToTask of a %s task streamed %d responses; %s", p.state(), len(msgs), codeWhy)
	}
	if codeWhy == "" {
		codeWhy = infoWhy
	}
	p.result(GRPCSubscribe, codeWhy)
}

func (p *grpcProbe) version(ctx context.Context) {
	cctx, cancel := p.ctx(ctx, unsupportedVersion)
	defer cancel()
	_, err := p.cl.SendMessage(cctx, p.request(p.r.sampleText()))
	codeWhy, infoWhy := grpcError(err, codes.FailedPrecondition, "VERSION_NOT_SUPPORTED")
	if codeWhy == "" {
		codeWhy = infoWhy
	}
	p.result(GRPCVersion, codeWhy)
}
