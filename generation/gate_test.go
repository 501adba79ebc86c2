package generation

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGateOwnServer passes the gate with a bundle that brings its own A2A
// server: its skills are counted in the card the server serves.
func TestGateOwnServer(t *testing.T) {
	t.Parallel()
	server, err := os.ReadFile(filepath.Join("..", "a2a", "host", "testdata", "a2aserver.py"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	y := "version: 1\nname: pyshout\ndescription: Turns text into capital letters.\nserve: [python3, server.py, --port, \"{{port}}\"]\n"
	for name, text := range map[string]string{"agent.yaml": y, "server.py": string(server)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Gate(t.Context(), dir, os.Environ(), nil)
	if err != nil {
		t.Fatalf("Gate(own server) = %v", err)
	}
	if len(res.Skills) == 0 {
		t.Error("Gate(own server) counted no skill")
	}
}
