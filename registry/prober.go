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
//
// Registry instances that share one store coordinate through it when it is
// a ProbeLeader (the PostgreSQL store is): at each tick only the instance
// that leads runs a round, so every agent is probed once per interval
// however many instances there are.
type Prober struct {
	svc         *Service
	interval    time.Duration
	jitter      float64
	concurrency int
	log         *slog.Logger

	// afterTick, when set (by tests), is called by Run after each tick
	// with whether a round ran and its outcome.
	afterTick func(ran bool, rr RoundResult, err error)
}

// ProbeLeader is implemented by a Store that several registry instances
// (processes) may share, to elect the one that probes. Run checks for it on
// its store; without it, as with SQLite (one process owns the file), every
// Prober probes.
//
// Leadership belongs to the store value: Probers sharing one store lead
// together. Implementations are safe for concurrent use.
type ProbeLeader interface {
	// LeadProbes reports whether this store's instance leads the probes,
	// taking the lead if no other instance holds it. Once it leads it keeps
	// leading until ResignProbes, Close, or the loss of what it holds (its
	// database session); another instance then takes over at its next
	// call. An error means not leading.
	LeadProbes(ctx context.Context) (bool, error)
	// ResignProbes gives the lead up, if held, so that another instance
	// takes over at its next tick rather than when this store closes.
	ResignProbes(ctx context.Context) error
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
// interval after it starts, until ctx is done; it then returns nil. When its
// store is a ProbeLeader, each tick first asks it for the lead and runs the
// round only when this instance leads; on return Run resigns the lead.
func (p *Prober) Run(ctx context.Context) error {
	leader, _ := p.svc.store.(ProbeLeader)
	if leader != nil {
		defer func() {
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			if err := leader.ResignProbes(rctx); err != nil {
				p.log.Warn("resign health probes", "err", err)
			}
		}()
	}
	var known, leading bool // the lead as last seen, to log its changes
	for {
		t := time.NewTimer(p.next())
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
		if leader != nil {
			led, err := leader.LeadProbes(ctx)
			if ctx.Err() != nil {
				return nil
			}
			switch {
			case err != nil:
				p.log.Warn("health probes: cannot take the lead; this instance skips the round", "err", err)
			case !known || led != leading:
				if led {
					p.log.Info("health probes: this instance leads and probes every agent")
				} else {
					p.log.Info("health probes: another registry instance leads; this one waits")
				}
			}
			known, leading = err == nil, led
			if !led {
				if p.afterTick != nil {
					p.afterTick(false, RoundResult{}, nil)
				}
				continue
			}
		}
		rr, err := p.Round(ctx)
		if err != nil && ctx.Err() == nil {
			p.log.Warn("health round failed", "err", err)
		}
		if p.afterTick != nil {
			p.afterTick(true, rr, err)
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
// store error. It probes whether or not this instance leads (ProbeLeader):
// Run is what coordinates.
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
