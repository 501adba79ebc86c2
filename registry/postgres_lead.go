package registry

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Registry instances on one PostgreSQL database elect one prober with a
// session-level advisory lock: the instance whose dedicated connection holds
// it runs the rounds; the others try to take it at each of their ticks, and
// one of them gets it once the leader resigns or its session ends (the
// process exits or dies, its connection breaks, an administrator
// terminates it).
//
// Why a lock rather than a per-round claim of each agent (UPDATE ... SET
// probed_at = now() WHERE probed_at < now() - interval RETURNING ...): a
// claim needs a new column and a schema migration, and with jittered ticks
// an agent claimed by one instance would not be due yet at another's next
// tick, so intervals would stretch up to twice their length unless the
// claim window shrank, which lets two instances probe it in one interval
// again. The lock keeps a round what it is with one instance: every agent
// once per interval, counts of consecutive failures per round. What it
// gives up: the probing load is not spread over the instances (it is one
// instance's, as before), and a leader that hangs with its session alive
// keeps the lead. When a leader loses its session in the middle of a round,
// another may start one before the first notices, so a few agents can be
// probed twice in that interval.

// pgProbeLockClass is the first key of the probe lock ("agnt" in ASCII);
// the second is the agents table's oid, so that registries in different
// schemas of one database (search_path) each elect their own prober. The
// two-key lock space is apart from pgMigrateLock's one-key space.
const pgProbeLockClass int32 = 0x61676e74

// pgLeadTimeout bounds each exchange on the lock connection, so that a tick
// on a half-open connection fails rather than hangs.
const pgLeadTimeout = 10 * time.Second

// pgLeadKeepalives make the server notice a leader whose host vanished
// (power, network) within about 25 s rather than the operating system's
// default of two hours: until it does, the session, and so the lock, stays.
// A setting the database URL gives is kept.
var pgLeadKeepalives = []struct{ name, value string }{
	{"tcp_keepalives_idle", "10"},
	{"tcp_keepalives_interval", "5"},
	{"tcp_keepalives_count", "3"},
}

var errStoreClosed = errors.New("store closed")

// pgLeader is a PostgresStore's side of the probe election: a connection of
// its own, outside the pool, since a session-level lock belongs to a
// session and a pool would share it among statements and recycle it.
type pgLeader struct {
	mu      sync.Mutex
	conn    *pgx.Conn // nil until the first LeadProbes and after a failure
	leading bool      // conn holds the lock
	closed  bool
}

var _ ProbeLeader = (*PostgresStore)(nil)

// LeadProbes implements ProbeLeader with a session-level advisory lock on a
// dedicated connection, opened at the first call and kept, leader or not.
// Leadership needs that session to be the server's own: a pooler between
// them (PgBouncer) must run in session mode.
func (s *PostgresStore) LeadProbes(ctx context.Context) (bool, error) {
	l := &s.lead
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return false, fmt.Errorf("lead probes: %w", errStoreClosed)
	}
	ctx, cancel := context.WithTimeout(ctx, pgLeadTimeout)
	defer cancel()
	if l.leading {
		// The session holds the lock until it unlocks or ends, and only
		// this code unlocks: a round trip shows the lock is still ours.
		if _, err := l.conn.Exec(ctx, "SELECT 1"); err != nil {
			l.drop()
			return false, fmt.Errorf("lead probes: lost the lock's session: %w", err)
		}
		return true, nil
	}
	if l.conn == nil {
		conn, err := s.leadConn(ctx)
		if err != nil {
			return false, fmt.Errorf("lead probes: %w", err)
		}
		l.conn = conn
	}
	var ok bool
	err := l.conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1, 'agents'::regclass::oid::int4)",
		pgProbeLockClass).Scan(&ok)
	if err != nil {
		l.drop()
		return false, fmt.Errorf("lead probes: %w", err)
	}
	l.leading = ok
	return ok, nil
}

// leadConn opens the lock connection, with the pool's settings and
// keepalives.
func (s *PostgresStore) leadConn(ctx context.Context) (*pgx.Conn, error) {
	cfg := s.pool.Config().ConnConfig
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	var sets []string
	for _, k := range pgLeadKeepalives {
		if _, given := cfg.RuntimeParams[k.name]; !given {
			sets = append(sets, fmt.Sprintf("set_config('%s', '%s', false)", k.name, k.value))
		}
	}
	if len(sets) > 0 {
		if _, err := conn.Exec(ctx, "SELECT "+strings.Join(sets, ", ")); err != nil {
			conn.Close(ctx)
			return nil, fmt.Errorf("set keepalives: %w", err)
		}
	}
	return conn, nil
}

// ResignProbes implements ProbeLeader: it unlocks, so that the next
// instance to try leads at once, and closes the lock connection.
func (s *PostgresStore) ResignProbes(ctx context.Context) error {
	l := &s.lead
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.resign(ctx)
}

func (l *pgLeader) resign(ctx context.Context) error {
	if l.conn == nil {
		return nil
	}
	var err error
	if l.leading {
		// Closing the session would release the lock too, but the server
		// does so after Close returns; unlocking first releases it before.
		_, err = l.conn.Exec(ctx, "SELECT pg_advisory_unlock($1, 'agents'::regclass::oid::int4)", pgProbeLockClass)
		if err != nil {
			err = fmt.Errorf("resign probes: %w", err)
		}
	}
	l.drop()
	return err
}

// drop closes the lock connection: whatever it held is released when the
// server ends the session.
func (l *pgLeader) drop() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	l.conn.Close(ctx)
	l.conn, l.leading = nil, false
}

// close resigns for good: LeadProbes fails from now on. A failed unlock
// is no error here: closing the session releases the lock as well.
func (l *pgLeader) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	ctx, cancel := context.WithTimeout(context.Background(), pgLeadTimeout)
	defer cancel()
	l.resign(ctx)
}
