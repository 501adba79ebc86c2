package cli

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/a2a/a2atest"
	"github.com/agentnet/agentnet/a2a/conformance"
	"github.com/agentnet/agentnet/internal/junit"
)

func TestAudit(t *testing.T) {
	t.Parallel()
	good := a2atest.New(a2atest.None)
	t.Cleanup(good.Close)                                 // after the parallel subtests
	shouldOnly := a2atest.New(a2atest.GenericDescription) // a SHOULD check fails
	t.Cleanup(shouldOnly.Close)                           // after the parallel subtests
	bad := a2atest.New(a2atest.NullSkills)                // a MUST check fails
	t.Cleanup(bad.Close)                                  // after the parallel subtests
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string // substring
		stderr string // substring
	}{
		{"good", []string{"audit", good.URL}, ExitOK, "MUST failed: 0 · SHOULD failed: 0", ""},
		{"should fails", []string{"audit", shouldOnly.URL}, ExitOK, "FAIL  lint.generic-description", ""},
		{"must fails", []string{"audit", bad.URL, "--timeout", "10s"}, ExitFailed, "FAIL  card.null-lists", ""},
		{"fleet", []string{"audit", good.URL, bad.URL}, ExitFailed, "fleet of 2 endpoints", ""},
		{"no url", []string{"audit"}, ExitInvalid, "", "want at least 1 argument"},
		{"bad url", []string{"audit", "ftp://x/"}, ExitInvalid, "", "not an http(s) URL"},
		{"list", []string{"audit", "--list"}, ExitOK, "core.history-length", ""},
		{"level must", []string{"audit", shouldOnly.URL, "--level", "must"}, ExitOK, "SHOULD failed: 0 · MAY not met: 0", ""},
		{"level bad", []string{"audit", good.URL, "--level", "sometimes"}, ExitInvalid, "", `agentnet: audit: --level: unknown level "sometimes"`},
		{"transport jsonrpc", []string{"audit", good.URL, "--transport", "jsonrpc"}, ExitOK, "PASS  card.signature-valid", ""},
		{"transport bad", []string{"audit", good.URL, "--transport", "carrier-pigeon"}, ExitInvalid, "", "--transport: want jsonrpc, rest, grpc or all"},
		{"trusted keys missing", []string{"audit", good.URL, "--trusted-keys", "/nonexistent/keys.json"}, ExitInvalid, "", "--trusted-keys"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := run(t, tc.args...)
			if code != tc.code {
				t.Errorf("agentnet %v = exit %d, want %d (stderr %q)", tc.args, code, tc.code, stderr)
			}
			if !strings.Contains(stdout, tc.stdout) {
				t.Errorf("agentnet %v stdout lacks %q:\n%s", tc.args, tc.stdout, stdout)
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Errorf("agentnet %v stderr = %q, want %q", tc.args, stderr, tc.stderr)
			}
		})
	}
}

func TestAuditJUnit(t *testing.T) {
	t.Parallel()
	bad := a2atest.New(a2atest.NullSkills)
	defer bad.Close()
	path := filepath.Join(t.TempDir(), "audit.xml")
	code, stdout, stderr := run(t, "audit", bad.URL, "--junit", path, "--level", "should")
	if code != ExitFailed {
		t.Errorf("agentnet audit --junit (MUST failure) = exit %d, want %d (stderr %q)", code, ExitFailed, stderr)
	}
	if strings.Contains(stdout, "  MAY\n") {
		t.Errorf("agentnet audit --level should printed MAY checks:\n%s", stdout)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep junit.Report
	if err := xml.Unmarshal(data, &rep); err != nil {
		t.Fatalf("--junit file is not JUnit XML: %v\n%s", err, data)
	}
	var failures []string
	for _, s := range rep.Suites {
		for _, c := range s.Cases {
			if strings.HasPrefix(c.Class, "MAY.") {
				t.Errorf("JUnit case %s of level MAY with --level should", c.Name)
			}
			if c.FailureEl != nil {
				failures = append(failures, c.Name+": "+c.FailureEl.Message)
			}
		}
	}
	if rep.Tests < 10 || rep.Failures != len(failures) || !strings.Contains(strings.Join(failures, "\n"), "card.null-lists: MUST: ") {
		t.Errorf("JUnit report: %d tests, %d failures %q; want card.null-lists failed with its level and reason", rep.Tests, rep.Failures, failures)
	}
}

func TestAuditJSON(t *testing.T) {
	t.Parallel()
	bad := a2atest.New(a2atest.ParseErrorCode)
	defer bad.Close()
	code, stdout, _ := run(t, "audit", "--json", bad.URL)
	if code != ExitFailed {
		t.Errorf("agentnet audit --json (MUST failure) = exit %d, want %d", code, ExitFailed)
	}
	var rep conformance.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("stdout is not a JSON report: %v\n%s", err, stdout)
	}
	if rep.Summary.MustFailed != 2 || len(rep.Endpoints) != 1 {
		t.Errorf("summary = %+v (endpoints %d), want 2 MUST failures (rpc.parse-error for 1.0 and 0.3) and 1 endpoint", rep.Summary, len(rep.Endpoints))
	}
}

// --html writes the report as a page; --transport rest leaves the JSON-RPC
// checks out.
func TestAuditHTMLTransport(t *testing.T) {
	t.Parallel()
	good := a2atest.New(a2atest.None)
	defer good.Close()
	path := filepath.Join(t.TempDir(), "audit.html")
	code, stdout, stderr := run(t, "audit", good.URL, "--transport", "rest", "--html", path)
	if code != ExitOK {
		t.Fatalf("agentnet audit --html = exit %d (stderr %q)", code, stderr)
	}
	if strings.Contains(stdout, "core.send") || strings.Contains(stdout, "rpc.") {
		t.Errorf("--transport rest ran JSON-RPC checks:\n%s", stdout)
	}
	page, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(page), "<table") || !strings.Contains(string(page), "card.signature-valid") {
		t.Errorf("--html page: %v\n%.300s", err, page)
	}
}
