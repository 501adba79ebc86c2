package static

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"slices"
	"testing"
)

// TestAptInstall installs a Debian package for real (one the Python tools
// already depend on, so it is quick) and reports a name the archive does not
// know, while another process holds dpkg's lock for a moment (as another
// apt-get would). It needs root and apt-get; elsewhere it skips.
func TestAptInstall(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("apt-get install needs root")
	}
	if _, err := exec.LookPath("apt-get"); err != nil {
		t.Skip("no apt-get on this machine")
	}
	// dpkg's lock is an fcntl lock on lock-frontend; python3 takes it the
	// way dpkg does and lets go after two seconds.
	holder := exec.CommandContext(t.Context(), "python3", "-c", `import fcntl, sys, time
f = open("/var/lib/dpkg/lock-frontend", "w")
fcntl.lockf(f, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(2)
`)
	out, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Skipf("python3: %v", err)
	}
	defer holder.Wait()
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "locked\n" {
		t.Fatalf("the lock holder printed %q", line)
	}
	rep := aptInstall(t.Context(), []string{"python3-venv"}, os.Environ(), io.Discard)
	if rep.Error != "" {
		t.Fatalf("aptInstall under another's lock: %s", rep.Error)
	}
	if !slices.Contains(rep.Installed, "python3-venv") {
		t.Errorf("aptInstall Installed = %v, want python3-venv", rep.Installed)
	}
	rep = aptInstall(t.Context(), []string{"python3-venv", "python3-no-such-package-agentnet"}, os.Environ(), io.Discard)
	if rep.Error != "" {
		t.Fatalf("aptInstall error: %s", rep.Error)
	}
	if !slices.Contains(rep.Installed, "python3-venv") {
		t.Errorf("aptInstall Installed = %v, want python3-venv", rep.Installed)
	}
	if !slices.Contains(rep.Unknown, "python3-no-such-package-agentnet") {
		t.Errorf("aptInstall Unknown = %v, want the made-up package", rep.Unknown)
	}
}

func TestSatisfies(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v    []int
		spec string
		want bool
	}{
		{[]int{3, 11, 2}, ">=3.9", true},
		{[]int{3, 8, 0}, ">=3.9", false},
		{[]int{3, 11, 0}, ">=3.9, <3.11", false},
		{[]int{3, 12, 0}, "", true},
		{[]int{3, 10, 0}, "~=3.10", true},
	} {
		if got := satisfies(tc.v, tc.spec); got != tc.want {
			t.Errorf("satisfies(%v, %q) = %v, want %v", tc.v, tc.spec, got, tc.want)
		}
	}
}

func TestAnnotationSchema(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		ann, name, typ, conv string
		ok                   bool
	}{
		{"int", "n", "integer", "int", true},
		{"Optional[float]", "x", "number", "float", true},
		{"str | os.PathLike[str] | None", "path", "string", "path", true},
		{"list[str]", "words", "array", "json", true},
		{"Literal['km', 'mi']", "unit", "string", "str", true},
		{"TextIO", "fh", "string", "textio", true},
		{"Callable[[str], str]", "fn", "", "", false},
		{"list[str | None]", "names", "array", "json", true},
		{"Callable[[str | bytes], int]", "key", "", "", false},
		{"", "filename", "string", "auto", true},
	} {
		s, conv, ok := annotationSchema(normAnnotation(tc.ann), tc.name)
		if ok != tc.ok || ok && (s["type"] != tc.typ || conv != tc.conv) {
			t.Errorf("annotationSchema(%q) = %v, %q, %v, want %s, %s, %v", tc.ann, s, conv, ok, tc.typ, tc.conv, tc.ok)
		}
	}
}
