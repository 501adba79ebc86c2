package generation

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/internal/llm"
	"github.com/agentnet/agentnet/internal/proc"
	"github.com/agentnet/agentnet/internal/yamlx"
)

// Builder is a generator that builds an agent from a requirement (a
// commission) instead of a repository. The llm and command generators are
// builders; the static generator is not: it only analyses repositories.
//
// Build is called once per submission, never concurrently for the same
// BuildJob; it must stop when ctx is done. It leaves the submission in
// BuildJob.Delivery, which it may start from (an editing task's starter, or
// its own previous submission). An error means the builder gave up or
// failed for the reason it states; whatever it left in Delivery is still
// looked at.
type Builder interface {
	Build(ctx context.Context, job *BuildJob) (*Output, error)
}

// BuildJob is one submission's input.
type BuildJob struct {
	// Workspace is the builder's working directory: it holds the brief
	// (TASK.md), the development cases and their input files, and
	// Delivery. It never holds anything the builder must not see.
	Workspace string
	// Delivery is the bundle directory the builder writes (inside
	// Workspace).
	Delivery string
	// Brief is the task as the builder reads it: the requirement, the
	// development cases, the bundle format, how a submission is judged.
	Brief string
	// Submission is the submission's number, from 1; Feedback is the
	// evaluation of the previous one on the development cases, or "".
	Submission int
	Feedback   string
	// Env is the environment of the processes the builder starts.
	Env []string
	// Log receives the builder's log; Deadline is when its budget ends.
	Log      io.Writer
	Logger   *slog.Logger
	Deadline time.Time
}

// NotBuilderError says that a generator cannot build from a requirement.
type NotBuilderError struct{ Name string }

func (e *NotBuilderError) Error() string {
	return fmt.Sprintf("the %s generator builds agents from repositories and cannot build one from a requirement", e.Name)
}

// NewBuilder returns the generator of cfg as a Builder, or a
// *NotBuilderError when it cannot build from a requirement.
func NewBuilder(cfg Config) (Builder, error) {
	if cfg.Generator == "" {
		cfg.Generator = DefaultGenerator
	}
	if cfg.Repairs == 0 {
		cfg.Repairs = DefaultRepairs
	}
	g, err := newGenerator(&cfg)
	if err != nil {
		return nil, err
	}
	b, ok := g.(Builder)
	if !ok {
		return nil, &NotBuilderError{Name: cfg.Generator}
	}
	return b, nil
}

var (
	_ Builder = (*Command)(nil)
	_ Builder = (*LLM)(nil)
)

// Build implements Builder: the coding agent runs in the workspace with
// the brief in $AGENTNET_PROMPT_FILE (also {prompt_file}, {prompt}) and
// writes the bundle into $AGENTNET_BUNDLE_DIR ({bundle_dir}); in a
// sandbox, the workspace is all of this machine it sees. Its model traffic
// goes through the metering proxy as in Generate.
func (g *Command) Build(ctx context.Context, job *BuildJob) (*Output, error) {
	out := &Output{Tokens: Unknown()}
	meter, err := g.startMeter(ctx, job.Env)
	if err != nil {
		return out, err
	}
	defer meter.Close()
	prompt := job.Brief
	if job.Feedback != "" {
		prompt += fmt.Sprintf("\n\n## Feedback on submission %d\n\n%s\n", job.Submission-1, job.Feedback)
	}
	promptFile := filepath.Join(job.Workspace, "PROMPT.md")
	if err := os.WriteFile(promptFile, []byte(prompt), 0o644); err != nil {
		return out, err
	}
	if err := os.MkdirAll(job.Delivery, 0o755); err != nil {
		return out, err
	}
	argv := make([]string, len(g.argv))
	for i, a := range g.argv {
		argv[i] = strings.NewReplacer("{prompt_file}", promptFile, "{prompt}", prompt, "{bundle_dir}", job.Delivery).Replace(a)
	}
	env := agentEnv(job.Env, meter,
		"AGENTNET_BUNDLE_DIR="+job.Delivery, "AGENTNET_WORKSPACE="+job.Workspace, "AGENTNET_PROMPT_FILE="+promptFile,
		fmt.Sprintf("AGENTNET_SUBMISSION=%d", job.Submission))
	budget := time.Until(job.Deadline)
	if job.Deadline.IsZero() || budget <= 0 {
		budget = DefaultTimeout
	}
	log := job.Log
	if log == nil {
		log = io.Discard
	}
	fmt.Fprintf(log, "$ %s\n", shortArgv(argv))
	// In a sandbox, the builder sees its workspace alone.
	out.Tokens, err = g.drive(ctx, meter, proc.Spec{Argv: argv, Dir: job.Workspace, Env: env, Timeout: budget, Tee: log}, job.Workspace, job.Delivery)
	return out, err
}

// meterUpstreams are where the metering proxy forwards: the environment's
// base URLs, overridden by the generator's own.
func (g *Command) meterUpstreams(env []string) map[string]string {
	up := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "OPENAI_BASE_URL":
			up["openai"] = v
		case "ANTHROPIC_BASE_URL":
			up["anthropic"] = v
		}
	}
	for k, v := range g.upstreams {
		up[k] = v
	}
	return up
}

// Limits of the llm builder's files.
const (
	buildMaxFiles    = 50
	buildDigestBytes = 64 << 10
)

const buildSystem = `You build A2A agents as agent bundles. ` + bundleFormat + `

A bundle you build has no repo field: setup, check and {{repo}} refer to the bundle directory itself,
which holds agent.yaml and your program files. Answer with every file of the bundle, each as
<file path="RELATIVE/PATH">
...content...
</file>
and nothing else. Always include agent.yaml. Files you leave out are kept as they are.`

var fileTagRE = regexp.MustCompile(`(?s)<file path="([^"]+)">\n?(.*?)</file>`)

// Build implements Builder: the model gets the brief, the files already in
// the delivery (an editing task's starter, or its previous submission) and
// the feedback, and answers with the bundle's files; an answer whose
// agent.yaml is invalid is sent back for at most Repairs repairs.
func (g *LLM) Build(ctx context.Context, job *BuildJob) (*Output, error) {
	before := g.client.Usage()
	out := &Output{}
	defer func() {
		u := g.client.Usage()
		out.Tokens = Known(int64(u.PromptTokens-before.PromptTokens), int64(u.CompletionTokens-before.CompletionTokens), "usage")
	}()
	log := job.Log
	if log == nil {
		log = io.Discard
	}
	if err := os.MkdirAll(job.Delivery, 0o755); err != nil {
		return out, err
	}
	user := job.Brief
	if files := digestFiles(job.Delivery); files != "" {
		user += "\n\n## The bundle directory now\n\n" + files
	}
	if job.Feedback != "" {
		user += fmt.Sprintf("\n\n## Feedback on submission %d\n\n%s", job.Submission-1, job.Feedback)
	}
	msgs := []llm.Message{{Role: "system", Content: buildSystem}, {Role: "user", Content: user}}
	var last error
	for round := 0; round <= g.repairs; round++ {
		resp, err := g.client.Chat(ctx, &llm.Request{Messages: msgs})
		if err != nil {
			return out, fmt.Errorf("llm builder: %w", err)
		}
		if len(resp.Choices) == 0 {
			return out, errors.New("llm builder: the model returned no choice")
		}
		answer := resp.Choices[0].Message.Content
		fmt.Fprintf(log, "# model answer (round %d):\n%s\n", round+1, answer)
		problems := writeAnswerFiles(job.Delivery, answer)
		if problems == "" {
			return out, nil
		}
		last = errors.New(problems)
		fmt.Fprintf(log, "# problems:\n%s\n", problems)
		msgs = append(msgs, llm.Message{Role: "assistant", Content: answer},
			llm.Message{Role: "user", Content: "The bundle has problems:\n" + problems + "\nAnswer again with the corrected files, each in a <file path=\"...\"> block."})
	}
	return out, fmt.Errorf("llm builder: the bundle is still invalid after %d repairs: %w", g.repairs, last)
}

// writeAnswerFiles writes the files of a model's answer into dir and
// returns the problems of the result, one per line, or "".
func writeAnswerFiles(dir, answer string) string {
	ms := fileTagRE.FindAllStringSubmatch(answer, -1)
	if len(ms) == 0 {
		return `the answer holds no <file path="..."> block`
	}
	if len(ms) > buildMaxFiles {
		return fmt.Sprintf("the answer holds %d files, more than %d", len(ms), buildMaxFiles)
	}
	var lines []string
	for _, m := range ms {
		rel := filepath.FromSlash(strings.TrimSpace(m[1]))
		if rel == "" || filepath.IsAbs(rel) || !filepath.IsLocal(rel) {
			lines = append(lines, fmt.Sprintf("file path %q must be relative and stay inside the bundle", m[1]))
			continue
		}
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			lines = append(lines, err.Error())
			continue
		}
		mode := os.FileMode(0o644)
		if strings.HasPrefix(m[2], "#!") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(m[2]), mode); err != nil {
			lines = append(lines, err.Error())
		}
	}
	if len(lines) > 0 {
		return strings.Join(lines, "\n")
	}
	file := filepath.Join(dir, bundle.FileName)
	data, err := os.ReadFile(file)
	if err != nil {
		return "agent.yaml is missing"
	}
	b, err := bundle.Parse(file, data)
	if err != nil {
		if ps, ok := yamlx.AsProblems(err); ok {
			for _, p := range ps {
				lines = append(lines, p.String())
			}
			return strings.Join(lines, "\n")
		}
		return err.Error()
	}
	if len(b.Skills) == 0 && len(b.Serve) == 0 {
		return "skills: at least one skill is required"
	}
	return ""
}

// digestFiles shows the text files of dir, for a model to edit.
func digestFiles(dir string) string {
	var names []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == ".agentnet" || d.Name() == "__pycache__" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			names = append(names, rel)
		}
		return nil
	})
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil || strings.ContainsRune(string(data), 0) {
			continue
		}
		if b.Len()+len(data) > buildDigestBytes {
			fmt.Fprintf(&b, "(%s and further files left out: too long)\n", filepath.ToSlash(n))
			break
		}
		fmt.Fprintf(&b, "<file path=%q>\n%s</file>\n", filepath.ToSlash(n), data)
	}
	return b.String()
}

// BundleFormat describes agent.yaml to a builder, for a brief.
func BundleFormat() string { return bundleFormat }
