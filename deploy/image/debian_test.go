package image

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestAddPackages copies an installed Debian package from this machine:
// its program, its documentation, and the shared libraries the program
// loads, which come from other packages; a package the machine lacks is
// an error that says how to install it.
func TestAddPackages(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("dpkg-query"); err != nil {
		t.Skip("no dpkg-query: not a Debian system")
	}
	if err := exec.Command("dpkg-query", "-W", "jq").Run(); err != nil {
		t.Skip("jq is not installed: apt-get install jq")
	}
	tc := NewToolchain(os.Environ())
	r := NewRootfs()
	if err := tc.AddPackages(r, []string{"jq"}); err != nil {
		t.Fatalf("AddPackages(jq) error = %v", err)
	}
	for _, want := range []string{"/usr/bin/jq", "/usr/share/doc/jq/copyright"} {
		if r.Files[want] == "" {
			t.Errorf("AddPackages(jq) lacks %s", want)
		}
	}
	var libjq bool
	for p := range r.Files {
		libjq = libjq || strings.Contains(p, "/libjq.so")
	}
	if !libjq {
		t.Errorf("AddPackages(jq) lacks libjq, which /usr/bin/jq loads")
	}
	for p := range r.Dirs {
		if p == "/usr" || p == "/usr/share" {
			t.Errorf("AddPackages(jq) copied the whole directory %s", p)
		}
	}

	err := tc.AddPackages(NewRootfs(), []string{"agentnet-absent-package"})
	if err == nil || !strings.Contains(err.Error(), "agentnet-absent-package is not installed") || !strings.Contains(err.Error(), "apt-get install") {
		t.Errorf("AddPackages(absent) error = %v, want not installed, with how to install it", err)
	}
	if err := tc.AddPackages(NewRootfs(), []string{"--admindir=/tmp"}); err == nil {
		t.Errorf("AddPackages(an option) error = nil, want not a package name")
	}
}
