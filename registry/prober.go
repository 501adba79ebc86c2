package registry

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"

	"golang.org/x/sync/errgroup"
)

// Prober defaults.
const (
	DefaultProbeInterval    = 30 * time.Second
	DefaultProbeJitter      = 0.2
	DefaultProbeConcurrency = 8
)

// Prober checks every registered agent on an interval by fetching its card:
// up when it equals the registered card, changed when it differs, down when
// it cannot be fetched. Run it in its own goroutine; it stops with its
// context.
type Prober struct {
	svc         *Service
	interval    time.Duration
	jitter      float64
	concurrency int
	log         *slog.Logger
}

// ProberOption configures a Prober.
type ProberOption func(*Prober)

// WithInterval sets the time between rounds (default DefaultProbeInterval).
func WithInterval(d time.Duration) ProberOption { return func(p *Prober) { p.interval = d } }

// WithJitter spreads rounds by ±f of the interval, so a fleet of registries
// started together does not probe in step (default DefaultProbeJitter; 0
// probes on the beat).
func WithJitter(f float64) ProberOption { return func(p *Prober) { p.jitter = max(0, min(f, 1)) } }

// WithConcurrency bounds the probes in flight (default
// DefaultProbeConcurrency).
func WithConcurrency(n int) ProberOption { return func(p *Prober) { p.concurrency = max(1, n) } }

// WithProberLogger sets the logger (default: the Service's).
func WithProberLogger(l *slog.Logger) ProberOption { return func(p *Prober) { p.log = l } }

// NewProber returns a Prober of svc's agents.
func NewProber(svc *Service, opts ...ProberOption) *Prober {
	p := &Prober{
		svc:         svc,
		interval:    DefaultProbeInterval,
		jitter:      DefaultProbeJitter,
		concurrency: DefaultProbeConcurrency,
		log:         svc.log,
	}
	for _, o := range opts {
		o(p)
	}
	return p
}

// Run probes every agent once per jittered interval, the first round one
// interval after it starts, until ctx is done; it then returns nil.
func (p *Prober) Run(ctx context.Context) error {
	for {
		t := time.NewTimer(p.next())
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
		if _, err := p.Round(ctx); err != nil && ctx.Err() == nil {
			p.log.Warn("health round failed", "err", err)
		}
	}
}

// next returns the wait before the next round.
func (p *Prober) next() time.Duration {
	f := 1 + p.jitter*(2*rand.Float64()-1)
	return time.Duration(float64(p.interval) * f)
}

// RoundResult counts the statuses one round found.
type RoundResult struct {
	Up, Down, Changed int
}

// Round probes every registered agent once, at most the configured number
// at a time, and records each outcome. It returns the counts, or the first
// store error.
func (p *Prober) Round(ctx context.Context) (RoundResult, error) {
	targets, err := p.svc.store.Targets(ctx)
	if err != nil {
		return RoundResult{}, err
	}
	results := make([]Status, len(targets))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(p.concurrency)
	for i, t := range targets {
		g.Go(func() (err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("probe agent %q: panic: %v", t.ID, r)
				}
			}()
			pr := p.svc.Check(gctx, t)
			if gctx.Err() != nil {
				return gctx.Err() // cancelled: a shutdown, not a down agent
			}
			results[i] = pr.Status
			if pr.Status != StatusUp {
				p.log.Info("agent health", "agent", t.ID, "url", t.URL, "status", pr.Status, "err", pr.Error)
			}
			return p.svc.store.SetHealth(gctx, t, pr)
		})
	}
	err = g.Wait()
	var rr RoundResult
	for _, st := range results {
		switch st {
		case StatusUp:
			rr.Up++
		case StatusDown:
			rr.Down++
		case StatusChanged:
			rr.Changed++
		}
	}
	return rr, err
}
