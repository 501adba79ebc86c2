package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentnet/agentnet/registry"
)

func TestFleet(t *testing.T) {
	t.Parallel()
	exe := buildAgentnet(t)
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

	if code, out, errs := run("fleet", "down"); code != ExitOK || !strings.Contains(out, "stopped one, removed from "+reg.URL) || !strings.Contains(out, "stopped two") {
		t.Fatalf("fleet down = %d, %q, %q", code, out, errs)
	}
	// fleet down took the agents out of the registry too.
	if page, err := registry.NewClient(reg.URL).List(t.Context(), registry.Query{Statuses: registry.Statuses}); err != nil || len(page.Hits) != 0 {
		t.Errorf("registry list after fleet down = %+v, %v; want no agent", page.Hits, err)
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

	// The same with --json.
	code, out, errs = run("fleet", "up", "--json", "--registry", reg.URL, dirs[0])
	var up []struct {
		Name       string `json:"name"`
		URL        string `json:"url"`
		RegistryID string `json:"registry_id"`
	}
	if err := json.Unmarshal([]byte(out), &up); err != nil || code != ExitOK || len(up) != 1 || up[0].Name != "one" || up[0].RegistryID == "" {
		t.Fatalf("fleet up --json = %d, %s, %q (%v); want agent one with its registry id", code, out, errs, err)
	}
	if _, err := registry.NewClient(reg.URL).Get(t.Context(), up[0].RegistryID); err != nil {
		t.Errorf("registry has no record %s: %v", up[0].RegistryID, err)
	}
	code, out, errs = run("fleet", "down", "--json")
	var down []struct {
		Name                  string
		Stopped, Deregistered bool
	}
	if err := json.Unmarshal([]byte(out), &down); err != nil || code != ExitOK || len(down) != 1 || !down[0].Stopped || !down[0].Deregistered {
		t.Fatalf("fleet down --json = %d, %s, %q (%v); want one stopped and deregistered", code, out, errs, err)
	}
	if _, err := registry.NewClient(reg.URL).Get(t.Context(), up[0].RegistryID); !errors.Is(err, registry.ErrNotFound) {
		t.Errorf("registry record %s after fleet down: %v, want not found", up[0].RegistryID, err)
	}
}

// TestFleetSuite brings up the fleet of a suite whose repos have no bundle:
// each is generated, kept under AGENTNET_HOME and reused the next time.
func TestFleetSuite(t *testing.T) {
	t.Parallel()
	exe := buildAgentnet(t)
	home := t.TempDir()
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		env := &Env{Args: args, Stdout: &out, Stderr: &errb, Ctx: t.Context(), Executable: exe, Environ: os.Environ,
			Getenv: func(k string) string { return map[string]string{"AGENTNET_HOME": home}[k] }}
		return Main(env), out.String(), errb.String()
	}
	t.Cleanup(func() { run("fleet", "down") })
	demo, _ := filepath.Abs("../../tasks/demo/repos")
	suite := filepath.Join(t.TempDir(), "suite.yaml")
	writeFile(t, suite, `version: 1
name: two
repos:
  - {id: words, source: `+filepath.Join(demo, "textstats")+`, skills: [{id: top, description: Most frequent words.}]}
  - {id: fuzzy, source: `+filepath.Join(demo, "fuzzymatch")+`, skills: [{id: distance, description: Edit distance.}]}
`)
	code, out, errs := run("fleet", "up", suite)
	if code != ExitOK || !strings.Contains(out, "words\thttp://127.0.0.1:") || !strings.Contains(out, "fuzzy\thttp://127.0.0.1:") {
		t.Fatalf("fleet up SUITE = %d, %q, %q", code, out, errs)
	}
	for _, id := range []string{"words", "fuzzy"} {
		if _, err := os.Stat(filepath.Join(home, "fleet", "bundles", id, "agent.yaml")); err != nil {
			t.Errorf("no generated bundle kept for %s: %v", id, err)
		}
	}
	if code, _, errs := run("fleet", "down"); code != ExitOK {
		t.Fatalf("fleet down = %d, %q", code, errs)
	}
	// The second time the kept bundles are reused: their agent.yaml is not rewritten.
	kept := filepath.Join(home, "fleet", "bundles", "words", "agent.yaml")
	before, _ := os.Stat(kept)
	if code, out, errs := run("fleet", "up", suite); code != ExitOK || !strings.Contains(out, "words\t") {
		t.Fatalf("second fleet up = %d, %q, %q", code, out, errs)
	}
	if after, _ := os.Stat(kept); !after.ModTime().Equal(before.ModTime()) {
		t.Error("the kept bundle was generated again")
	}
	// A repo that cannot become an agent fails the command with its reason.
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	empty := t.TempDir()
	writeFile(t, bad, "version: 1\nname: bad\nrepos:\n  - {id: empty, source: "+empty+", skills: [{id: x, description: y}]}\n")
	if code, _, errs := run("fleet", "up", bad); code != ExitFailed || !strings.Contains(errs, "repo empty: no agent could be generated") {
		t.Errorf("fleet up of an empty repo = %d, %q", code, errs)
	}
}
