package generation

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/cards"
	"github.com/agentnet/agentnet/internal/yamlx"
)

// GateError is why a bundle failed the generation gate.
type GateError struct {
	Stage string // load, skills, setup, deploy, card
	Err   error
}

func (e *GateError) Error() string { return fmt.Sprintf("%s: %v", e.Stage, e.Err) }
func (e *GateError) Unwrap() error { return e.Err }

// Gate decides whether the bundle in dir generates an agent (docs/results.md,
// "Metrics"): it loads and validates agent.yaml, requires a skill with a
// non-empty definition, runs setup and check, hosts the bundle on a loopback
// port, fetches the card from its well-known path over HTTP and validates and
// lints it. It returns the skill ids, or a *GateError.
func Gate(ctx context.Context, dir string, env []string, log io.Writer) ([]string, error) {
	if log == nil {
		log = io.Discard
	}
	b, err := bundle.Load(dir)
	if err != nil {
		if ps, ok := yamlx.AsProblems(err); ok {
			return nil, &GateError{Stage: "load", Err: fmt.Errorf("invalid agent.yaml:\n%w", ps)}
		}
		return nil, &GateError{Stage: "load", Err: err}
	}
	var ids []string
	for _, s := range b.Skills {
		if s.Name != "" && s.Description != "" && len(s.Run) > 0 {
			ids = append(ids, s.ID)
		}
	}
	// A bundle that brings its own server declares its skills in the card it
	// serves; they are counted there.
	ownServer := len(b.Serve) > 0
	if len(ids) == 0 && !ownServer {
		return nil, &GateError{Stage: "skills", Err: errors.New("the bundle has no skill with a name, a description and a run command")}
	}
	if err := host.Prepare(ctx, b, true, env, log); err != nil {
		return nil, &GateError{Stage: "setup", Err: err}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, &GateError{Stage: "deploy", Err: err}
	}
	url := fmt.Sprintf("http://%s/", ln.Addr().String())
	h, err := host.New(b, url, host.WithEnv(env))
	if err != nil {
		ln.Close()
		return nil, &GateError{Stage: "deploy", Err: err}
	}
	defer h.Close()
	srv := h.Server(host.DefaultTimeouts)
	go srv.Serve(ln)
	defer func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	card, err := fetchCard(ctx, url+host.CardPath[1:])
	if err != nil {
		return nil, &GateError{Stage: "card", Err: err}
	}
	if ps := cards.Validate(card); ps != nil {
		return nil, &GateError{Stage: "card", Err: fmt.Errorf("the served card fails validation:\n%w", ps)}
	}
	if ownServer {
		parsed, err := cards.Parse(card)
		if err != nil {
			return nil, &GateError{Stage: "card", Err: err}
		}
		for _, s := range parsed.Skills {
			if s.Name != "" && s.Description != "" {
				ids = append(ids, s.ID)
			}
		}
		if len(ids) == 0 {
			return nil, &GateError{Stage: "skills", Err: errors.New("the agent's own server serves a card with no skill that has a name and a description")}
		}
	}
	fmt.Fprintf(log, "# gate passed: card served at %s with %d skills\n", url, len(ids))
	return ids, nil
}

func fetchCard(ctx context.Context, url string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch card: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return nil, fmt.Errorf("fetch card: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetch card: %s", resp.Status)
	}
	return data, nil
}
