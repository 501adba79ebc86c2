package generation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/generation/static"
	"github.com/agentnet/agentnet/internal/proc"
)

// Command is the "command" generator: it runs an external coding agent
// (any command line: Claude Code, Codex, OpenHands, a script) in the
// attempt's copy of the repository with a prompt file describing the bundle
// format, under the attempt's time budget, killed with its whole process
// group at the end — or, with a Sandbox (InSandbox), contained by it: in a
// container that sees the attempt's bundle directory alone. Its model
// traffic is pointed at a metering proxy through OPENAI_BASE_URL,
// OPENAI_API_BASE and ANTHROPIC_BASE_URL; when the proxy sees no usage, the
// tokens are read from the agent's JSON output, and otherwise recorded as
// unknown.
type Command struct {
	argv      []string
	upstreams map[string]string
	sandbox   Sandbox
}

var _ Generator = (*Command)(nil)

// Sandbox runs a coding agent contained, as docker.Sandbox (deploy/docker)
// does in a Docker container (--runtime docker). It is safe for concurrent
// use.
type Sandbox interface {
	// Listen opens a listener on this machine that the commands Run is
	// given it reach at its address.
	Listen(ctx context.Context) (net.Listener, error)
	// Run runs spec as proc.Run does, where the command sees only dirs
	// (read-write, at their own paths) of this machine's files and
	// reaches reach (from Listen) and nothing else of the network. The
	// command and everything it started are gone when Run returns.
	Run(ctx context.Context, spec proc.Spec, dirs []string, reach net.Listener) *proc.Result
}

// CommandOption configures a Command.
type CommandOption func(*Command)

// InSandbox runs the coding agent in s rather than as a local process
// group; nil keeps it local.
func InSandbox(s Sandbox) CommandOption { return func(g *Command) { g.sandbox = s } }

// NewCommand returns the command generator for a command line, split into
// words as a shell would split it (quotes and backslashes) but never run
// by one. In its words {prompt_file}, {prompt} and {bundle_dir} are
// replaced. upstreams overrides the proxy's targets (see StartMeter); by
// default they are the environment's OPENAI_BASE_URL and
// ANTHROPIC_BASE_URL, else the public APIs.
func NewCommand(cmdline string, upstreams map[string]string, opts ...CommandOption) (*Command, error) {
	argv, err := splitWords(cmdline)
	if err != nil {
		return nil, fmt.Errorf("builder command: %w", err)
	}
	if len(argv) == 0 {
		return nil, errors.New("builder command: empty")
	}
	g := &Command{argv: argv, upstreams: upstreams}
	for _, o := range opts {
		o(g)
	}
	return g, nil
}

// Generate implements Generator.
func (g *Command) Generate(ctx context.Context, job *Job) (*Output, error) {
	out := &Output{Tokens: Unknown()}
	meter, err := g.startMeter(ctx, job.Env)
	if err != nil {
		return out, err
	}
	defer meter.Close()

	source := job.RepoSource
	if !bundle.IsGitURL(source) {
		rel, _ := filepath.Rel(job.Bundle, job.RepoDir)
		source = filepath.ToSlash(rel)
	}
	envNote, missing := pythonEnvNote(ctx, job)
	out.Missing = missing
	prompt := commandPrompt(job, source) + envNote
	promptFile := filepath.Join(job.Bundle, ".agentnet", "prompt.md")
	if err := os.MkdirAll(filepath.Dir(promptFile), 0o755); err != nil {
		return out, err
	}
	if err := os.WriteFile(promptFile, []byte(prompt), 0o644); err != nil {
		return out, err
	}
	argv := make([]string, len(g.argv))
	for i, a := range g.argv {
		argv[i] = strings.NewReplacer("{prompt_file}", promptFile, "{prompt}", prompt, "{bundle_dir}", job.Bundle).Replace(a)
	}
	env := agentEnv(job.Env, meter,
		"AGENTNET_BUNDLE_DIR="+job.Bundle, "AGENTNET_REPO_DIR="+job.RepoDir, "AGENTNET_PROMPT_FILE="+promptFile)
	budget := time.Until(job.Deadline)
	if job.Deadline.IsZero() || budget <= 0 {
		budget = DefaultTimeout
	}
	fmt.Fprintf(job.Log, "$ %s\n", shortArgv(argv))
	// The bundle directory holds the repository's copy and the prompt: in
	// a sandbox, the agent sees nothing else.
	out.Tokens, err = g.drive(ctx, meter, proc.Spec{Argv: argv, Dir: job.RepoDir, Env: env, Timeout: budget, Tee: job.Log}, job.Bundle, job.Bundle)
	return out, err
}

// drive runs the coding agent (seeing only the directory visible when in a
// sandbox), counts its tokens — at the metering proxy, else from its own
// JSON output, else unknown — and checks that it wrote a bundle into want.
func (g *Command) drive(ctx context.Context, meter *Meter, spec proc.Spec, visible, want string) (Tokens, error) {
	spec.MaxOutput, spec.Stdin = 16<<20, strings.NewReader("")
	res := g.runAgent(ctx, meter, spec, visible)
	tokens := Unknown()
	if in, o, n := meter.Usage(); n > 0 {
		tokens = Known(in, o, "proxy")
	} else if in, o, ok := agentOutputUsage(res.Stdout); ok {
		tokens = Known(in, o, "agent-output")
	}
	if res.Err != nil {
		return tokens, fmt.Errorf("coding agent: %w", res.Err)
	}
	if !bundle.Exists(want) {
		return tokens, fmt.Errorf("coding agent exited without writing %s", filepath.Join(want, bundle.FileName))
	}
	return tokens, nil
}

// pythonEnvNote works out a Python repository's environment as the static
// generator does — the interpreter that sees the system's packages, a venv
// with them, the repository installed into it without network, the
// modules no interpreter has with their Debian packages — writes the
// script that builds it into the repository's copy, and tells the coding
// agent how to start its setup with it. It returns "" for a repository
// without Python, or when the analysis fails (the agent is then on its own;
// the log says why).
func pythonEnvNote(ctx context.Context, job *Job) (string, []MissingModule) {
	pe, err := static.Environment(ctx, job.RepoDir, static.Options{Env: job.Env, Log: job.Log})
	if err != nil || pe == nil {
		if err != nil {
			fmt.Fprintf(job.Log, "# python environment: %v\n", err)
		}
		return "", nil
	}
	setup, err := pe.SetupCommand(job.RepoDir)
	if err != nil {
		fmt.Fprintf(job.Log, "# python environment: %v\n", err)
		return "", nil
	}
	var missing []MissingModule
	var names []string
	for _, m := range pe.Missing {
		missing = append(missing, MissingModule{Module: m.Module, Debian: m.Debian})
		names = append(names, fmt.Sprintf("%s (Debian: %s)", m.Module, m.Debian))
	}
	argv, _ := json.Marshal(setup)
	var b strings.Builder
	b.WriteString("\n## The repository's Python environment\n\n")
	fmt.Fprintf(&b, "Python %s at %s was chosen", pe.Python.VersionString(), pe.Python.Exe)
	if pe.Python.Debian {
		b.WriteString(" (it sees Debian's system packages)")
	}
	b.WriteString(". ")
	if len(names) > 0 {
		fmt.Fprintf(&b, "Modules the code imports that no interpreter here has: %s; skills that need them will fail.\n", strings.Join(names, ", "))
	} else {
		b.WriteString("Every module the code imports is available.\n")
	}
	fmt.Fprintf(&b, "Make this the bundle's first setup command: it builds a virtual environment with the system's site\npackages in %s and installs the repository into it without network (the script is already in the\nrepository's copy):\n\n    setup: [%s]\n\nThen run Python in skills and checks as `%s`.\n", pe.Venv, argv, pe.VenvPython())
	return b.String(), missing
}

// startMeter starts the metering proxy where the agent reaches it: on
// loopback for a local agent, on a listener of the sandbox otherwise.
func (g *Command) startMeter(ctx context.Context, env []string) (*Meter, error) {
	if g.sandbox == nil {
		return StartMeter(g.meterUpstreams(env))
	}
	ln, err := g.sandbox.Listen(ctx)
	if err != nil {
		return nil, fmt.Errorf("metering proxy: %w", err)
	}
	return StartMeterOn(ln, g.meterUpstreams(env))
}

// runAgent runs the coding agent: a local process group, or a command of
// the sandbox that sees dir alone and reaches the meter.
func (g *Command) runAgent(ctx context.Context, meter *Meter, spec proc.Spec, dir string) *proc.Result {
	if g.sandbox == nil {
		return proc.Run(ctx, spec)
	}
	return g.sandbox.Run(ctx, spec, []string{dir}, meter.ln)
}

func shortArgv(argv []string) string {
	var parts []string
	for _, a := range argv {
		if len(a) > 80 || strings.Contains(a, "\n") {
			a = fmt.Sprintf("<%d bytes>", len(a))
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}

func commandPrompt(job *Job, source string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Task: turn this repository into an A2A agent bundle\n\n")
	fmt.Fprintf(&b, "The current directory is a copy of the repository %q (%s). Study it and write the file\n%s\n", job.Name, job.RepoDir, filepath.Join(job.Bundle, bundle.FileName))
	fmt.Fprintf(&b, "(also in $AGENTNET_BUNDLE_DIR). Its repo field must be `repo: {source: %s}`", source)
	if job.RepoRef != "" {
		fmt.Fprintf(&b, " with `ref: %s`", job.RepoRef)
	}
	b.WriteString(". You may build the repository (the setup commands must do the same), but do not change its\nsource. The bundle passes only if it loads, its setup and check commands succeed, and the agent card\nbuilt from it is valid with at least one skill.\n\n")
	b.WriteString(bundleFormat)
	if !job.Deadline.IsZero() {
		fmt.Fprintf(&b, "\n\nTime budget: finish before %s.\n", job.Deadline.UTC().Format(time.RFC3339))
	}
	if job.Feedback != "" {
		fmt.Fprintf(&b, "\nThe previous attempt failed:\n%s\n", job.Feedback)
	}
	return b.String()
}

// splitWords splits a command line into words as a POSIX shell would
// (single and double quotes, backslashes) without expanding anything.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated single quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New("unterminated double quote")
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// agentEnv is a coding agent's environment: base without the variables
// agentnet sets for an agent (stale values from an outer run), plus the
// metering proxy's base URLs, so that the agent's model traffic is counted,
// and the given agentnet variables.
func agentEnv(base []string, meter *Meter, own ...string) []string {
	env := []string{}
	for _, kv := range base {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "OPENAI_BASE_URL", "OPENAI_API_BASE", "ANTHROPIC_BASE_URL", "AGENTNET_BUNDLE_DIR", "AGENTNET_REPO_DIR",
			"AGENTNET_PROMPT_FILE", "AGENTNET_WORKSPACE", "AGENTNET_SUBMISSION":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "OPENAI_BASE_URL="+meter.OpenAIURL(), "OPENAI_API_BASE="+meter.OpenAIURL(), "ANTHROPIC_BASE_URL="+meter.AnthropicURL())
	return append(env, own...)
}
