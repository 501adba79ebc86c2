package host

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/agentnet/agentnet/internal/fetchpolicy"
)

// messageLimits checks each incoming message once a2a-go has decoded it and
// before it becomes a task: its role is user, it has at most
// WithMaxParts parts and at most WithMaxFileBytes bytes of files. The bytes
// of a large file part are moved to a spool file under the work root at
// once, so that neither the task store nor the copies a2a-go makes of the
// task on every event hold them; the task's run takes the file from there.
type messageLimits struct {
	a2asrv.PassthroughCallInterceptor
	h *Host
}

var _ a2asrv.CallInterceptor = messageLimits{}

// blockingMethod is a2a-go's name of the call that answers once, with the
// task as it ended.
const blockingMethod = "SendMessage"

// quietKey marks the context of a blocking, non-streaming call: its client
// sees the task only as it ends, so the task reports no progress on the
// way (each event costs a2a-go copies of the task).
type quietKey struct{}

// quiet reports whether ctx is a blocking call's (see quietKey).
func quiet(ctx context.Context) bool { return ctx.Value(quietKey{}) != nil }

// spoolMin is the size from which a file part's bytes are spooled.
const spoolMin = 64 << 10

// spoolKey is the part metadata key that names a spooled file's token.
const spoolKey = "agentnet.spooled"

func (l messageLimits) Before(ctx context.Context, cc *a2asrv.CallContext, req *a2asrv.Request) (context.Context, any, error) {
	r, ok := req.Payload.(*a2a.SendMessageRequest)
	if !ok || r.Message == nil {
		return ctx, nil, nil
	}
	if cc != nil && cc.Method() == blockingMethod && (r.Config == nil || !r.Config.ReturnImmediately) {
		ctx = context.WithValue(ctx, quietKey{}, true)
	}
	m, cfg := r.Message, &l.h.cfg
	if m.Role != a2a.MessageRoleUser {
		return ctx, nil, a2a.NewError(a2a.ErrInvalidParams, fmt.Sprintf("message role %q: a message to an agent is the user's (role user)", string(m.Role)))
	}
	if len(m.Parts) > cfg.maxParts {
		return ctx, nil, a2a.NewError(a2a.ErrInvalidParams, fmt.Sprintf("the message has %d parts; this agent takes at most %d (--max-parts)", len(m.Parts), cfg.maxParts))
	}
	var total int64
	for i, p := range m.Parts {
		if p == nil {
			continue
		}
		switch c := p.Content.(type) {
		case a2a.Raw:
			total += int64(len(c))
		case a2a.URL:
			vouch, _ := p.Metadata[fetchpolicy.VouchMetadataKey].(string)
			if why := l.h.fetcher.check(string(c), vouch); why != "" {
				return ctx, nil, a2a.NewError(a2a.ErrInvalidParams, fmt.Sprintf("part %d: file %q is not fetched: %s", i, p.Filename, why))
			}
		}
	}
	if total > cfg.maxFileBytes {
		return ctx, nil, a2a.NewError(a2a.ErrInvalidParams, fmt.Sprintf("the message's files hold %d bytes; this agent takes at most %d (--max-file-bytes)", total, cfg.maxFileBytes))
	}
	for _, p := range m.Parts {
		raw, ok := p.Content.(a2a.Raw)
		if !ok || len(raw) < spoolMin {
			continue
		}
		token, err := l.h.spool.put(raw)
		if err != nil {
			l.h.log.Error("spool a file part", "err", err)
			return ctx, nil, fmt.Errorf("internal error: %w", a2a.ErrInternalError)
		}
		// What stays in the message (and the task's history) is a note.
		p.Content = a2a.Text(fmt.Sprintf("[file %q, %d bytes, kept by the agent for the task]", p.Filename, len(raw)))
		if p.Metadata == nil {
			p.Metadata = map[string]any{}
		}
		p.Metadata[spoolKey] = token
	}
	return ctx, nil, nil
}

// spool holds the bytes of file parts on disk between the message's arrival
// and its task's run. Tokens are random and known only to the host: a
// caller that writes one into a part's metadata gets nothing.
type spool struct {
	dir string
	mu  sync.Mutex
	m   map[string]string // token → file
}

func (s *spool) put(data []byte) (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	token := hex.EncodeToString(b[:])
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return "", err
	}
	file := filepath.Join(s.dir, token)
	if err := os.WriteFile(file, data, 0o600); err != nil {
		return "", err
	}
	s.mu.Lock()
	if s.m == nil {
		s.m = map[string]string{}
	}
	s.m[token] = file
	s.mu.Unlock()
	return token, nil
}

// take returns the spooled file of token and forgets it; the caller owns the
// file. ok is false for a token the host never gave.
func (s *spool) take(token string) (file string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	file, ok = s.m[token]
	delete(s.m, token)
	return file, ok
}

// clear removes every spooled file not yet taken.
func (s *spool) clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for t, f := range s.m {
		os.Remove(f)
		delete(s.m, t)
	}
}
