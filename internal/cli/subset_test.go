package cli

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentnet/agentnet/eval"
	"github.com/agentnet/agentnet/internal/junit"
	"github.com/agentnet/agentnet/tasks"
)

func TestSubset(t *testing.T) {
	t.Parallel()
	suite := func() *tasks.Suite {
		return &tasks.Suite{Name: "s", Repos: []tasks.Repo{{ID: "csvtool"}, {ID: "csvkit"}, {ID: "mdkit"}},
			Cases: []tasks.Case{
				{ID: "csvtool-a", Type: tasks.Single, Repo: "csvtool"},
				{ID: "mdkit-a", Type: tasks.Single, Repo: "mdkit"},
				{ID: "chain-a", Type: tasks.Chain, Steps: []tasks.Step{{Repo: "mdkit"}, {Repo: "csvtool"}}},
				{ID: "chain-b", Type: tasks.Chain, Steps: []tasks.Step{{Repo: "csvtool"}, {Repo: "csvkit"}}},
				{ID: "build-a", Type: tasks.Commission},
			}}
	}
	for _, tc := range []struct {
		name, tasks, repos string
		wantRepos          []string
		wantCases          []string
		wantErr            string
	}{
		{"none", "", "", []string{"csvtool", "csvkit", "mdkit"}, []string{"csvtool-a", "mdkit-a", "chain-a", "chain-b", "build-a"}, ""},
		{"tasks", "chain-*", "", []string{"csvtool", "csvkit", "mdkit"}, []string{"chain-a", "chain-b"}, ""},
		{"repos", "", "csv*", []string{"csvtool", "csvkit"}, []string{"csvtool-a", "chain-b", "build-a"}, ""},
		{"both", "chain-?", "csv*", []string{"csvtool", "csvkit"}, []string{"chain-b"}, ""},
		{"nothing", "nope-*", "", nil, nil, "no task of suite s matches"},
		{"bad glob", "[", "", nil, nil, `--tasks "[": syntax error`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := suite()
			err := subset(s, tc.tasks, tc.repos)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || exitCode(err) != ExitInvalid {
					t.Fatalf("subset(%q, %q) error = %v, want a usage error with %q", tc.tasks, tc.repos, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("subset(%q, %q) error = %v", tc.tasks, tc.repos, err)
			}
			var repos, cases []string
			for _, r := range s.Repos {
				repos = append(repos, r.ID)
			}
			for _, c := range s.Cases {
				cases = append(cases, c.ID)
			}
			if d := cmp.Diff(tc.wantRepos, repos); d != "" {
				t.Errorf("subset(%q, %q) repos (-want +got):\n%s", tc.tasks, tc.repos, d)
			}
			if d := cmp.Diff(tc.wantCases, cases); d != "" {
				t.Errorf("subset(%q, %q) tasks (-want +got):\n%s", tc.tasks, tc.repos, d)
			}
		})
	}
}

// TestDemoSubsetJUnit runs the demo on one repo and its own tasks and reads
// the JUnit file it writes back.
func TestDemoSubsetJUnit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs part of the demo")
	}
	t.Parallel()
	exe := buildAgentnet(t)
	dir := t.TempDir()
	runDir, xmlPath := filepath.Join(dir, "run"), filepath.Join(dir, "demo.xml")
	var out, errb bytes.Buffer
	env := &Env{
		Args:   []string{"demo", "--out", runDir, "--repos", "csvtool", "--tasks", "csvtool-*", "--junit", xmlPath, "--json"},
		Stdout: &out, Stderr: &errb, Ctx: t.Context(),
		Getenv: func(k string) string { return map[string]string{"HOME": dir}[k] }, Environ: os.Environ, Executable: exe,
	}
	if code := Main(env); code != ExitOK {
		t.Fatalf("agentnet %v = exit %d\nstderr:\n%s", env.Args, code, errb.String())
	}
	var res eval.Results
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("stdout is not results.json: %v", err)
	}
	if len(res.Repos) != 1 || res.Repos[0].ID != "csvtool" || len(res.Tasks) == 0 {
		t.Fatalf("results hold repos %v and %d tasks, want csvtool alone and its tasks", res.Repos, len(res.Tasks))
	}
	data, err := os.ReadFile(xmlPath)
	if err != nil {
		t.Fatal(err)
	}
	var rep junit.Report
	if err := xml.Unmarshal(data, &rep); err != nil {
		t.Fatalf("--junit file is not JUnit XML: %v\n%s", err, data)
	}
	var names []string
	failures := 0
	for _, s := range rep.Suites {
		for _, c := range s.Cases {
			names = append(names, c.Name)
			if c.FailureEl != nil {
				failures++
				if c.FailureEl.Message == "" {
					t.Errorf("JUnit case %s failed without a reason", c.Name)
				}
			}
		}
	}
	var want []string
	wantFail := 0
	want = append(want, "csvtool")
	for _, tr := range res.Tasks {
		if !strings.HasPrefix(tr.ID, "csvtool-") {
			t.Errorf("task %s ran outside --tasks csvtool-*", tr.ID)
		}
		want = append(want, tr.ID)
		if !tr.Pass && tr.Status != eval.StatusInfraError {
			wantFail++
		}
	}
	slices.Sort(names)
	slices.Sort(want)
	if d := cmp.Diff(want, names); d != "" {
		t.Errorf("JUnit cases (-want +got):\n%s", d)
	}
	if rep.Tests != len(want) || failures != wantFail || rep.Failures != wantFail {
		t.Errorf("JUnit report: %d tests, %d failures (%d counted); want %d tests, %d failures", rep.Tests, failures, rep.Failures, len(want), wantFail)
	}
}
