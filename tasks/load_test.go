package tasks

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v4"

	"github.com/agentnet/agentnet/internal/yamlx"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestLoadGood(t *testing.T) {
	t.Parallel()
	s, err := Load("testdata/good/suite.yaml")
	if err != nil {
		t.Fatalf("Load(good) = %v", err)
	}
	if got, want := len(s.Repos), 2; got != want {
		t.Errorf("repos = %d, want %d", got, want)
	}
	tiers := map[string]Tier{}
	for _, c := range s.Cases {
		tiers[c.ID] = c.Tier()
	}
	if diff := cmp.Diff(map[string]Tier{"top-words": Medium, "chain-1": Medium, "build-it": Easy}, tiers); diff != "" {
		t.Errorf("tiers (-want +got):\n%s", diff)
	}
	top := s.Cases[0]
	if top.Timeout.Seconds() != 120 || top.Input.Data["n"] != 3 || len(top.Expect) != 6 || top.Rubric.Text() != "Names the three words." {
		t.Errorf("top-words decoded as %+v", top)
	}
	com := s.Cases[2]
	if got := len(com.Cases.Heldout.Cases); got != 2 {
		t.Errorf("held-out cases loaded from file = %d, want 2", got)
	}
	if com.Gates.CaseTimeout.Minutes() != 2 || *com.Baseline != 40 || com.Rubric[0].Weight != 30 {
		t.Errorf("commission decoded as %+v", com)
	}
}

// TestLoadBad checks every bad suite in testdata/bad against its golden list
// of problems (refresh with -update).
func TestLoadBad(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("testdata/bad/*.yaml")
	if len(files) == 0 {
		t.Fatal("no bad suites in testdata/bad")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			_, err := Load(f)
			ps, ok := yamlx.AsProblems(err)
			if !ok {
				t.Fatalf("Load(%s) = %v, want problems", f, err)
			}
			got := ps.Error() + "\n"
			golden := strings.TrimSuffix(f, ".yaml") + ".problems"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("read golden (run with -update): %v", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			for _, p := range ps {
				if p.Line == 0 || p.File != f {
					t.Errorf("problem without file:line: %v", p)
				}
			}
		})
	}
}

func TestTiers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n          int
		indicators Tier
		steps      Tier
	}{
		{0, Easy, Easy}, {1, Easy, Easy}, {2, Medium, Easy}, {3, Hard, Easy},
		{4, Hard, Medium}, {5, Hard, Medium}, {6, Hard, Hard}, {9, Hard, Hard},
	} {
		if got := IndicatorTier(tc.n); got != tc.indicators {
			t.Errorf("IndicatorTier(%d) = %s, want %s", tc.n, got, tc.indicators)
		}
		if tc.n >= 2 {
			if got := StepTier(tc.n); got != tc.steps {
				t.Errorf("StepTier(%d) = %s, want %s", tc.n, got, tc.steps)
			}
		}
	}
}

func TestJSONFormIsEquivalent(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/good/suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var generic any
	if err := yaml.Unmarshal(data, &generic); err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(generic)
	if err != nil {
		t.Fatal(err)
	}
	fromYAML, err := Load("testdata/good/suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	fromJSON, err := Parse("testdata/good/suite.json", js)
	if err != nil {
		t.Fatalf("Parse(JSON form) = %v", err)
	}
	a, _ := json.Marshal(fromYAML)
	b, _ := json.Marshal(fromJSON)
	if diff := cmp.Diff(string(a), string(b)); diff != "" {
		t.Errorf("YAML and JSON forms differ (-yaml +json):\n%s", diff)
	}
}
