package orchestrator_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/a2a/proxy"
	"github.com/agentnet/agentnet/internal/fetchpolicy"
	"github.com/agentnet/agentnet/orchestrator"
)

// Bundles for files by reference: one writes a file of n KiB, one hashes
// the file it is given.
const (
	makerYAML = `version: 1
name: maker
description: Write files.
skills:
  - id: make
    name: make
    description: Write a file of n kibibytes.
    params: {type: object, properties: {kib: {type: integer, minimum: 1}}, required: [kib]}
    run: [python3, -c, "import sys\nwith open('out.bin', 'wb') as f:\n  for _ in range(int(sys.argv[1])): f.write(b'x' * 1024)", "{{kib}}"]
    timeout: 60s
`
	hasherYAML = `version: 1
name: hasher
description: Hash files.
skills:
  - id: hash
    name: hash
    description: Print the SHA-256 and size of a file.
    params: {type: object, properties: {file: {type: string, format: path}}, required: [file]}
    run: [python3, -c, "import hashlib, os, sys\nh = hashlib.sha256()\nwith open(sys.argv[1], 'rb') as f:\n  for b in iter(lambda: f.read(1 << 16), b''): h.update(b)\nprint(h.hexdigest(), os.path.getsize(sys.argv[1]))", "{{file}}"]
    timeout: 60s
`
)

// byStep routes step i to the agent named names[i-1].
type byStep []string

func (b byStep) Route(_ context.Context, q orchestrator.Query, cs []orchestrator.Candidate) (orchestrator.Decision, error) {
	for i := range cs {
		if cs[i].Name() == b[q.Step-1] {
			return orchestrator.Decision{Agent: &cs[i]}, nil
		}
	}
	return orchestrator.Decision{Reason: "not there"}, nil
}

func xsum(kib int) string {
	h := sha256.New()
	block := []byte(strings.Repeat("x", 1024))
	for range kib {
		h.Write(block)
	}
	return fmt.Sprintf("%s %d", hex.EncodeToString(h.Sum(nil)), kib<<10)
}

// TestChainPassesFileByReference: a 2-step chain whose first agent writes a
// 2 MiB file: the second agent gets its URL, fetches it from the first
// and hashes the whole file; no message or answer through the proxies
// carries the bytes. The second agent fetches it because the maker's origin
// is on its fetch list, or because the runner vouched for the URL with the
// key they share; with neither, it refuses.
func TestChainPassesFileByReference(t *testing.T) {
	t.Parallel()
	const kib = 2048
	maker := serveBundleWith(t, writeBundle(t, makerYAML, nil))
	key, err := fetchpolicy.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		host   []host.Option
		runner []orchestrator.Option
		ok     bool
	}{
		{"fetch list", []host.Option{host.WithFetchFrom(maker.URL)}, nil, true},
		{"vouched", []host.Option{host.WithVouchKey(key)}, []orchestrator.Option{orchestrator.WithVouchKey(key)}, true},
		{"neither", []host.Option{host.WithVouchKey(key)}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			hasher := serveBundleWith(t, writeBundle(t, hasherYAML, nil), append(tc.host, host.WithMaxFileBytes(64<<20))...)
			dir := staticDir{candidate("m", maker.URL, maker.Card), candidate("h", hasher.URL, hasher.Card)}
			r := orchestrator.New(dir, byStep{"maker", "hasher"}, tc.runner...)
			defer r.Close()
			res, err := r.Run(t.Context(), orchestrator.Chain{
				ID:    "by-reference",
				Input: orchestrator.Input{Data: map[string]any{"kib": kib}},
				Steps: []orchestrator.Step{{Repo: "maker", Instruction: "Make a file."}, {Repo: "hasher", Instruction: "Hash the file."}},
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.ok {
				if res.Outcome == orchestrator.OK || !strings.Contains(res.Detail, "fetch list") {
					t.Errorf("chain: %s %s; want the hasher to refuse the URL", res.Outcome, res.Detail)
				}
				return
			}
			if res.Outcome != orchestrator.OK || strings.TrimSpace(res.Output.Text) != xsum(kib) {
				t.Fatalf("chain: %s %s, output %q; want ok with %q (%s)", res.Outcome, res.Detail, res.Output.Text, xsum(kib), stepSummary(res))
			}
			if a := res.Steps[0].Artifacts; len(a) == 0 || a[len(a)-1].Bytes != kib<<10 {
				t.Errorf("step 1 artifacts %+v, want out.bin of %d bytes", a, kib<<10)
			}
			var sentURL bool
			for _, e := range res.Trace {
				// An end entry counts its whole stream, heartbeats included,
				// which grow with the time the step takes: it may not reach
				// the file's size; any one message may not hold 64 KiB.
				if limit := int64(64 << 10); e.Bytes > limit && (e.Kind != proxy.KindEnd || e.Bytes >= kib<<10) {
					t.Errorf("trace entry %s of %s holds %d bytes; the file must not pass through the proxies", e.Kind, e.Agent, e.Bytes)
				}
				if e.Kind == proxy.KindRequest && e.Agent == "h" && strings.Contains(string(e.Body), `"url":"`+maker.URL+host.FilesPath) {
					sentURL = true
				}
			}
			if !sentURL {
				t.Error("no request to the hasher carried the maker's file URL")
			}
		})
	}
}

// TestChainOutputByReference: a chain's final file by reference is fetched
// into Data when it fits WithOutputFetchMax, and left as a URL when not.
func TestChainOutputByReference(t *testing.T) {
	t.Parallel()
	maker := serveBundleWith(t, writeBundle(t, makerYAML, nil))
	dir := staticDir{candidate("m", maker.URL, maker.Card)}
	chain := orchestrator.Chain{ID: "out", Input: orchestrator.Input{Data: map[string]any{"kib": 512}},
		Steps: []orchestrator.Step{{Repo: "maker", Instruction: "Make a file."}}}
	for _, limit := range []int64{orchestrator.DefaultOutputFetchMax, 0} {
		r := orchestrator.New(dir, byStep{"maker"}, orchestrator.WithOutputFetchMax(limit))
		defer r.Close()
		res, err := r.Run(t.Context(), chain, nil)
		if err != nil || res.Outcome != orchestrator.OK || len(res.Output.Files) != 1 {
			t.Fatalf("limit %d: %v %s %s, %d files", limit, err, res.Outcome, res.Detail, len(res.Output.Files))
		}
		f := res.Output.Files[0]
		sum := sha256.Sum256(f.Data)
		switch {
		case limit > 0 && (len(f.Data) != 512<<10 || fmt.Sprintf("%x %d", sum, len(f.Data)) != xsum(512)):
			t.Errorf("limit %d: output file of %d bytes, want the 512 KiB fetched", limit, len(f.Data))
		case limit == 0 && (f.Data != nil || !strings.HasPrefix(f.URL, maker.URL+host.FilesPath) || f.Size != 512<<10):
			t.Errorf("limit 0: output file %q (%d bytes, size %d), want its URL and size only", f.URL, len(f.Data), f.Size)
		}
		if got := res.OutputFiles[0].Bytes; got != 512<<10 {
			t.Errorf("limit %d: output_files bytes = %d, want %d", limit, got, 512<<10)
		}
		// Saved to disk, by reference or not, the file is whole.
		dest := filepath.Join(t.TempDir(), "out.bin")
		if err := r.SaveFile(t.Context(), f, dest); err != nil {
			t.Fatalf("limit %d: SaveFile: %v", limit, err)
		}
		if data, _ := os.ReadFile(dest); fmt.Sprintf("%x %d", sha256.Sum256(data), len(data)) != xsum(512) {
			t.Errorf("limit %d: the saved file holds %d bytes, want the 512 KiB", limit, len(data))
		}
	}
}

// TestChainMemoryFlat: while a 2-step chain passes a 48 MiB file from one
// agent to the next, the heap of the process holding the runner, its
// proxies and both hosts grows by far less than the file. No timing is
// asserted.
func TestChainMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("moves a 48 MiB file")
	}
	// Not parallel: it reads the process's heap.
	const kib = 48 << 10
	maker := serveBundleWith(t, writeBundle(t, makerYAML, nil))
	hasher := serveBundleWith(t, writeBundle(t, hasherYAML, nil), host.WithFetchFrom(maker.URL), host.WithMaxFileBytes(64<<20))
	dir := staticDir{candidate("m", maker.URL, maker.Card), candidate("h", hasher.URL, hasher.Card)}
	r := orchestrator.New(dir, byStep{"maker", "hasher"})
	defer r.Close()
	chain := func(kib int) orchestrator.Chain {
		return orchestrator.Chain{ID: "memory", Input: orchestrator.Input{Data: map[string]any{"kib": kib}},
			Steps: []orchestrator.Step{{Repo: "maker", Instruction: "Make a file."}, {Repo: "hasher", Instruction: "Hash the file."}}}
	}
	if res, err := r.Run(t.Context(), chain(512), nil); err != nil || res.Outcome != orchestrator.OK {
		t.Fatalf("warm-up chain: %v %s %s", err, res.Outcome, res.Detail)
	}
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	})
	res, err := r.Run(t.Context(), chain(kib), nil)
	close(stop)
	wg.Wait()
	if err != nil || res.Outcome != orchestrator.OK || strings.TrimSpace(res.Output.Text) != xsum(kib) {
		t.Fatalf("chain: %v %s %s, output %q", err, res.Outcome, res.Detail, res.Output.Text)
	}
	grew := int64(peak.Load()) - int64(base.HeapAlloc)
	t.Logf("heap grew by at most %d KiB while a %d KiB file passed along the chain", grew>>10, kib)
	if grew > 16<<20 {
		t.Errorf("the heap grew by %d MiB while a %d MiB file passed along a 2-step chain; want it flat in the file's size (under 16 MiB)", grew>>20, kib>>10)
	}
}
