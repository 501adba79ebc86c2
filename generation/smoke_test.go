package generation

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/bundle"
)

// copyBundle copies a testdata bundle into a fresh directory.
func copyBundle(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := copyTree(filepath.Join("testdata", "smoke", name), dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestGateCallsSkills hosts a bundle and calls each skill: the skill whose
// program is not installed and the one whose import fails are dropped from
// agent.yaml with their reasons; the skill that refuses a made-up input
// runs, and so does the one called with its README example.
func TestGateCallsSkills(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	dir := copyBundle(t, "mixed")
	var log bytes.Buffer
	res, err := Gate(t.Context(), dir, os.Environ(), &log)
	if err != nil {
		t.Fatalf("Gate = %v\n%s", err, log.String())
	}
	if want := []string{"show", "refuse"}; !slices.Equal(res.Skills, want) {
		t.Errorf("skills = %v, want %v\n%s", res.Skills, want, log.String())
	}
	why := map[string]string{}
	for _, d := range res.Dropped {
		why[d.Skill] = d.Reason
	}
	if !strings.Contains(why["absent"], "could not start") {
		t.Errorf("absent dropped for %q, want that it could not start", why["absent"])
	}
	if !strings.Contains(why["broken"], "a module it imports is missing") {
		t.Errorf("broken dropped for %q, want a missing module", why["broken"])
	}
	if len(res.Dropped) != 2 {
		t.Errorf("dropped = %v, want absent and broken", res.Dropped)
	}
	if !strings.Contains(log.String(), "gate called show (example 1): it answered") {
		t.Errorf("the log does not say the example's call answered:\n%s", log.String())
	}
	b, err := bundle.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, sk := range b.Skills {
		ids = append(ids, sk.ID)
	}
	if want := []string{"show", "refuse"}; !slices.Equal(ids, want) {
		t.Errorf("agent.yaml skills after the gate = %v, want %v", ids, want)
	}
}

// TestGateFailsWithoutRunnableSkill fails the bundle none of whose skills
// runs, at stage call, naming the reason.
func TestGateFailsWithoutRunnableSkill(t *testing.T) {
	t.Parallel()
	dir := copyBundle(t, "none")
	res, err := Gate(t.Context(), dir, os.Environ(), nil)
	var ge *GateError
	if !errors.As(err, &ge) || ge.Stage != "call" {
		t.Fatalf("Gate = %v, want a failure at stage call", err)
	}
	if !strings.Contains(err.Error(), "absent: the program could not start") {
		t.Errorf("error %q does not say why the skill cannot run", err)
	}
	if res == nil || len(res.Dropped) != 1 {
		t.Errorf("result = %+v, want the one dropped skill", res)
	}
}

func init() {
	RegisterGenerator("test-copy-agent-yaml", func(*Config) (Generator, error) { return copyAgentYAML{}, nil })
}

// copyAgentYAML is a generator whose bundle is the agent.yaml the
// repository holds, its repository the copy beside it.
type copyAgentYAML struct{}

func (copyAgentYAML) Generate(_ context.Context, job *Job) (*Output, error) {
	data, err := os.ReadFile(filepath.Join(job.RepoDir, bundle.FileName))
	if err != nil {
		return nil, err
	}
	text := strings.Replace(string(data), "skills:", "repo: {source: "+job.RepoSource+"}\nskills:", 1)
	return &Output{}, os.WriteFile(filepath.Join(job.Bundle, bundle.FileName), []byte(text), 0o644)
}

// TestRunRecordsDropped keeps the dropped skills in the attempt record.
func TestRunRecordsDropped(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	out := filepath.Join(t.TempDir(), "out")
	rep, err := Run(t.Context(), Config{Repo: filepath.Join("testdata", "smoke", "mixed"), Out: out, Env: os.Environ(), Generator: "test-copy-agent-yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("Run failed: %+v", rep.Attempts)
	}
	a := rep.Attempts[0]
	var names []string
	for _, d := range a.Dropped {
		names = append(names, d.Skill)
	}
	if !slices.Equal(names, []string{"absent", "broken"}) {
		t.Errorf("attempt's dropped = %v, want [absent broken]", names)
	}
	data, err := os.ReadFile(filepath.Join(out, ".agentnet", "attempts", "1", "attempt.json"))
	if err != nil || !strings.Contains(string(data), `"dropped"`) {
		t.Errorf("attempt.json has no dropped skills (%v):\n%s", err, data)
	}
}
