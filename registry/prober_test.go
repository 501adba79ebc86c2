package registry

import (
	"context"
	"testing"
	"time"
)

func TestProberRound(t *testing.T) {
	t.Parallel()
	testProberRound(t, newTestRegistry(t), newFakeAgents(t))
}

// testProberRound takes an agent through up, changed, down and back;
// TestPostgresService runs it on the PostgreSQL store.
func testProberRound(t *testing.T, reg *testRegistry, agents *fakeAgents) {
	ctx := t.Context()
	agents.set(t, "reverser", reverserCard())
	rec := mustRegister(t, reg.client, agents.url("reverser"))
	p := NewProber(reg.svc, WithConcurrency(2))

	changedCard := reverserCard()
	changedCard.Version = "2.0.0"
	steps := []struct {
		name      string
		change    func()
		want      Status
		failures  int
		seenMoves bool
		round     RoundResult
	}{
		{"up", func() {}, StatusUp, 0, true, RoundResult{Up: 1}},
		{"changed", func() { agents.set(t, "reverser", changedCard) }, StatusChanged, 0, true, RoundResult{Changed: 1}},
		{"down", func() { agents.remove("reverser") }, StatusDown, 1, false, RoundResult{Down: 1}},
		{"still down", func() {}, StatusDown, 2, false, RoundResult{Down: 1}},
		{"back", func() { agents.set(t, "reverser", reverserCard()) }, StatusUp, 0, true, RoundResult{Up: 1}},
	}
	last := rec.LastSeen
	for _, st := range steps {
		st.change()
		time.Sleep(2 * time.Millisecond) // a later millisecond for last_seen
		rr, err := p.Round(ctx)
		if err != nil {
			t.Fatalf("%s: Round() = %v", st.name, err)
		}
		if rr != st.round {
			t.Errorf("%s: Round() = %+v, want %+v", st.name, rr, st.round)
		}
		got, err := reg.svc.Get(ctx, rec.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Health.Status != st.want || got.Health.Failures != st.failures {
			t.Errorf("%s: health = %+v, want %s with %d failures", st.name, got.Health, st.want, st.failures)
		}
		if moved := got.LastSeen.After(last); moved != st.seenMoves {
			t.Errorf("%s: last seen moved = %v (%v → %v), want %v", st.name, moved, last, got.LastSeen, st.seenMoves)
		}
		if st.want == StatusDown && got.Health.Error == "" {
			t.Errorf("%s: down without a reason", st.name)
		}
		last = got.LastSeen
	}
}

func TestProberConcurrencyBound(t *testing.T) {
	t.Parallel()
	agents := newFakeAgents(t)
	reg := newTestRegistry(t)
	for i := range 12 {
		name := "agent" + string(rune('a'+i))
		agents.set(t, name, testCard(name, "An agent.", skill("s", "Does things.")))
		mustRegister(t, reg.client, agents.url(name))
	}
	agents.mu.Lock()
	agents.delay = 50 * time.Millisecond
	agents.mu.Unlock()
	agents.peak.Store(0)
	rr, err := NewProber(reg.svc, WithConcurrency(3)).Round(t.Context())
	if err != nil || rr.Up != 12 {
		t.Fatalf("Round() = %+v, %v; want 12 up", rr, err)
	}
	if peak := agents.peak.Load(); peak > 3 || peak < 2 {
		t.Errorf("peak probes in flight = %d, want 2..3 with WithConcurrency(3)", peak)
	}
}

func TestProberRun(t *testing.T) {
	t.Parallel()
	agents := newFakeAgents(t)
	reg := newTestRegistry(t)
	agents.set(t, "reverser", reverserCard())
	mustRegister(t, reg.client, agents.url("reverser"))
	before := agents.hits.Load()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error)
	go func() { done <- NewProber(reg.svc, WithInterval(20*time.Millisecond), WithJitter(0.5)).Run(ctx) }()
	deadline := time.After(5 * time.Second)
	for agents.hits.Load()-before < 3 {
		select {
		case <-deadline:
			t.Fatalf("the prober made %d probes in 5s, want 3", agents.hits.Load()-before)
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run() = %v after cancel, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run() did not stop after cancel")
	}
}

func TestProberJitter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		jitter   float64
		min, max time.Duration
	}{
		{0, time.Second, time.Second},
		{0.2, 800 * time.Millisecond, 1200 * time.Millisecond},
		{5, 0, 2 * time.Second}, // clamped to 1
	}
	for _, tt := range tests {
		p := NewProber(&Service{}, WithInterval(time.Second), WithJitter(tt.jitter))
		lo, hi := time.Hour, time.Duration(0)
		for range 2000 {
			d := p.next()
			lo, hi = min(lo, d), max(hi, d)
		}
		if lo < tt.min || hi > tt.max {
			t.Errorf("jitter %v: waits in [%v, %v], want within [%v, %v]", tt.jitter, lo, hi, tt.min, tt.max)
		}
		if tt.jitter > 0 && hi-lo < (tt.max-tt.min)/2 {
			t.Errorf("jitter %v: waits in [%v, %v] barely spread", tt.jitter, lo, hi)
		}
	}
}
