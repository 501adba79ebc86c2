package cli

import (
	"encoding/json"
	"runtime/debug"
	"strings"
	"testing"
)

func TestBuildInfoFrom(t *testing.T) {
	t.Parallel()
	bi := &debug.BuildInfo{Settings: []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "55950dcc714d5420b446ef16e64794ccd5a315a7"},
		{Key: "vcs.time", Value: "2026-11-30T07:27:51Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	b := buildInfoFrom("v1.2.3", bi)
	if b.Commit != "55950dcc714d5420b446ef16e64794ccd5a315a7" || b.CommitTime != "2026-11-30T07:27:51Z" || !b.Modified {
		t.Errorf("buildInfoFrom = %+v", b)
	}
	if got, want := b.String(), "agentnet v1.2.3 (commit 55950dcc714d5420b446ef16e64794ccd5a315a7 of 2026-11-30T07:27:51Z, modified, go"; !strings.HasPrefix(got, want) {
		t.Errorf("String() = %q, want prefix %q", got, want)
	}
	if rb := b.bench(); rb.Version != "v1.2.3" || rb.Commit != b.Commit || !rb.Modified {
		t.Errorf("bench() = %+v", rb)
	}
	if got := buildInfoFrom("v1", nil).String(); !strings.Contains(got, "commit unknown") {
		t.Errorf("without build info: %q, want commit unknown", got)
	}
}

func TestVersionCommand(t *testing.T) {
	t.Parallel()
	code, out, errOut := run(t, "version")
	if code != ExitOK || !strings.HasPrefix(out, "agentnet v") || !strings.Contains(out, "commit") {
		t.Errorf("agentnet version = %d, %q, %q", code, out, errOut)
	}
	code, out, _ = run(t, "version", "--json")
	var b buildInfo
	if err := json.Unmarshal([]byte(out), &b); code != ExitOK || err != nil || b.Version == "" || b.Go == "" {
		t.Errorf("agentnet version --json = %d, %q (%v)", code, out, err)
	}
	if code, _, errOut := run(t, "version", "extra"); code != ExitInvalid {
		t.Errorf("agentnet version extra = %d, %q, want %d", code, errOut, ExitInvalid)
	}
}
