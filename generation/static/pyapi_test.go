package static

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestStreamReaderMethods checks that an iterable class built from a
// stream it reads is one skill (every item of the input file), not one per
// method that reads the next piece of the stream, and that a method called
// with nothing the caller must give (an object's buffer) is no skill.
func TestStreamReaderMethods(t *testing.T) {
	t.Parallel()
	method := func(name, summary string, params ...map[string]any) map[string]any {
		return map[string]any{"name": name, "doc": summary, "parsed": map[string]any{"summary": summary}, "params": params, "returns": "object"}
	}
	info, err := json.Marshal(map[string]any{
		"name": "Reader", "doc": "Streaming reader of records.", "parsed": map[string]any{"summary": "Streaming reader of records."},
		"iterable": true,
		"init": map[string]any{"name": "__init__", "params": []map[string]any{
			{"name": "file_like", "kind": "pos", "has_default": true, "literal": true, "default": nil, "use": "read"},
			{"name": "read_size", "kind": "pos", "has_default": true, "literal": true, "default": 0}}},
		"methods": []any{
			method("read_bytes", "Read a number of raw bytes from the stream.", map[string]any{"name": "n", "kind": "pos", "annotation": "int"}),
			method("unpack", "Unpack the next record of the stream."),
			method("read_header", "Read the header of the next array."),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	writer, err := json.Marshal(map[string]any{
		"name": "Writer", "doc": "Writer of records.", "parsed": map[string]any{"summary": "Writer of records."},
		"init": map[string]any{"name": "__init__", "params": []map[string]any{
			{"name": "compact", "kind": "pos", "has_default": true, "literal": true, "default": false}}},
		"methods": []any{
			method("write", "Write a record and return its bytes.", map[string]any{"name": "record", "kind": "pos"}),
			method("buffer", "Return the buffer's contents."),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	api := &pyAPI{Items: []pyItem{
		{Public: "recs", Module: "recs.fallback", Name: "Reader", Kind: "class", How: "all", Info: info},
		{Public: "recs", Module: "recs.fallback", Name: "Writer", Kind: "class", How: "all", Info: writer},
	}}
	skills, spec, _ := pyLibrarySkills(api, []string{"python3", "wrap.py"})
	var ids []string
	for _, sk := range skills {
		ids = append(ids, sk.ID)
	}
	if !slices.Equal(ids, []string{"reader", "writer-write"}) {
		t.Fatalf("pyLibrarySkills() = %v, want [reader writer-write]: the reader's piecewise reads, and a method that takes nothing from the caller, are no skills", ids)
	}
	if c := spec["reader"]; c.MemberKind != "describe" || len(c.CtorParams) == 0 || c.CtorParams[0].Conv != "stream" {
		t.Errorf("spec[reader] = %+v, want the reader built from the input stream and read whole", c)
	}
}

// TestBuiltValueAndInheritedDocs generates the wrapper of a library whose
// coordinate class is both a result (a place's point) and built by users
// (Point.from_string, a constructor in __new__), and whose distance classes
// override a documented method of their base without a docstring of their
// own: the coordinate gets skills that run, and the override is described
// by its base's docstring.
func TestBuiltValueAndInheritedDocs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs python3")
	}
	t.Parallel()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	point := `"""Points on the globe."""


class Point:
    """A geodetic point with latitude and longitude."""

    __slots__ = ("latitude", "longitude")

    def __new__(cls, latitude=None, longitude=None):
        self = super().__new__(cls)
        self.latitude, self.longitude = latitude, longitude
        return self

    @classmethod
    def from_string(cls, string):
        """Create a Point from a string of two numbers, comma separated."""
        lat, lon = (float(x) for x in string.split(","))
        return cls(lat, lon)

    def format_decimal(self):
        """Format the point as decimal degrees, latitude first."""
        return "%s, %s" % (self.latitude, self.longitude)


class Place:
    """A place a lookup found."""

    def __init__(self, address, point):
        self.address, self._point = address, point

    @property
    def point(self):
        """The place's coordinates.

        :rtype: :class:` + "`geo.point.Point`" + `
        """
        return self._point
`
	distance := `"""Distances between points."""
from geo.point import Point


class Distance:
    """Base of the distances."""

    def __init__(self, *args):
        self.km = 0.0

    def destination(self, point, bearing, distance):
        """Calculate the destination point using a starting point, a bearing and a distance.

        :rtype: :class:` + "`geo.point.Point`" + `
        """
        raise NotImplementedError


class geodesic(Distance):
    """Distances on the ellipsoid."""

    def destination(self, point, bearing, distance):
        p = Point.from_string(point)
        return Point(p.latitude + distance * 0, p.longitude)
`
	dir := writeRepo(t, map[string]string{
		"geo/__init__.py": "from geo.point import Point, Place\nfrom geo.distance import geodesic\n",
		"geo/point.py":    point, "geo/distance.py": distance,
		"setup.py": "from setuptools import setup\nsetup(name='geo', packages=['geo'])\n",
	})
	sc, err := pythonScan(t.Context(), mustScan(t, dir), os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	skills, spec, _ := pyLibrarySkills(sc.API, []string{py, "wrap.py"})
	byID := map[string]string{}
	for _, sk := range skills {
		byID[sk.ID] = sk.Description
	}
	if _, ok := byID["point-format-decimal"]; !ok {
		t.Fatalf("pyLibrarySkills() = %v, want point-format-decimal", byID)
	}
	if _, ok := byID["point"]; !ok {
		t.Errorf("pyLibrarySkills() = %v, want point: a class parsed from text reports what it parsed", byID)
	}
	if d := byID["geodesic-destination"]; !strings.HasPrefix(d, "Calculate the destination point") {
		t.Errorf("geodesic-destination description = %q, want its base's docstring", d)
	}
	src, err := pythonWrapper("geo", spec)
	if err != nil {
		t.Fatal(err)
	}
	wrapper := filepath.Join(t.TempDir(), "wrap.py")
	if err := os.WriteFile(wrapper, src, 0o644); err != nil {
		t.Fatal(err)
	}
	var args []string
	for _, p := range append(spec["point-format-decimal"].CtorParams, spec["point-format-decimal"].Params...) {
		args = append(args, "--"+p.Name+"=41.5, 2.25")
	}
	run := func(skill string) (string, error) {
		cmd := exec.CommandContext(t.Context(), py, append([]string{wrapper, skill}, args...)...)
		cmd.Dir, cmd.Env = t.TempDir(), append(os.Environ(), "PYTHONPATH="+dir)
		out, err := cmd.CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	if got, err := run("point-format-decimal"); err != nil || got != "41.5, 2.25" {
		t.Errorf("point-format-decimal %v = %q, %v; want 41.5, 2.25", args, got, err)
	}
	// The value it parsed, its slots as JSON.
	if got, err := run("point"); err != nil || strings.Join(strings.Fields(got), " ") != `{ "latitude": 41.5, "longitude": 2.25 }` {
		t.Errorf("point %v = %q, %v; want the latitude and longitude as JSON", args, got, err)
	}
}

// TestCompiledWithFallback generates the wrapper of a package whose
// namespace takes its functions from a compiled module when it is built
// and from a private pure-Python module when it is not: the functions are
// its API, called through the package (whichever module it picked).
func TestCompiledWithFallback(t *testing.T) {
	if testing.Short() {
		t.Skip("runs python3")
	}
	t.Parallel()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	dir := writeRepo(t, map[string]string{
		"rotcodec/__init__.py": "\"\"\"Rotate letters.\"\"\"\nimport os\n\nif os.environ.get(\"ROTCODEC_PURE\"):\n    from ._pure import rotate\nelse:\n    try:\n        from ._speedups import rotate\n    except ImportError:\n        from ._pure import rotate\n\n__version__ = \"1.0\"\n",
		"rotcodec/_pure.py":    "import codecs\n\n\ndef rotate(text: str) -> str:\n    \"\"\"Rotate every letter of the text by 13 places.\"\"\"\n    return codecs.encode(text, \"rot13\")\n",
		"setup.py":             "from setuptools import setup\nsetup(name='rotcodec', packages=['rotcodec'])\n",
	})
	sc, err := pythonScan(t.Context(), mustScan(t, dir), os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	skills, spec, _ := pyLibrarySkills(sc.API, []string{py, "wrap.py"})
	if len(skills) != 1 || skills[0].ID != "rotate" || spec["rotate"].Module != "rotcodec" {
		t.Fatalf("pyLibrarySkills() = %+v, %+v; want rotate, called through rotcodec", skills, spec)
	}
	src, err := pythonWrapper("rotcodec", spec)
	if err != nil {
		t.Fatal(err)
	}
	wrapper := filepath.Join(t.TempDir(), "wrap.py")
	if err := os.WriteFile(wrapper, src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), py, wrapper, "rotate", "--text=Hello")
	cmd.Dir, cmd.Env = t.TempDir(), append(os.Environ(), "PYTHONPATH="+dir)
	if out, err := cmd.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "Uryyb" {
		t.Errorf("rotate --text=Hello = %q, %v; want Uryyb", out, err)
	}
}

// TestMethodVariants checks that a method named after another method of
// its class plus a suffix is that method's variant: one skill of the two.
func TestMethodVariants(t *testing.T) {
	t.Parallel()
	mk := func(member string) *capability {
		return &capability{stem: "point " + stemOf(member), call: wrapCall{Member: member, MemberKind: "call"}}
	}
	caps := []*capability{mk("format"), mk("format_decimal"), mk("format_unicode_degrees"), mk("formatted"), mk("reversed")}
	methodVariants(caps)
	var stems []string
	for _, c := range caps {
		stems = append(stems, c.stem)
	}
	want := []string{"point format", "point format", "point format", "point formatted", "point reversed"}
	if !slices.Equal(stems, want) {
		t.Errorf("stems = %q, want %q", stems, want)
	}
	if got := mergeVariants(caps); len(got) != 3 {
		t.Errorf("mergeVariants() kept %d, want 3", len(got))
	}
}

// TestWrapperErrors checks that a generated wrapper answers a value its
// parameter cannot take, and a call the library refuses, with one line
// naming the skill (exit 2 and 1), and prints the traceback only when
// AGENTNET_TRACEBACK asks for it.
func TestWrapperErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("runs python3")
	}
	t.Parallel()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	dir := writeRepo(t, map[string]string{
		"shapes/__init__.py": `"""Shapes."""


def area(width: int, height: int) -> int:
    """Compute the area of a rectangle from its width and height."""
    if width < 0 or height < 0:
        raise ValueError("sides must not be negative\nsecond line")
    return width * height
`,
		"setup.py": "from setuptools import setup\nsetup(name='shapes', packages=['shapes'])\n",
	})
	sc, err := pythonScan(t.Context(), mustScan(t, dir), os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	_, spec, _ := pyLibrarySkills(sc.API, []string{py, "wrap.py"})
	if _, ok := spec["area"]; !ok {
		t.Fatalf("spec = %v, want area", spec)
	}
	src, err := pythonWrapper("shapes", spec)
	if err != nil {
		t.Fatal(err)
	}
	wrapper := filepath.Join(t.TempDir(), "wrap.py")
	if err := os.WriteFile(wrapper, src, 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(env string, args ...string) (string, int) {
		cmd := exec.CommandContext(t.Context(), py, append([]string{wrapper, "area"}, args...)...)
		cmd.Dir, cmd.Env = t.TempDir(), append(os.Environ(), "PYTHONPATH="+dir, env)
		out, _ := cmd.CombinedOutput()
		return strings.TrimSpace(string(out)), cmd.ProcessState.ExitCode()
	}
	for _, c := range []struct {
		env  string
		args []string
		want string
		code int
	}{
		{"X=", []string{"--width=3", "--height=4"}, "12", 0},
		{"X=", []string{"--width=wide", "--height=4"}, "area: --width: cannot read 'wide' as int: ValueError: ", 2},
		{"X=", []string{"--width=-3", "--height=4"}, "area: ValueError: sides must not be negative", 1},
	} {
		got, code := run(c.env, c.args...)
		if code != c.code || !strings.HasPrefix(got, c.want) || strings.Contains(got, "\n") {
			t.Errorf("area %v = %q, exit %d; want one line starting %q, exit %d", c.args, got, code, c.want, c.code)
		}
	}
	if got, code := run("AGENTNET_TRACEBACK=1", "--width=-3", "--height=4"); code != 1 || !strings.Contains(got, "Traceback") {
		t.Errorf("area with AGENTNET_TRACEBACK = %q, exit %d; want the traceback", got, code)
	}
}

// TestDefaultImplementation checks that of two classes implementing one
// documented contract, the skill kept is the one the module makes its
// default by binding it to more public names (default = Precise), not the
// one defined first.
func TestDefaultImplementation(t *testing.T) {
	if testing.Short() {
		t.Skip("runs python3")
	}
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	dir := writeRepo(t, map[string]string{
		"routes/__init__.py": "",
		"routes/length.py": `"""Lengths of routes."""


class Length:
    """Base of the lengths."""

    def __init__(self, a, b):
        self.a, self.b = a, b

    def scaled(self, factor: float):
        """Scale the length of the route between the two points by a factor."""
        raise NotImplementedError


class rough(Length):
    """A rough length of a route between two points."""

    def scaled(self, factor: float):
        return 1.0 * factor


class precise(Length):
    """A precise length of a route between two points."""

    def scaled(self, factor: float):
        return 2.0 * factor


Rough = rough
Precise = precise
default = Precise
`,
		"setup.py": "from setuptools import setup\nsetup(name='routes', packages=['routes'])\n",
	})
	sc, err := pythonScan(t.Context(), mustScan(t, dir), os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	skills, spec, _ := pyLibrarySkills(sc.API, []string{"python3", "wrap.py"})
	var ids []string
	for _, sk := range skills {
		ids = append(ids, sk.ID)
	}
	if !slices.Contains(ids, "precise-scaled") || slices.Contains(ids, "rough-scaled") {
		t.Errorf("pyLibrarySkills() = %v, want precise-scaled (the module's default) and not rough-scaled", ids)
	}
	if c, ok := spec["precise-scaled"]; ok && c.Target != "precise" {
		t.Errorf("spec[precise-scaled].Target = %q, want precise", c.Target)
	}
}

// TestStreamReaderRecords runs the skill of an iterable reader built from
// a stream: a file of two records gives both, as a JSON list; a file of
// one record gives that record itself.
func TestStreamReaderRecords(t *testing.T) {
	if testing.Short() {
		t.Skip("runs python3")
	}
	t.Parallel()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	dir := writeRepo(t, map[string]string{
		"recs/__init__.py": `"""Records."""
import json


class Reader:
    """Streaming reader of the records of a file, one JSON object a line."""

    def __init__(self, file_like=None):
        self.file_like = file_like

    def __iter__(self):
        for line in self.file_like.read().splitlines():
            if line.strip():
                yield json.loads(line)
`,
		"setup.py": "from setuptools import setup\nsetup(name='recs', packages=['recs'])\n",
	})
	sc, err := pythonScan(t.Context(), mustScan(t, dir), os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	_, spec, _ := pyLibrarySkills(sc.API, []string{py, "wrap.py"})
	c, ok := spec["reader"]
	if !ok || len(c.CtorParams) == 0 || c.CtorParams[0].Conv != "stream" {
		t.Fatalf("spec = %+v, want reader built from a stream", spec)
	}
	src, err := pythonWrapper("recs", spec)
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	wrapper := filepath.Join(work, "wrap.py")
	if err := os.WriteFile(wrapper, src, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"one.jsonl": `{"a": 1}` + "\n", "two.jsonl": `{"a": 1}` + "\n" + `{"a": 2}` + "\n"} {
		if err := os.WriteFile(filepath.Join(work, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for file, want := range map[string]string{"one.jsonl": `{ "a": 1 }`, "two.jsonl": `[ { "a": 1 }, { "a": 2 } ]`} {
		cmd := exec.CommandContext(t.Context(), py, wrapper, "reader", "--"+c.CtorParams[0].Name+"="+filepath.Join(work, file))
		cmd.Dir, cmd.Env = work, append(os.Environ(), "PYTHONPATH="+dir)
		out, err := cmd.CombinedOutput()
		if got := strings.Join(strings.Fields(string(out)), " "); err != nil || got != want {
			t.Errorf("reader %s = %q, %v; want %s", file, got, err, want)
		}
	}
}

// TestEncodingVariants keeps one skill of a function and its twin named
// with "b" or "s" (pack on a stream, packb to bytes), noting the other,
// and keeps a function whose name only happens to end in "s".
func TestEncodingVariants(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	dir := writeRepo(t, map[string]string{
		"packer/__init__.py": `"""Pack values into compact bytes."""


def pack(obj, stream):
    """Pack the object obj and write it to the stream."""
    stream.write(packb(obj))


def packb(obj: str) -> bytes:
    """Pack the object obj and return the packed bytes, for the caller to store."""
    return obj.encode()


def stats(text: str) -> dict:
    """Count the words and the lines of the text."""
    return {"words": len(text.split()), "lines": len(text.splitlines())}


def stat(path: str) -> int:
    """The size of the file at path, in bytes."""
    import os
    return os.path.getsize(path)
`,
		"setup.py": "from setuptools import setup\nsetup(name='packer', packages=['packer'])\n",
	})
	sc, err := pythonScan(t.Context(), mustScan(t, dir), os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	skills, _, notes := pyLibrarySkills(sc.API, []string{"python3", "wrap.py"})
	var ids []string
	for _, sk := range skills {
		ids = append(ids, sk.ID)
	}
	packs := 0
	for _, id := range ids {
		if id == "pack" || id == "packb" {
			packs++
		}
	}
	if packs != 1 || !slices.Contains(ids, "stats") || !slices.Contains(ids, "stat") {
		t.Errorf("pyLibrarySkills() = %v, want one of pack and packb, and stats beside stat", ids)
	}
	if !slices.ContainsFunc(notes, func(n string) bool {
		return strings.Contains(n, "packer.pack (pack): left out: a variant of the same capability as packb")
	}) {
		t.Errorf("notes %q, want the other of pack and packb noted as a variant", notes)
	}
}
