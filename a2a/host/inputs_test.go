package host

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestInputsUnchanged: after a run, an input whose stat is as it was is
// unchanged without its bytes being read again (a wrong known sum is not
// noticed); one written in place is read and compared — the same bytes
// are unchanged, other bytes changed even when the size and modification
// time are set back; one replaced by another file is compared the same
// way.
func TestInputsUnchanged(t *testing.T) {
	work := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(work, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	kept := write("kept.txt", "alpha")
	same := write("same.txt", "bravo")
	other := write("other.txt", "charlie")
	replaced := write("replaced.txt", "delta")
	in := snapshot(work, map[string]contentSum{"kept.txt": sumOf([]byte("not what the file holds"))})
	if len(in) != 4 {
		t.Fatalf("snapshot has %d files, want 4", len(in))
	}
	if in["same.txt"].sum != sumOf([]byte("bravo")) {
		t.Errorf("snapshot hashed same.txt wrong")
	}

	time.Sleep(10 * time.Millisecond) // a later modification time, where its resolution is coarse
	write("same.txt", "bravo")
	old, _ := os.Stat(other)
	write("other.txt", "CHARLIE")
	if err := os.Chtimes(other, old.ModTime(), old.ModTime()); err != nil {
		t.Fatal(err)
	}
	tmp := write("tmp", "delta")
	if err := os.Rename(tmp, replaced); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		p    string
		want bool
	}{{kept, true}, {same, true}, {other, false}, {replaced, true}} {
		info, err := os.Lstat(c.p)
		if err != nil {
			t.Fatal(err)
		}
		if got := in.unchanged(filepath.Base(c.p), c.p, info); got != c.want {
			t.Errorf("unchanged(%s) = %v, want %v", filepath.Base(c.p), got, c.want)
		}
	}
	if info, _ := os.Lstat(kept); in.unchanged("new.txt", kept, info) {
		t.Errorf("a file that was no input is unchanged")
	}
}

// TestFetchSum: a fetched file is hashed as it arrives.
func TestFetchSum(t *testing.T) {
	body := strings.Repeat("0123456789", 10000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }))
	defer srv.Close()
	f := newFileFetcher([]string{srv.URL}, nil, false)
	dest := filepath.Join(t.TempDir(), "in.txt")
	n, sum, err := f.get(t.Context(), srv.URL+"/f", dest, 1<<20)
	if err != nil || n != int64(len(body)) || sum != sumOf([]byte(body)) {
		t.Fatalf("get = %d, %x, %v; want %d bytes and their sum", n, sum, err, len(body))
	}
	if got, _ := fileSum(dest); got != sum {
		t.Errorf("the file's sum is %x, get said %x", got, sum)
	}
}
