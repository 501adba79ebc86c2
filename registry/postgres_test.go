package registry

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// The PostgreSQL store's tests run against a real server that the tests
// start: a throwaway cluster (initdb) in a temporary directory, on a free
// loopback port, fsync off. One server serves the test binary, started by
// the first test that needs it and stopped by TestMain; each test gets a
// database of its own. Without PostgreSQL's binaries the tests skip, unless
// AGENTNET_REQUIRE_POSTGRES=1 (as CI sets it) makes that a failure.

// pgCluster is a running throwaway PostgreSQL server.
type pgCluster struct {
	dir  string // data, socket and log; removed by stop
	port int
	cmd  *exec.Cmd
	done chan struct{} // closed once the server exited

	mu  sync.Mutex // serializes CREATE DATABASE
	dbs int
}

// pgShared is the server of this test binary, once started.
var (
	pgSharedMu sync.Mutex
	pgShared   *pgCluster
	pgStart    = sync.OnceValues(startPostgres)
)

// stopPostgres stops the shared server, if one was started. TestMain calls
// it.
func stopPostgres() {
	pgSharedMu.Lock()
	defer pgSharedMu.Unlock()
	if pgShared != nil {
		pgShared.stop()
		pgShared = nil
	}
}

// postgresBinDir finds a directory with initdb and postgres: in PATH, else
// where Debian's packages put them, newest version first.
func postgresBinDir() (string, error) {
	var dirs []string
	if p, err := exec.LookPath("initdb"); err == nil {
		dirs = append(dirs, filepath.Dir(p))
	}
	debian, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	version := func(dir string) int {
		v, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
		return v
	}
	slices.SortFunc(debian, func(a, b string) int { return version(b) - version(a) })
	for _, d := range append(dirs, debian...) {
		if isExecutable(filepath.Join(d, "initdb")) && isExecutable(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	return "", errors.New("no PostgreSQL server binaries (initdb, postgres) in PATH or /usr/lib/postgresql/*/bin")
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// needPostgres returns the shared server, starting it if needed. It skips t
// when PostgreSQL is not installed (fails it under
// AGENTNET_REQUIRE_POSTGRES=1) and fails t when the server does not start.
func needPostgres(t testing.TB) *pgCluster {
	t.Helper()
	if _, err := postgresBinDir(); err != nil {
		if os.Getenv("AGENTNET_REQUIRE_POSTGRES") == "1" {
			t.Fatalf("AGENTNET_REQUIRE_POSTGRES=1 but %v", err)
		}
		t.Skipf("skipping the PostgreSQL store tests: %v", err)
	}
	c, err := pgStart()
	if err != nil {
		t.Fatalf("start PostgreSQL: %v", err)
	}
	return c
}

// startPostgres creates a cluster and starts its server.
func startPostgres() (*pgCluster, error) {
	bin, err := postgresBinDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "agentnet-pg-")
	if err != nil {
		return nil, err
	}
	attr, err := pgProcAttr(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", filepath.Join(dir, "data"),
		"-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync")
	initdb.Dir, initdb.SysProcAttr = dir, attr
	if out, err := initdb.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	// The port is free when picked, not necessarily when the server binds
	// it: another process may take it in between. Try a few.
	var errs []error
	for range 3 {
		c, err := launchPostgres(bin, dir, attr)
		if err == nil {
			pgSharedMu.Lock()
			pgShared = c
			pgSharedMu.Unlock()
			return c, nil
		}
		errs = append(errs, err)
	}
	os.RemoveAll(dir)
	return nil, errors.Join(errs...)
}

// launchPostgres starts the server of the cluster in dir on a free port
// and waits until it accepts connections.
func launchPostgres(bin, dir string, attr *syscall.SysProcAttr) (*pgCluster, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	logPath := filepath.Join(dir, fmt.Sprintf("postgres-%d.log", port))
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(filepath.Join(bin, "postgres"), "-D", filepath.Join(dir, "data"),
		"-p", strconv.Itoa(port), "-k", dir, "-c", "listen_addresses=127.0.0.1",
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
		"-c", "max_connections=200")
	cmd.Dir, cmd.SysProcAttr = dir, attr
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("start postgres: %w", err)
	}
	c := &pgCluster{dir: dir, port: port, cmd: cmd, done: make(chan struct{})}
	go func() {
		cmd.Wait()
		logf.Close()
		close(c.done)
	}()
	logTail := func() string {
		b, _ := os.ReadFile(logPath)
		if len(b) > 2000 {
			b = b[len(b)-2000:]
		}
		return string(bytes.TrimSpace(b))
	}
	// Starting takes well under a second; the deadline only keeps a
	// server that never comes up from hanging the tests.
	deadline := time.Now().Add(time.Minute)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		conn, err := pgx.Connect(ctx, c.dsn("postgres"))
		if err == nil {
			conn.Close(ctx)
			cancel()
			return c, nil
		}
		cancel()
		select {
		case <-c.done:
			return nil, fmt.Errorf("postgres on port %d exited while starting: %s", port, logTail())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			c.stopProcess()
			return nil, fmt.Errorf("postgres on port %d accepted no connection for a minute (%v): %s", port, err, logTail())
		}
	}
}

// dsn is the URL of database db on the server.
func (c *pgCluster) dsn(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.port, db)
}

// stopProcess shuts the server down (fast shutdown: clients are
// disconnected) and waits for it; a server that does not stop within 30 s
// is killed. Only the process this test binary started is signalled.
func (c *pgCluster) stopProcess() {
	c.cmd.Process.Signal(os.Interrupt)
	select {
	case <-c.done:
	case <-time.After(30 * time.Second):
		c.cmd.Process.Kill()
		<-c.done
	}
}

func (c *pgCluster) stop() {
	c.stopProcess()
	os.RemoveAll(c.dir)
}

// newDB creates an empty database for t, dropped when t ends, and returns
// its URL.
func (c *pgCluster) newDB(t testing.TB) string {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dbs++
	name := fmt.Sprintf("agentnet_test_%d", c.dbs)
	ctx := context.WithoutCancel(t.Context())
	admin, err := pgx.Connect(ctx, c.dsn("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		// t.Context is done by now.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		admin, err := pgx.Connect(ctx, c.dsn("postgres"))
		if err != nil {
			t.Errorf("drop database %s: %v", name, err)
			return
		}
		defer admin.Close(ctx)
		if _, err := admin.Exec(ctx, "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	return c.dsn(name)
}

// openPostgres opens a store on a new database of the shared server,
// closed when t ends.
func openPostgres(t *testing.T) *PostgresStore {
	t.Helper()
	dsn := needPostgres(t).newDB(t)
	s, err := OpenPostgres(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestPostgresMigrations starts four stores at once on a new database, as
// registry instances starting together do: one migrates, the others wait
// and find the schema current. Reopening keeps the data; a database from a
// newer agentnet is refused.
func TestPostgresMigrations(t *testing.T) {
	t.Parallel()
	dsn := needPostgres(t).newDB(t)
	ctx := t.Context()
	stores := make([]*PostgresStore, 4)
	errs := make([]error, len(stores))
	var wg sync.WaitGroup
	for i := range stores {
		wg.Go(func() { stores[i], errs[i] = OpenPostgres(ctx, dsn) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("OpenPostgres() #%d of 4 at once = %v", i, err)
		}
		defer stores[i].Close()
	}
	for i, s := range stores {
		if v, err := s.SchemaVersion(ctx); err != nil || v != len(pgMigrations) {
			t.Errorf("store #%d: SchemaVersion() = %d, %v; want %d", i, v, err, len(pgMigrations))
		}
	}
	e := entry("reverser", "Reverses text.", "", t0, "text")
	if _, _, err := stores[0].Put(ctx, e); err != nil {
		t.Fatal(err)
	}
	if rec, err := stores[3].Get(ctx, e.ID); err != nil || rec.Name != "reverser" {
		t.Errorf("Get() through another store = %+v, %v", rec, err)
	}
	for _, s := range stores {
		s.Close()
	}

	// Open picks the PostgreSQL store for the URL; reopening migrates
	// nothing and keeps the data.
	st, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := st.(*PostgresStore); !ok {
		t.Errorf("Open(%q) = %T, want *PostgresStore", dsn, st)
	}
	if _, err := st.Get(ctx, e.ID); err != nil {
		t.Errorf("Get() after reopen = %v", err)
	}
	st.Close()

	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "UPDATE agentnet_registry_schema SET version = $1", len(pgMigrations)+1); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenPostgres(ctx, dsn); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("OpenPostgres(newer schema) = %v, want a 'newer' error", err)
	}
}

// TestPostgresOpenErrors opens bad database URLs: each fails with one line
// that says why and never shows the password. No server is needed.
func TestPostgresOpenErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		dsn     string
		invalid bool   // an *InvalidError: the URL itself is wrong
		want    string // in the message
	}{
		{"postgres://u:s3cretpw@127.0.0.1:99999/db", true, "database URL"},
		{"postgres://u:s3cretpw@%zz/db", true, "database URL"},
		{"postgresql://u:s3cretpw@127.0.0.1/db?sslmode=sideways", true, "sslmode"},
		// Port 1 on loopback refuses connections.
		{"postgres://u:s3cretpw@127.0.0.1:1/db?sslmode=disable", false, "refused"},
		{"POSTGRES://u@127.0.0.1:1/db?password=s3cretpw&sslmode=disable", false, "refused"},
	}
	for _, tt := range tests {
		s, err := Open(t.Context(), tt.dsn)
		if err == nil {
			s.Close()
			t.Errorf("Open(%q) = nil error", tt.dsn)
			continue
		}
		var ie *InvalidError
		msg := err.Error()
		if errors.As(err, &ie) != tt.invalid || !strings.Contains(msg, tt.want) {
			t.Errorf("Open(%q) = %v (%T); want invalid %v, with %q", tt.dsn, err, err, tt.invalid, tt.want)
		}
		if strings.Contains(msg, "s3cretpw") || strings.Contains(msg, "\n") {
			t.Errorf("Open(%q) = %q: shows the password or is not one line", tt.dsn, msg)
		}
	}
}

func TestRedactDB(t *testing.T) {
	t.Parallel()
	tests := []struct{ db, want string }{
		{"/var/lib/agentnet/registry.db", "/var/lib/agentnet/registry.db"},
		{"postgres://reg:pw@db.internal:5432/agentnet", "postgres://reg:xxxxx@db.internal:5432/agentnet"},
		{"postgresql://reg@db/agentnet?password=pw&sslmode=require", "postgresql://reg@db/agentnet?password=xxxxx&sslmode=require"},
		{"postgres://reg:pw@%zz/x", "(an unparsable PostgreSQL URL)"},
		{"postgres://", "postgres://"},
		{"postgres://reg@db/agentnet?sslmode=verify-full", "postgres://reg@db/agentnet?sslmode=verify-full"},
	}
	for _, tt := range tests {
		if got := RedactDB(tt.db); got != tt.want {
			t.Errorf("RedactDB(%q) = %q, want %q", tt.db, got, tt.want)
		}
	}
}

// TestPostgresService runs the HTTP-level registry tests over the
// PostgreSQL store: registration and history, search, health.
func TestPostgresService(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	for _, tc := range []struct {
		name string
		run  func(*testing.T, *testRegistry, *fakeAgents)
	}{
		{"RegisterAndReregister", testRegisterAndReregister},
		{"SearchAPI", testSearchAPI},
		{"ProberRound", testProberRound},
		{"HealthDetailNeedsToken", testHealthDetailNeedsToken},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t, newTestRegistryOn(t, openPostgres(t)), newFakeAgents(t))
		})
	}
}

// TestPostgresTwoInstances runs two registries on one database, as a team
// with several instances does: one started by Start from its URL, the
// other a Service on its own store. What is written through either is read
// through the other.
func TestPostgresTwoInstances(t *testing.T) {
	t.Parallel()
	dsn := needPostgres(t).newDB(t)
	ctx := t.Context()
	agents := newFakeAgents(t)

	srvA, err := Start(ctx, ServerConfig{Addr: "127.0.0.1:0", DB: dsn, Token: testToken,
		Prober: []ProberOption{WithInterval(time.Hour)}})
	if err != nil {
		t.Fatalf("Start(%s) = %v", dsn, err)
	}
	t.Cleanup(func() { srvA.Close() })
	if _, ok := srvA.store.(*PostgresStore); !ok {
		t.Fatalf("Start(%s) store = %T, want *PostgresStore", dsn, srvA.store)
	}
	a := NewClient(srvA.URL, WithClientToken(testToken))
	storeB, err := OpenPostgres(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { storeB.Close() })
	b := newTestRegistryOn(t, storeB)

	agents.set(t, "reverser", reverserCard())
	rec, created, err := a.Register(ctx, agents.url("reverser"))
	if err != nil || !created {
		t.Fatalf("A: Register() = created %v, %v; want created", created, err)
	}
	p, err := b.anon.Search(ctx, Query{Text: "palindromes"})
	if err != nil || len(p.Hits) != 1 || p.Hits[0].ID != rec.ID || p.Hits[0].Score <= 0 {
		t.Fatalf("B: Search(palindromes) = %+v, %v; want the reverser A registered", p.Hits, err)
	}

	// Re-registered through B with a new card: A sees the change and the
	// history.
	c := reverserCard()
	c.Description = "Reverses text; now also words."
	agents.set(t, "reverser", c)
	if _, created, err := b.client.Register(ctx, agents.url("reverser")); err != nil || created {
		t.Fatalf("B: Register(changed) = created %v, %v; want an update", created, err)
	}
	got, err := a.Get(ctx, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Description != c.Description || got.Registrations != 2 || len(got.History) != 2 || !got.History[0].Changed {
		t.Errorf("A: Get() = %q, %d registrations, history %+v; want B's card, 2, a change on top",
			got.Description, got.Registrations, got.History)
	}

	// B's prober finds the agent down: A's search leaves it out, A's list
	// shows it down.
	agents.remove("reverser")
	if rr, err := NewProber(b.svc).Round(ctx); err != nil || rr.Down != 1 {
		t.Fatalf("B: Round() = %+v, %v; want 1 down", rr, err)
	}
	if p, err := a.Search(ctx, Query{Text: "words"}); err != nil || len(p.Hits) != 0 {
		t.Errorf("A: Search(words) with the agent down = %+v, %v; want none", p.Hits, err)
	}
	if p, err := a.List(ctx, Query{Statuses: []Status{StatusDown}}); err != nil || len(p.Hits) != 1 || p.Hits[0].Health.Failures != 1 {
		t.Errorf("A: List(down) = %+v, %v; want the reverser, 1 failure", p.Hits, err)
	}

	// Deleted through A: gone for B.
	if err := a.Delete(ctx, rec.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := b.anon.Get(ctx, rec.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("B: Get(deleted through A) = %v, want not found", err)
	}
}
