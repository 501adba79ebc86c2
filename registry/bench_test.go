package registry

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// Benchmarks of the registry over HTTP on loopback (BENCHMARKS.md has the
// command and the latest results):
//
//	go test -run '^$' -bench . -benchtime 2000x ./registry/
//
// BenchmarkSearch reports p50 and p99 latency of GET /v1/search with 10,000
// and 100,000 registered cards; BenchmarkRegister reports registrations per
// second (each one a card fetch from a live agent, validation and a
// synchronous commit).

// benchVocab is a synthetic vocabulary of 5,000 words; card text and
// queries draw from it with a Zipf distribution, as natural text does. Its
// most frequent words are English function words, as in natural text; the
// rest are made-up words.
var benchVocab = func() []string {
	words := strings.Fields(`the of and a to in is for that with on as by it from this are be at or an
		will which was have has their its into were`)
	syl := []string{"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "qu", "di", "fe", "go", "hu", "ji"}
	r := rand.New(rand.NewPCG(1, 2))
	seen := map[string]bool{}
	for len(words) < 5000 {
		n := 2 + r.IntN(3)
		var b strings.Builder
		for range n {
			b.WriteString(syl[r.IntN(len(syl))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	return words
}()

type benchText struct {
	r *rand.Rand
	z *rand.Zipf
}

func newBenchText(seed uint64) *benchText {
	r := rand.New(rand.NewPCG(seed, seed+1))
	return &benchText{r: r, z: rand.NewZipf(r, 1.07, 1, uint64(len(benchVocab)-1))}
}

func (b *benchText) words(n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = benchVocab[b.z.Uint64()]
	}
	return strings.Join(w, " ")
}

func benchCard(i int, bt *benchText) *a2a.AgentCard {
	var skills []a2a.AgentSkill
	for k := range 3 {
		sk := skill(fmt.Sprintf("skill-%d", k), bt.words(12), benchVocab[bt.r.IntN(200)], benchVocab[bt.r.IntN(200)])
		sk.Name = bt.words(2)
		sk.Examples = []string{bt.words(6)}
		skills = append(skills, sk)
	}
	return testCard(fmt.Sprintf("agent-%06d %s", i, bt.words(1)), bt.words(15), skills...)
}

// benchStores caches seeded stores across benchmark runs of one process.
var (
	benchMu     sync.Mutex
	benchStores = map[int]*Service{}
)

func seededService(b *testing.B, n int) *Service {
	benchMu.Lock()
	defer benchMu.Unlock()
	if svc, ok := benchStores[n]; ok {
		return svc
	}
	dir, err := os.MkdirTemp("", "agentnet-registry-bench-")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {}) // the stores live for the process; TestMain removes dirs
	benchDirs = append(benchDirs, dir)
	ctx := context.Background()
	store, err := OpenSQLite(ctx, filepath.Join(dir, "reg.db"))
	if err != nil {
		b.Fatal(err)
	}
	svc := NewService(store, cardsValidator())
	start := time.Now()
	bt := newBenchText(42)
	tx, err := store.w.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		raw, _ := json.Marshal(benchCard(i, bt))
		e, probs := svc.entry(fmt.Sprintf("http://10.0.%d.%d:8080", i/250, i%250), raw)
		if len(probs) > 0 {
			b.Fatalf("bench card %d: %v", i, probs)
		}
		if _, _, err := putTx(ctx, tx, e); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	if _, err := store.w.ExecContext(ctx, "INSERT INTO agents_fts(agents_fts) VALUES('optimize')"); err != nil {
		b.Fatal(err)
	}
	b.Logf("seeded %d cards in %v", n, time.Since(start).Round(time.Millisecond))
	benchStores[n] = svc
	return svc
}

var benchDirs []string

func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("cards=%d", n), func(b *testing.B) {
			svc := seededService(b, n)
			srv := httptest.NewServer(NewHandler(svc))
			defer srv.Close()
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
			bt := newBenchText(7)
			queries := make([]string, 1000)
			for i := range queries {
				queries[i] = srv.URL + "/v1/search?limit=10&q=" + url.QueryEscape(bt.words(1+i%3))
			}
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				t0 := time.Now()
				resp, err := client.Get(queries[i%len(queries)])
				if err != nil {
					b.Fatal(err)
				}
				var body searchBody
				err = json.NewDecoder(resp.Body).Decode(&body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != 200 {
					b.Fatalf("search: %d %v", resp.StatusCode, err)
				}
				lat = append(lat, time.Since(t0))
			}
			b.StopTimer()
			slices.Sort(lat)
			ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
			b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
			b.ReportMetric(ms(lat[min(len(lat)-1, len(lat)*99/100)]), "p99-ms")
		})
	}
}

func BenchmarkRegister(b *testing.B) {
	// One agent server that serves a distinct card at every path.
	var cardsServed atomic.Int64
	agents := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/a/"), WellKnownCardPath)
		if !ok {
			http.NotFound(w, r)
			return
		}
		var i int
		fmt.Sscanf(name, "%d", &i)
		cardsServed.Add(1)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(benchCard(i, newBenchText(uint64(i))))
	}))
	defer agents.Close()
	store, err := OpenSQLite(context.Background(), filepath.Join(b.TempDir(), "reg.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	srv := httptest.NewServer(NewHandler(NewService(store, cardsValidator()), WithToken("t")))
	defer srv.Close()
	client := NewClient(srv.URL, WithClientToken("t"))
	var next atomic.Int64
	b.SetParallelism(4) // 4 × GOMAXPROCS concurrent registrations
	start := time.Now()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := next.Add(1)
			if _, _, err := client.Register(context.Background(), fmt.Sprintf("%s/a/%d", agents.URL, i)); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "registrations/s")
}
