package generation

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
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

// GateResult is what the gate kept and left out of a bundle that reached
// its calls.
type GateResult struct {
	Skills  []string  // the skills that run, by id
	Dropped []Dropped // the skills that cannot run, removed from agent.yaml
}

// Gate decides whether the bundle in dir generates an agent (docs/results.md,
// "Metrics"): it loads and validates agent.yaml, requires a skill with a
// non-empty definition, runs setup and check, hosts the bundle on a loopback
// port, fetches the card from its well-known path over HTTP and validates and
// lints it, then calls every skill once over A2A with an example's arguments
// or arguments built from its parameters' types (smoke.go). A skill that
// cannot run is removed from agent.yaml and reported in Dropped; a bundle
// none of whose skills runs fails at stage "call". It returns the result,
// with a *GateError when the bundle failed (the result may then still say
// what was dropped).
func Gate(ctx context.Context, dir string, env []string, log io.Writer) (*GateResult, error) {
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
	if !ownServer {
		return callSkills(ctx, b, card, ids, log)
	}
	// A bundle's own server is not called: its skills take no arguments
	// the gate could build.
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
	fmt.Fprintf(log, "# gate passed: card served at %s with %d skills\n", url, len(ids))
	return &GateResult{Skills: ids}, nil
}

// callSkills smoke-calls the skills of the hosted bundle b and drops those
// that cannot run.
func callSkills(ctx context.Context, b *bundle.Bundle, card []byte, ids []string, log io.Writer) (*GateResult, error) {
	outs, err := smokeSkills(ctx, b, card, log)
	if err != nil {
		return nil, &GateError{Stage: "call", Err: err}
	}
	res := &GateResult{}
	drop := map[string]bool{}
	for _, o := range outs {
		if o.why != "" {
			res.Dropped = append(res.Dropped, Dropped{Skill: o.skill, Reason: o.why + ": " + firstLine(o.note)})
			drop[o.skill] = true
		}
	}
	for _, id := range ids {
		if !drop[id] {
			res.Skills = append(res.Skills, id)
		}
	}
	if len(res.Skills) == 0 {
		var whys []string
		for _, d := range res.Dropped {
			whys = append(whys, d.Skill+": "+d.Reason)
		}
		return res, &GateError{Stage: "call", Err: fmt.Errorf("no skill runs when called:\n%s", strings.Join(whys, "\n"))}
	}
	if len(drop) > 0 {
		if err := dropSkills(b.Path, drop); err != nil {
			return res, &GateError{Stage: "call", Err: fmt.Errorf("remove the skills that cannot run: %w", err)}
		}
	}
	fmt.Fprintf(log, "# gate passed: %d skills run, %d dropped\n", len(res.Skills), len(res.Dropped))
	return res, nil
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
