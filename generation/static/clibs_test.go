package static

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// pkg-config's two ways of saying a package is missing, as cgo and
// build scripts print them.
func TestMissingPkgConfig(t *testing.T) {
	out := "# gioui.org/app/internal/xkb\n# [pkg-config --cflags  -- xkbcommon]\n" +
		"Package xkbcommon was not found in the pkg-config search path.\n" +
		"Perhaps you should add the directory containing `xkbcommon.pc'\n" +
		"Package 'xkbcommon', required by 'virtual:world', not found\n" +
		"Package 'gtk+-3.0', required by 'virtual:world', not found\n" +
		"vulkan.go:15:10: fatal error: vulkan/vulkan.h: No such file or directory\n" +
		"decode.c:3:10: fatal error: png.h: No such file or directory\n"
	if got, want := missingPkgConfig(out), []string{"xkbcommon", "gtk+-3.0", "vulkan", "png"}; !slices.Equal(got, want) {
		t.Errorf("missingPkgConfig = %q, want %q", got, want)
	}
	if got := missingPkgConfig("undefined: foo\n"); len(got) != 0 {
		t.Errorf("missingPkgConfig of another error = %q", got)
	}
}

// Debian names a library's development package lib<name>-dev, keeping a
// versioned name's major version.
func TestDevPackages(t *testing.T) {
	for name, first := range map[string]string{
		"xkbcommon": "libxkbcommon-dev",
		"libpng":    "libpng-dev",
		"gtk+-3.0":  "libgtk-3-dev",
		"vips":      "libvips-dev",
	} {
		if got := devPackages(name); len(got) == 0 || got[0] != first {
			t.Errorf("devPackages(%q) = %q, want %s first", name, got, first)
		}
	}
	if got := devPackages("gtk+-3.0"); !slices.Contains(got, "libgtk-dev") {
		t.Errorf("devPackages(gtk+-3.0) = %q, want the unversioned name too", got)
	}
	if got := devPackages("wayland-client"); !slices.Contains(got, "libwayland-dev") {
		t.Errorf("devPackages(wayland-client) = %q, want its family's package", got)
	}
}

// A Go command whose cgo code needs a C library pkg-config cannot find
// fails generation with the library named, not a bare build error.
func TestGenerateNamesMissingCLibrary(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"go", "gcc", "pkg-config"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s on this machine", tool)
		}
	}
	files := map[string]string{
		"go.mod": "module example.com/glow\n\ngo 1.21\n",
		"main.go": "// Command glow draws with a C library.\npackage main\n\n" +
			"// #cgo pkg-config: agentnet-test-no-such-library\nimport \"C\"\n\nimport \"flag\"\n\nfunc main() { flag.Parse() }\n",
	}
	dir := writeRepo(t, files)
	_, err := Generate(t.Context(), dir, Options{Env: append(os.Environ(), "CGO_ENABLED=1"), ProbeTimeout: 10 * time.Second})
	if err == nil {
		t.Fatal("Generate passed a command whose C library is missing")
	}
	if msg := err.Error(); !strings.Contains(msg, "agentnet-test-no-such-library") || !strings.Contains(msg, "no Debian package found") {
		t.Errorf("error = %v, want the missing library named", err)
	}
}
