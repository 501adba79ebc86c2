package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// run runs agentnet in-process and returns its exit code, stdout and stderr.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{
		Args:   args,
		Getenv: func(string) string { return "" },
		Stdin:  strings.NewReader(""),
		Stdout: &out,
		Stderr: &errb,
		Ctx:    t.Context(),
	}
	code := Main(env)
	return code, out.String(), errb.String()
}

func TestExitCodes(t *testing.T) {
	t.Parallel()
	bad := filepath.Join(t.TempDir(), "suite.yaml")
	if err := os.WriteFile(bad, []byte("version: 1\nname: bad\nrepos:\n  - id: Bad_Id\n    source: nowhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		args       []string
		code       int
		stdout     string // substring
		stderrLine string // substring of stderr
	}{
		{"help", []string{"--help"}, ExitOK, "Usage:", ""},
		{"bare", nil, ExitOK, "Available Commands", ""},
		{"version", []string{"--version"}, ExitOK, "agentnet v", ""},
		{"unknown command", []string{"frobnicate"}, ExitInvalid, "", `unknown command "frobnicate"`},
		{"unknown subcommand", []string{"suite", "frobnicate"}, ExitInvalid, "", `agentnet suite: unknown command "frobnicate"`},
		{"typo", []string{"benh"}, ExitInvalid, "", `did you mean "bench"`},
		{"typo subcommand", []string{"fleet", "stauts"}, ExitInvalid, "", `did you mean "status"?`},
		{"one prefix", []string{"bench"}, ExitInvalid, "", "agentnet bench: want 1 argument"},
		{"completion bash", []string{"completion", "bash"}, ExitOK, "complete -o default -F __start_agentnet agentnet", ""},
		{"completion zsh", []string{"completion", "zsh"}, ExitOK, "#compdef agentnet", ""},
		{"completion fish", []string{"completion", "fish"}, ExitOK, "complete -c agentnet", ""},
		{"completion unknown", []string{"completion", "tcsh"}, ExitInvalid, "", `agentnet completion: unknown command "tcsh"`},
		{"registry not running", []string{"registry", "list", "--registry", "http://127.0.0.1:1"}, ExitFailed, "", "no registry answers at http://127.0.0.1:1"},
		{"unknown flag", []string{"suite", "validate", "--nope", "x"}, ExitInvalid, "", "unknown flag: --nope"},
		{"missing arg", []string{"suite", "validate"}, ExitInvalid, "", "want 1 argument"},
		{"missing file", []string{"suite", "validate", "/nonexistent/suite.yaml"}, ExitInvalid, "", "no such file"},
		{"invalid suite", []string{"suite", "validate", bad}, ExitInvalid, "", "suite.yaml:4:9: repos[0].id:"},
		{"demo suite", []string{"suite", "validate", "../../tasks/demo/suite.yaml"}, ExitOK, "suite demo is valid", ""},
		{"schema suite", []string{"schema", "suite"}, ExitOK, `"$schema"`, ""},
		{"schema unknown", []string{"schema", "nope"}, ExitInvalid, "", `unknown format "nope"`},
		{"verify unknown runtime", []string{"suite", "verify", "../../tasks/demo/suite.yaml", "--runtime", "podman"}, ExitInvalid, "", `unknown runtime "podman"`},
		{"generate unknown runtime", []string{"generate", "../../tasks/demo/repos/textstats", "--out", filepath.Join(t.TempDir(), "out"), "--generator", "command", "--builder-cmd", "true", "--runtime", "podman"}, ExitInvalid, "", `unknown runtime "podman"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := run(t, tc.args...)
			if code != tc.code {
				t.Errorf("agentnet %v = exit %d, want %d (stderr %q)", tc.args, code, tc.code, stderr)
			}
			if !strings.Contains(stdout, tc.stdout) {
				t.Errorf("agentnet %v stdout = %q, want it to contain %q", tc.args, stdout, tc.stdout)
			}
			if tc.stderrLine != "" && !strings.Contains(stderr, tc.stderrLine) {
				t.Errorf("agentnet %v stderr = %q, want it to contain %q", tc.args, stderr, tc.stderrLine)
			}
			if strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic:") {
				t.Errorf("agentnet %v printed a Go stack: %s", tc.args, stderr)
			}
			for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
				if line != "" && !strings.HasPrefix(line, "agentnet: ") && !strings.HasPrefix(line, "agentnet ") {
					t.Errorf("stderr line %q is not an agentnet error line", line)
				}
				if strings.HasPrefix(line, "agentnet: agentnet") {
					t.Errorf("stderr line %q names the program twice", line)
				}
			}
		})
	}
}

// TestHelpEverywhere runs --help on every command of the tree.
func TestHelpEverywhere(t *testing.T) {
	t.Parallel()
	env := &Env{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Ctx: context.Background()}
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		paths = append(paths, path)
		for _, sub := range c.Commands() {
			if sub.Name() != "help" {
				walk(sub, append(append([]string{}, path...), sub.Name()))
			}
		}
	}
	walk(newRootCmd(env), nil)
	if len(paths) < 4 {
		t.Fatalf("command tree has only %d commands", len(paths))
	}
	for _, p := range paths {
		code, stdout, stderr := run(t, append(p, "--help")...)
		if code != ExitOK || !strings.Contains(stdout, "Usage:") {
			t.Errorf("agentnet %s --help = exit %d, stdout %q, stderr %q", strings.Join(p, " "), code, stdout, stderr)
		}
	}
}

func TestPanicBecomesOneLine(t *testing.T) {
	t.Parallel()
	var errb bytes.Buffer
	env := &Env{Args: []string{"suite", "validate", "x"}, Stdout: &bytes.Buffer{}, Stderr: &errb, Ctx: t.Context()}
	// A command that panics: Main must turn it into one line and exit 1.
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("Main let a panic escape: %v", r)
			}
		}()
		code := mainWith(env, func(*Env) *cobra.Command { panic("boom") })
		if code != ExitFailed || !strings.Contains(errb.String(), "agentnet: internal error: boom") {
			t.Errorf("panic gave exit %d, stderr %q", code, errb.String())
		}
	}()
}

// buildAgentnet builds the agentnet binary for tests whose agents run as
// child processes ("agentnet serve").
func buildAgentnet(t *testing.T) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "agentnet")
	if out, err := exec.CommandContext(t.Context(), "go", "build", "-o", exe, "github.com/agentnet/agentnet/cmd/agentnet").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return exe
}
