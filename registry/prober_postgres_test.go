package registry

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// postgresInstances returns n registries on one new database, each with a
// store of its own, as n registry processes would have.
func postgresInstances(t *testing.T, n int) []*testRegistry {
	t.Helper()
	dsn := needPostgres(t).newDB(t)
	regs := make([]*testRegistry, n)
	for i := range regs {
		s, err := OpenPostgres(t.Context(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		regs[i] = newTestRegistryOn(t, s)
	}
	return regs
}

// waitFor polls cond until it holds; a minute without is a failure (a hang,
// not a slow run: each condition takes a few ticks of milliseconds).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within a minute", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestPostgresProbeLead takes the probe lead through the ways it moves
// between stores on one database: held, resigned, lost with the session
// (as when a registry process dies), and released by Close. Registries in
// other schemas of the database elect their own leader.
func TestPostgresProbeLead(t *testing.T) {
	t.Parallel()
	dsn := needPostgres(t).newDB(t)
	ctx := t.Context()
	open := func(dsn string) *PostgresStore {
		s, err := OpenPostgres(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	a, b := open(dsn), open(dsn)
	lead := func(name string, s *PostgresStore, want, wantErr bool) {
		t.Helper()
		got, err := s.LeadProbes(ctx)
		if got != want || (err != nil) != wantErr {
			t.Fatalf("%s.LeadProbes() = %v, %v; want %v (an error: %v)", name, got, err, want, wantErr)
		}
	}

	lead("a", a, true, false)
	lead("b", b, false, false)
	lead("a", a, true, false) // keeps it
	lead("b", b, false, false)
	a.lead.mu.Lock()
	var idle string
	err := a.lead.conn.QueryRow(ctx, "SHOW tcp_keepalives_idle").Scan(&idle)
	a.lead.mu.Unlock()
	if err != nil || idle != "10" {
		t.Errorf("leader's tcp_keepalives_idle = %q, %v; want 10 (a vanished host found within seconds)", idle, err)
	}

	if err := a.ResignProbes(ctx); err != nil {
		t.Fatalf("a.ResignProbes() = %v", err)
	}
	lead("b", b, true, false) // at once: the lock was released before ResignProbes returned
	lead("a", a, false, false)

	// b's session ends without a word, as when its process is killed: the
	// server releases the lock, a takes over, and b finds it lost it.
	admin, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.WithoutCancel(ctx))
	var pid int32
	err = admin.QueryRow(ctx, `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted
		AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
		AND classid::int8 = $1 AND objid = 'agents'::regclass::oid AND objsubid = 2`, int64(pgProbeLockClass)).Scan(&pid)
	if err != nil {
		t.Fatalf("find the probe lock's holder: %v", err)
	}
	if _, err := admin.Exec(ctx, "SELECT pg_terminate_backend($1)", pid); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "end of the terminated session", func() bool {
		var n int
		if err := admin.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE pid = $1", pid).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n == 0
	})
	lead("a", a, true, false)
	lead("b", b, false, true)  // its session is gone
	lead("b", b, false, false) // a new one, and a leads

	// A registry in another schema of the same database leads its own
	// probes.
	if _, err := admin.Exec(ctx, "CREATE SCHEMA other"); err != nil {
		t.Fatal(err)
	}
	c := open(dsn + "&search_path=other")
	lead("c (schema other)", c, true, false)
	lead("a", a, true, false)

	// Closing a store releases the lead; a closed store never leads.
	a.Close()
	lead("b", b, true, false)
	if got, err := a.LeadProbes(ctx); got || !errors.Is(err, errStoreClosed) {
		t.Errorf("closed a.LeadProbes() = %v, %v; want false, store closed", got, err)
	}
}

// TestPostgresProbesOncePerRound runs two registry instances' probers over
// one database on a short interval: one leads and probes every agent once a
// round; the other, ticking as often, probes nothing. So a down agent's
// consecutive failures count rounds, not rounds times instances.
func TestPostgresProbesOncePerRound(t *testing.T) {
	t.Parallel()
	regs := postgresInstances(t, 2)
	agents := newFakeAgents(t)
	names := []string{"up-a", "up-b", "down"}
	ids := map[string]string{}
	for _, n := range names {
		agents.set(t, n, testCard(n, "An agent.", skill("s", "Does things.")))
		ids[n] = mustRegister(t, regs[0].client, agents.url(n)).ID
	}
	agents.remove("down")
	before := map[string]int{}
	for _, n := range names {
		before[n] = agents.fetches(n)
	}

	const minRounds = 5
	ctx, cancel := context.WithCancel(t.Context())
	var (
		wg            sync.WaitGroup
		mu            sync.Mutex
		ticks, rounds [2]int
	)
	t.Cleanup(func() { cancel(); wg.Wait() })
	for i, reg := range regs {
		p := NewProber(reg.svc, WithInterval(5*time.Millisecond), WithJitter(0))
		p.afterTick = func(ran bool, rr RoundResult, err error) {
			mu.Lock()
			defer mu.Unlock()
			ticks[i]++
			if !ran {
				return
			}
			rounds[i]++
			if err != nil || rr != (RoundResult{Up: 2, Down: 1}) {
				t.Errorf("instance %d: Round() = %+v, %v; want 2 up, 1 down", i, rr, err)
			}
			// Stop here, between rounds, once this instance has run
			// enough and the other has had as many chances to.
			if rounds[i] >= minRounds && ticks[1-i] >= minRounds {
				cancel()
			}
		}
		wg.Go(func() {
			if err := p.Run(ctx); err != nil {
				t.Errorf("instance %d: Run() = %v", i, err)
			}
		})
	}
	waitFor(t, "stop after enough rounds", func() bool { return ctx.Err() != nil })
	wg.Wait()

	lead, follow := 0, 1
	if rounds[1] > 0 {
		lead, follow = 1, 0
	}
	if rounds[follow] != 0 || rounds[lead] < minRounds {
		t.Fatalf("rounds run by each instance = %v in ticks %v; want one instance to run them all", rounds, ticks)
	}
	if ticks[follow] < minRounds || ticks[lead] != rounds[lead] {
		t.Errorf("ticks = %v, rounds = %v; want the leader to probe at each tick, the other to tick and wait", ticks, rounds)
	}
	n := rounds[lead]
	for _, name := range names {
		if got := agents.fetches(name) - before[name]; got != n {
			t.Errorf("agent %s fetched %d times in %d rounds; want once a round", name, got, n)
		}
	}
	for _, name := range names {
		rec, err := regs[follow].svc.Get(t.Context(), ids[name])
		if err != nil {
			t.Fatal(err)
		}
		want, failures := StatusUp, 0
		if name == "down" {
			want, failures = StatusDown, n
		}
		if rec.Health.Status != want || rec.Health.Failures != failures {
			t.Errorf("agent %s after %d rounds: health = %+v; want %s with %d failures", name, n, rec.Health, want, failures)
		}
	}
}

// TestPostgresProbeTakeover closes the leading instance's store while its
// prober hangs between rounds: the other instance takes the lead and
// records an agent that went down since.
func TestPostgresProbeTakeover(t *testing.T) {
	t.Parallel()
	regs := postgresInstances(t, 2)
	agents := newFakeAgents(t)
	agents.set(t, "flaky", reverserCard())
	id := mustRegister(t, regs[0].client, agents.url("flaky")).ID

	ctx, cancel := context.WithCancel(t.Context())
	var (
		wg            sync.WaitGroup
		mu            sync.Mutex
		leader        = -1
		ticks, rounds [2]int
		downRounds    [2]int
		frozen        = make(chan struct{}) // closed to let the first leader's prober go on
		unfreeze      = sync.OnceFunc(func() { close(frozen) })
	)
	t.Cleanup(func() { cancel(); unfreeze(); wg.Wait() })
	for i, reg := range regs {
		p := NewProber(reg.svc, WithInterval(5*time.Millisecond), WithJitter(0))
		p.afterTick = func(ran bool, rr RoundResult, err error) {
			mu.Lock()
			ticks[i]++
			if !ran {
				mu.Unlock()
				return
			}
			rounds[i]++
			first := leader == -1
			if first {
				leader = i
			}
			if rr.Down > 0 {
				downRounds[i]++
				// Stop here, between rounds, so that every probe made
				// is recorded.
				cancel()
			}
			mu.Unlock()
			if first {
				// The first leader hangs with the lead until released.
				if err != nil || rr.Up != 1 {
					t.Errorf("instance %d: first Round() = %+v, %v; want 1 up", i, rr, err)
				}
				<-frozen
			}
		}
		wg.Go(func() {
			if err := p.Run(ctx); err != nil {
				t.Errorf("instance %d: Run() = %v", i, err)
			}
		})
	}
	count := func(c *[2]int, i int) func() int {
		return func() int {
			mu.Lock()
			defer mu.Unlock()
			return c[i]
		}
	}
	waitFor(t, "first round", func() bool { return count(&rounds, 0)()+count(&rounds, 1)() > 0 })
	mu.Lock()
	lead, follow := leader, 1-leader
	mu.Unlock()
	// While the leader holds the lead, the other ticks and waits.
	since := count(&ticks, follow)()
	waitFor(t, "ticks of the other instance", func() bool { return count(&ticks, follow)() >= since+2 })
	if got := count(&rounds, follow)(); got != 0 {
		t.Fatalf("instance %d ran %d rounds while instance %d led", follow, got, lead)
	}

	if err := regs[lead].store.Close(); err != nil {
		t.Fatalf("leader's store Close() = %v", err)
	}
	agents.remove("flaky")
	waitFor(t, "round that finds the agent down", func() bool { return ctx.Err() != nil })
	unfreeze()
	wg.Wait()

	if rounds[lead] != 1 || downRounds[follow] != 1 {
		t.Errorf("rounds = %v, rounds finding the agent down = %v; want 1 by instance %d before its store closed, "+
			"then instance %d's", rounds, downRounds, lead, follow)
	}
	rec, err := regs[follow].svc.Get(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Health.Status != StatusDown || rec.Health.Failures != 1 || rec.Health.Error == "" {
		t.Errorf("agent after the takeover: health = %+v; want down with 1 failure and a reason", rec.Health)
	}
}
