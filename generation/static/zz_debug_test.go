package static

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestZZDebug(t *testing.T) {
	name := os.Getenv("DBG_REPO")
	if name == "" {
		t.Skip()
	}
	dir := filepath.Join(t.TempDir(), name)
	if err := exec.Command("cp", "-r", "../../tasks/demo/repos/"+name, dir).Run(); err != nil {
		t.Fatal(err)
	}
	res, err := Generate(t.Context(), dir, Options{Name: name, Source: "repo", Env: os.Environ(), Log: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout.Write(res.YAML)
}
