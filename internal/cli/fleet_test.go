package cli

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentnet/agentnet/registry"
)

func TestFleet(t *testing.T) {
	t.Parallel()
	exe := filepath.Join(t.TempDir(), "agentnet")
	if out, err := exec.CommandContext(t.Context(), "go", "build", "-o", exe, "github.com/agentnet/agentnet/cmd/agentnet").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	home := t.TempDir()
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		env := &Env{Args: args, Stdout: &out, Stderr: &errb, Ctx: t.Context(), Executable: exe, Environ: os.Environ,
			Getenv: func(k string) string {
				if k == "AGENTNET_HOME" {
					return home
				}
				return ""
			}}
		return Main(env), out.String(), errb.String()
	}
	t.Cleanup(func() { run("fleet", "down") })

	var dirs []string
	for _, name := range []string{"one", "two"} {
		dir := filepath.Join(t.TempDir(), name)
		writeFile(t, filepath.Join(dir, "agent.yaml"), strings.Replace(shouterYAML, "name: shouter", "name: "+name, 1))
		dirs = append(dirs, dir)
	}
	// An in-process registry receives the cards.
	store, err := registry.OpenSQLite(t.Context(), filepath.Join(t.TempDir(), "reg.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	svc := registry.NewService(store, registry.CardsValidator)
	reg := httptest.NewServer(registry.NewHandler(svc))
	defer reg.Close()

	code, out, errs := run(append([]string{"fleet", "up", "--registry", reg.URL}, dirs...)...)
	if code != ExitOK || !strings.Contains(out, "one\thttp://127.0.0.1:") || !strings.Contains(out, "two\thttp://127.0.0.1:") {
		t.Fatalf("fleet up = %d, %q, %q; want both agents with their URLs", code, out, errs)
	}
	page, err := registry.NewClient(reg.URL).List(t.Context(), registry.Query{})
	if err != nil || len(page.Hits) != 2 {
		t.Errorf("registry list = %+v, %v; want the two agents", page, err)
	}
	if code, _, errs := run("fleet", "up", dirs[0]); code != ExitInvalid || !strings.Contains(errs, `agent "one" is already up`) {
		t.Errorf("second fleet up = %d, %q; want a usage error", code, errs)
	}

	code, out, errs = run("fleet", "status", "--json")
	var rows []struct {
		Name   string `json:"name"`
		URL    string `json:"url"`
		Health struct {
			Up bool `json:"up"`
		} `json:"health"`
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil || code != ExitOK || len(rows) != 2 || !rows[0].Health.Up || !rows[1].Health.Up {
		t.Fatalf("fleet status = %d, %s, %q (%v); want two agents up", code, out, errs, err)
	}
	if code, out, _ := run("fleet", "status"); code != ExitOK || !strings.Contains(out, "AGENT") || !strings.Contains(out, "process") {
		t.Errorf("fleet status table = %d, %q", code, out)
	}

	if code, out, errs := run("fleet", "down"); code != ExitOK || !strings.Contains(out, "stopped one") || !strings.Contains(out, "stopped two") {
		t.Fatalf("fleet down = %d, %q, %q", code, out, errs)
	}
	if code, out, _ := run("fleet", "status"); code != ExitOK || !strings.Contains(out, "no fleet is up") {
		t.Errorf("fleet status after down = %d, %q", code, out)
	}
	for _, r := range rows {
		if resp, err := (&http.Client{Timeout: time.Second}).Get(r.URL); err == nil {
			resp.Body.Close()
			t.Errorf("%s still answers after fleet down", r.URL)
		}
	}
}
