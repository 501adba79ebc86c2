package static

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBytesAndStreams generates the wrapper of a library whose functions
// take and return bytes and streams without type hints, and runs it: the
// parameter a function reads is an input file, the one it writes an
// output file, the first parameter of the inverse of a bytes function is
// an input file read as bytes, and a bytes result goes to the file the
// caller names, the value a function's inverse undoes is a JSON document
// (a file, or JSON text), and an iterable class that keeps a stream it
// reads is built from an input file and read whole (one skill, not one per
// method).
func TestBytesAndStreams(t *testing.T) {
	t.Parallel()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	code := `"""Reverse the bytes of a value."""


def packb(o):
    """Pack the value o and return packed bytes."""
    return str(o).encode("utf-8")[::-1] + b"\xff"


def unpackb(packed):
    """Unpack a value from packed."""
    return packed[:-1][::-1].decode("utf-8")


def pack_stream(o, stream):
    """Pack the value o and write it to stream."""
    stream.write(packb(o))


def unpack_stream(stream):
    """Unpack a value from stream."""
    return unpackb(stream.read())


class Reader:
    """Values written one after another."""

    def __init__(self, source=None, strict=True):
        self.source = source

    def __iter__(self):
        for chunk in self.source.read().split(b"\xff"):
            if chunk:
                yield unpackb(chunk + b"\xff")

    def first(self):
        """The first value."""
        return next(iter(self))
`
	dir := writeRepo(t, map[string]string{"revpack.py": code})
	sc, err := pythonScan(t.Context(), mustScan(t, dir), os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	skills, spec, _ := pyLibrarySkills(sc.API, []string{py, "wrap.py"})
	got := map[string]map[string]any{}
	for _, sk := range skills {
		got[sk.ID] = map[string]any{}
		for name, s := range sk.Params["properties"].(map[string]any) {
			got[sk.ID][name] = s.(map[string]any)["format"]
		}
	}
	want := map[string]map[string]any{
		"packb":         {"o": "path", "output_file": "output-path"},
		"unpackb":       {"packed": "path"},
		"pack-stream":   {"o": "path", "stream": "output-path"},
		"unpack-stream": {"stream": "path"},
		"reader":        {"source": "path", "strict": nil},
		// Its method reads the stream a piece at a time: no skill beside
		// the whole reading.
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("skill parameters' formats (-want +got):\n%s", diff)
	}
	src, err := pythonWrapper("revpack", spec)
	if err != nil {
		t.Fatal(err)
	}
	wrapper := filepath.Join(t.TempDir(), "wrap.py")
	if err := os.WriteFile(wrapper, src, 0o644); err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(t.Context(), py, append([]string{wrapper}, args...)...)
		cmd.Dir, cmd.Env = work, append(os.Environ(), "PYTHONPATH="+dir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("wrap.py %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if out := run("packb", `--o="harbour"`, "--output_file=v.bin"); out != "wrote v.bin" {
		t.Errorf("packb = %q, want wrote v.bin", out)
	}
	if out := run("unpackb", "--packed=v.bin"); out != "harbour" {
		t.Errorf("unpackb(v.bin) = %q, want harbour", out)
	}
	if out := run("pack-stream", "--o=7", "--stream=s.bin"); out != "wrote s.bin" {
		t.Errorf("pack-stream = %q, want wrote s.bin", out)
	}
	if out := run("unpack-stream", "--stream=s.bin"); out != "7" {
		t.Errorf("unpack-stream(s.bin) = %q, want 7", out)
	}
	// What an inverse undoes is a value: a JSON document in a file.
	if err := os.WriteFile(filepath.Join(work, "doc.json"), []byte(`{"n": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := run("packb", "--o=doc.json", "--output_file=d.bin"); out != "wrote d.bin" {
		t.Errorf("packb(doc.json) = %q, want wrote d.bin", out)
	}
	if out := run("unpackb", "--packed=d.bin"); out != "{'n': 1}" {
		t.Errorf("unpackb(d.bin) = %q, want the JSON document's value", out)
	}
	if err := os.WriteFile(filepath.Join(work, "many.bin"), []byte("a\xffbb\xff"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := run("reader", "--source=many.bin"); out != "[\n  \"a\",\n  \"bb\"\n]" {
		t.Errorf("reader(many.bin) = %q, want the list of a and bb", out)
	}
}
