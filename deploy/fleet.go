package deploy

import (
	"context"
	"errors"
	"sort"
	"sync"

	"golang.org/x/sync/errgroup"
)

// UpAll starts every spec on rt, at most parallel at a time, and returns
// the agents that started, sorted by name — on an error too, so that the
// caller can take down what did start. The first failure cancels the
// starts still pending.
func UpAll(ctx context.Context, rt Runtime, specs []Spec, parallel int) ([]*Agent, error) {
	var mu sync.Mutex
	var started []*Agent
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(parallel, 1))
	for _, s := range specs {
		g.Go(func() error {
			a, err := rt.Up(gctx, s)
			if err != nil {
				return err
			}
			mu.Lock()
			started = append(started, a)
			mu.Unlock()
			return nil
		})
	}
	err := g.Wait()
	sort.Slice(started, func(i, j int) bool { return started[i].Name < started[j].Name })
	return started, err
}

// DownAll stops every agent, going on past failures, and returns them
// joined.
func DownAll(ctx context.Context, rt Runtime, agents []*Agent) error {
	var errs []error
	for _, a := range agents {
		if err := rt.Down(ctx, a); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
