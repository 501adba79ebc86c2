package bench

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agentnet/agentnet/cards"
	"github.com/agentnet/agentnet/orchestrator"
	"github.com/agentnet/agentnet/registry"
)

// startRegistry starts the run's embedded registry on a free loopback port
// and registers every deployed agent's card with it.
func (r *run) startRegistry(ctx context.Context) error {
	srv, err := registry.Start(ctx, registry.ServerConfig{
		Addr: "127.0.0.1:0", DB: filepath.Join(r.opts.Out, "registry.db"),
		Logger: r.opts.Logger.With("component", "registry"),
	})
	if err != nil {
		return fmt.Errorf("start the registry: %w", err)
	}
	r.registry = srv
	client := registry.NewClient(srv.URL)
	r.mu.Lock()
	defer r.mu.Unlock()
	for repo, a := range r.agents {
		rec, _, err := client.Register(ctx, a.URL)
		if err != nil {
			// The card passed the generation gate; a registry refusing it now
			// leaves the agent out of routing, which the chains will show.
			r.bar.line("register   %-32s failed: %v", repo, err)
			continue
		}
		r.byURL[norm(rec.URL)] = repo
	}
	return r.pruneRegistry(ctx, client)
}

// pruneRegistry deletes every record that is not one of this run's agents
// as registered just now: a resumed run's registry still holds the agents
// of the run that was killed, on ports nothing serves any more, listed as
// up until a probe says otherwise. Routing must never see them. The caller
// holds r.mu.
func (r *run) pruneRegistry(ctx context.Context, client *registry.Client) error {
	q := registry.Query{Limit: registry.MaxLimit, Statuses: registry.Statuses}
	var stale []registry.Hit
	for {
		page, err := client.List(ctx, q)
		if err != nil {
			return fmt.Errorf("list the run's registry: %w", err)
		}
		for _, h := range page.Hits {
			if _, ours := r.byURL[norm(h.URL)]; !ours {
				stale = append(stale, h)
			}
		}
		if page.NextCursor == "" {
			break
		}
		q.Cursor = page.NextCursor
	}
	for _, h := range stale {
		if err := client.Delete(ctx, h.ID); err != nil && !errors.Is(err, registry.ErrNotFound) {
			return fmt.Errorf("remove the stale record of %s: %w", h.URL, err)
		}
	}
	if len(stale) > 0 {
		r.bar.line("registry: removed %d record(s) of agents this run no longer serves", len(stale))
	}
	return nil
}

// RegistryDirectory is the orchestrator's view of a registry: every agent,
// with its card and health (the orchestrator leaves out the down ones).
type RegistryDirectory struct{ C *registry.Client }

var _ orchestrator.Directory = RegistryDirectory{}

// Agents implements orchestrator.Directory.
func (d RegistryDirectory) Agents(ctx context.Context) ([]orchestrator.Candidate, error) {
	var out []orchestrator.Candidate
	q := registry.Query{Limit: registry.MaxLimit}
	for {
		page, err := d.C.List(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, h := range page.Hits {
			card, err := cards.Parse(h.Card)
			if err != nil {
				continue // the registry validated it; an unreadable card is not routable
			}
			out = append(out, orchestrator.Candidate{ID: h.ID, URL: h.URL, Card: card, Status: string(h.Health.Status)})
		}
		if page.NextCursor == "" {
			return out, nil
		}
		q.Cursor = page.NextCursor
	}
}

// ownAgent is the directory of a single case: only its repo's agent.
type ownAgent struct{ c orchestrator.Candidate }

func (d ownAgent) Agents(context.Context) ([]orchestrator.Candidate, error) {
	return []orchestrator.Candidate{d.c}, nil
}

// pickOnly routes every step to the one candidate it is given: a single
// case is sent to its own repo's agent, not routed.
type pickOnly struct{}

func (pickOnly) Route(_ context.Context, _ orchestrator.Query, cs []orchestrator.Candidate) (orchestrator.Decision, error) {
	if len(cs) == 0 {
		return orchestrator.Decision{Reason: "the repo's agent is not available"}, nil
	}
	return orchestrator.Decision{Agent: &cs[0], Score: 1, Reason: "the case's own repo"}, nil
}

// candidate is the registry's record of a repo's agent, as a single case's
// one candidate.
func (r *run) candidate(ctx context.Context, repo string) (orchestrator.Candidate, error) {
	all, err := RegistryDirectory{registry.NewClient(r.registry.URL)}.Agents(ctx)
	if err != nil {
		return orchestrator.Candidate{}, err
	}
	for _, c := range all {
		if r.repoOf(c.URL) == repo {
			return c, nil
		}
	}
	return orchestrator.Candidate{}, errNoAgent
}

// repoOf names the repo whose agent serves url ("" when none).
func (r *run) repoOf(url string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byURL[norm(url)]
}

func norm(u string) string { return strings.TrimSuffix(u, "/") }
