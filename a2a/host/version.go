package host

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// Version negotiation (A2A 1.0 §3.6.2): a caller names the protocol
// version it speaks in the A2A-Version header (gRPC: a2a-version
// metadata), and a server that does not serve it answers
// VersionNotSupportedError — JSON-RPC -32009, HTTP+JSON 400 with an
// ErrorInfo of reason VERSION_NOT_SUPPORTED, gRPC FAILED_PRECONDITION with
// the same ErrorInfo. a2a-go v2.4.0 maps a2a.ErrVersionNotSupported to
// those three forms but never checks the header itself; versionGuard does,
// for every binding, before any handler runs.

// versionSet is what one binding serves: the versions, compared by
// major.minor (a patch number is ignored), and the version a request
// without the header is taken to ask for.
type versionSet struct {
	served []string
	absent string
}

var (
	// jsonrpcVersions: the JSON-RPC endpoint answers A2A 1.0 and 0.3
	// (serveJSONRPC tells them apart by the method's spelling); an empty
	// header means 0.3, as A2A 1.0 §3.6.2 says.
	jsonrpcVersions = versionSet{served: []string{"1.0", "0.3"}, absent: "0.3"}
	// bindingVersions: the HTTP+JSON and gRPC bindings exist here only in
	// their 1.0 form. A2A 0.3's are other paths (/v1/...) and another gRPC
	// service, so a request that reached these without the header is a
	// 1.0 one.
	bindingVersions = versionSet{served: []string{"1.0"}, absent: "1.0"}
)

// check returns "" when the set serves requested (empty: the set's
// default), else why not.
func (s versionSet) check(requested string) string {
	v := strings.TrimSpace(requested)
	if v == "" {
		v = s.absent
	}
	want, ok := majorMinor(v)
	if ok {
		for _, sv := range s.served {
			if have, _ := majorMinor(sv); have == want {
				return ""
			}
		}
	}
	return fmt.Sprintf("A2A-Version %q is not supported; this endpoint serves A2A %s", requested, strings.Join(s.served, " and "))
}

// majorMinor reduces a version ("1", "1.0", "1.0.1") to its major and
// minor numbers; ok is false for anything that is not MAJOR[.MINOR[.PATCH]].
func majorMinor(v string) (mm [2]int, ok bool) {
	parts := strings.Split(v, ".")
	if len(parts) > 3 {
		return mm, false
	}
	for i, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" || len(p) > 9 {
			return mm, false
		}
		n, _ := strconv.Atoi(p)
		if i < 2 {
			mm[i] = n
		}
	}
	return mm, true
}

type versionSetKey struct{}

// withVersions marks ctx as a request of a binding that serves s; a
// request without the mark is one of bindingVersions.
func withVersions(ctx context.Context, s versionSet) context.Context {
	return context.WithValue(ctx, versionSetKey{}, s)
}

// versionGuard refuses a request whose A2A-Version its binding does not
// serve, with a2a.ErrVersionNotSupported, which a2a-go writes in each
// binding's form.
type versionGuard struct {
	a2asrv.PassthroughCallInterceptor
}

var _ a2asrv.CallInterceptor = versionGuard{}

func (versionGuard) Before(ctx context.Context, cc *a2asrv.CallContext, _ *a2asrv.Request) (context.Context, any, error) {
	set, ok := ctx.Value(versionSetKey{}).(versionSet)
	if !ok {
		set = bindingVersions
	}
	var requested string
	if vs, _ := cc.ServiceParams().Get(a2a.SvcParamVersion); len(vs) > 0 {
		requested = vs[0]
	}
	if why := set.check(requested); why != "" {
		return ctx, nil, a2a.NewError(a2a.ErrVersionNotSupported, why)
	}
	return ctx, nil, nil
}
