package gowrapper

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestArgs(t *testing.T) {
	a := parse([]string{"--text=a=b", "--n= 42 ", "--whole=3.0", "--x=2.5", "--on=true", "--items=[\"p\", 2]", "--lines=one\n\ntwo\n", "--d=1m30s"})
	if got := a.str("text"); got != "a=b" {
		t.Errorf("str = %q, want the value after the first '='", got)
	}
	if a.integer("n") != 42 || a.integer("whole") != 3 || a.number("x") != 2.5 || !a.boolean("on") || a.boolean("absent") {
		t.Errorf("integer/number/boolean misread: %d %d %v %v", a.integer("n"), a.integer("whole"), a.number("x"), a.boolean("on"))
	}
	if got := a.list("items"); !reflect.DeepEqual(got, []string{"p", "2"}) {
		t.Errorf("list of a JSON array = %q", got)
	}
	if got := a.strs("lines"); !reflect.DeepEqual(got, []string{"one", "two"}) {
		t.Errorf("list of lines = %q", got)
	}
	if a.duration("d") != 90*time.Second {
		t.Errorf("duration = %v", a.duration("d"))
	}
	if a.list("absent") != nil {
		t.Error("an absent list is not nil")
	}
}

func TestFileArgs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in.bin")
	if err := os.WriteFile(path, []byte("payload"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := args{"f": path}
	if string(a.file("f")) != "payload" {
		t.Error("file did not read the file")
	}
	b, err := io.ReadAll(a.open("f"))
	if err != nil || string(b) != "payload" {
		t.Errorf("open read %q, %v", b, err)
	}
}

// TestEmit checks what a result prints: text as it is, bytes into a
// file named for the skill, anything else as JSON.
func TestEmit(t *testing.T) {
	t.Chdir(t.TempDir())
	if got := stdoutOf(t, func() { emit("s", "line\n") }); got != "line\n" {
		t.Errorf("text printed %q", got)
	}
	if got := stdoutOf(t, func() { emit("s", map[string]int{"n": 1}) }); got != "{\n  \"n\": 1\n}\n" {
		t.Errorf("a map printed %q", got)
	}
	if got := stdoutOf(t, func() { emit("s", 1, "two") }); !strings.Contains(got, "\"two\"") {
		t.Errorf("several results printed %q, want a JSON array", got)
	}
	if got := stdoutOf(t, func() { emit("img", []byte{1, 2}) }); got != "wrote img.out\n" {
		t.Errorf("bytes printed %q", got)
	}
	if b, err := os.ReadFile("img.out"); err != nil || len(b) != 2 {
		t.Errorf("bytes written %v, %v", b, err)
	}
}

// TestObjectAndOutputArgs checks a struct decoded from a JSON object and
// an output file the call writes, which emit closes and names.
func TestObjectAndOutputArgs(t *testing.T) {
	t.Chdir(t.TempDir())
	type opts struct {
		Width int  `json:"width"`
		Wrap  bool `json:"wrap"`
	}
	a := args{"opts": `{"width": 40, "wrap": true}`, "out": "page.txt"}
	var o opts
	a.decode("opts", &o)
	if o != (opts{Width: 40, Wrap: true}) || !a.has("opts") || a.has("absent") {
		t.Errorf("decode = %+v, has = %v", o, a.has("opts"))
	}
	w := a.create("out")
	if _, err := io.WriteString(w, "written"); err != nil {
		t.Fatal(err)
	}
	if got := stdoutOf(t, func() { emit("s") }); got != "wrote page.txt\n" {
		t.Errorf("emit with no result printed %q", got)
	}
	if b, err := os.ReadFile("page.txt"); err != nil || string(b) != "written" {
		t.Errorf("page.txt = %q, %v", b, err)
	}
	if got := stdoutOf(t, func() { emit("s") }); got != "done\n" {
		t.Errorf("emit with nothing written printed %q", got)
	}
}

func stdoutOf(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	f()
	os.Stdout = old
	w.Close()
	b, _ := io.ReadAll(r)
	return string(b)
}
