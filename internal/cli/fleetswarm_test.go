package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFleetExport writes a bundle's fleet for Kubernetes and Compose (the
// images named, not built), and refuses bad input with one line and exit 2.
func TestFleetExport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "echoer")
	os.MkdirAll(dir, 0o755)
	y := "version: 1\nname: echoer\ndescription: Echoes.\nskills:\n  - id: echo\n    name: Echo\n    description: Echo the text.\n" +
		"    params: {type: object, properties: {text: {type: string}}}\n    run: [echo, \"{{text}}\"]\n"
	if err := os.WriteFile(filepath.Join(dir, "agent.yaml"), []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "fleet", "export", "--format", "k8s", dir)
	if code != 0 || !strings.Contains(out, "kind: Deployment") || !strings.Contains(out, "#   agentnet-agent-echoer:") {
		t.Fatalf("export k8s = %d, %q, %q", code, out, errOut)
	}
	file := filepath.Join(t.TempDir(), "compose.yaml")
	if code, _, errOut := run(t, "fleet", "export", "--format", "compose", "-o", file, dir); code != 0 {
		t.Fatalf("export compose = %d, %q", code, errOut)
	}
	if data, err := os.ReadFile(file); err != nil || !strings.Contains(string(data), "agentnet-echoer:") {
		t.Fatalf("compose file = %q, %v", data, err)
	}
	for _, args := range [][]string{
		{"fleet", "export", "--format", "helm", dir},
		{"fleet", "export", filepath.Join(t.TempDir(), "missing")},
		{"fleet", "export"},
	} {
		code, _, errOut := run(t, args...)
		if code != ExitInvalid || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("%v = exit %d, stderr %q; want exit 2 and one line", args, code, errOut)
		}
	}
}
