package generation

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/generation/static"
	"github.com/agentnet/agentnet/internal/llm"
	"github.com/agentnet/agentnet/internal/yamlx"
)

// LLM is the "llm" generator: it sends an OpenAI-compatible model a compact
// digest of the repository (file tree, README, entry points with their help
// output, the static analysis's bundle) and asks for agent.yaml; it
// validates the answer and sends the problems back for at most Repairs
// repairs within the attempt. Tokens come from the API's usage fields.
type LLM struct {
	client  *llm.Client
	repairs int
}

var _ Generator = (*LLM)(nil)

// NewLLM returns the llm generator for the endpoint of cfg.
func NewLLM(cfg llm.Config, repairs int) *LLM {
	if repairs < 0 {
		repairs = 0
	}
	return &LLM{client: llm.New(cfg), repairs: repairs}
}

// Maximum sizes of the digest's parts.
const (
	digestTreeFiles = 300
	digestReadme    = 8 << 10
	digestHelp      = 6 << 10
)

// Generate implements Generator.
func (g *LLM) Generate(ctx context.Context, job *Job) (*Output, error) {
	before := g.client.Usage()
	out := &Output{}
	defer func() {
		u := g.client.Usage()
		out.Tokens = Known(int64(u.PromptTokens-before.PromptTokens), int64(u.CompletionTokens-before.CompletionTokens), "usage")
	}()
	digest, res := buildDigest(ctx, job)
	if res != nil {
		out.Missing, out.Notes = missingOf(res), res.Notes
	}
	source := job.RepoSource
	if !bundle.IsGitURL(source) {
		rel, _ := filepath.Rel(job.Bundle, job.RepoDir)
		source = filepath.ToSlash(rel)
	}
	repoLine := fmt.Sprintf("repo: {source: %s}", source)
	if job.RepoRef != "" {
		repoLine = fmt.Sprintf("repo: {source: %s, ref: %s}", source, job.RepoRef)
	}
	system := "You turn code repositories into A2A agent bundles. " + bundleFormat +
		"\n\nAnswer with the complete agent.yaml in one ```yaml code block and nothing else."
	user := fmt.Sprintf("Write agent.yaml for the repository %q. Its repo field must be exactly `%s`.\n"+
		"setup and check run in the repository directory; the check must really prove the tool runs.\n\n%s", job.Name, repoLine, digest)
	if job.Feedback != "" {
		user += "\n\nThe previous attempt failed; avoid the same mistake:\n" + job.Feedback
	}
	msgs := []llm.Message{{Role: "system", Content: system}, {Role: "user", Content: user}}
	file := filepath.Join(job.Bundle, bundle.FileName)
	var last error
	for round := 0; round <= g.repairs; round++ {
		resp, err := g.client.Chat(ctx, &llm.Request{Messages: msgs})
		if err != nil {
			return out, fmt.Errorf("llm generator: %w", err)
		}
		if len(resp.Choices) == 0 {
			return out, errors.New("llm generator: the model returned no choice")
		}
		answer := resp.Choices[0].Message.Content
		fmt.Fprintf(job.Log, "# model answer (round %d):\n%s\n", round+1, answer)
		data := extractYAML(answer)
		problems := checkAnswer(file, data, source)
		if problems == "" {
			if err := os.WriteFile(file, data, 0o644); err != nil {
				return out, fmt.Errorf("write bundle: %w", err)
			}
			return out, nil
		}
		last = errors.New(problems)
		fmt.Fprintf(job.Log, "# problems:\n%s\n", problems)
		msgs = append(msgs, llm.Message{Role: "assistant", Content: answer},
			llm.Message{Role: "user", Content: "This agent.yaml has problems:\n" + problems + "\nAnswer with the corrected, complete agent.yaml in one ```yaml block."})
	}
	return out, fmt.Errorf("llm generator: the bundle is still invalid after %d repairs: %w", g.repairs, last)
}

var yamlBlockRE = regexp.MustCompile("(?s)```(?:ya?ml)?\\s*\\n(.*?)```")

// extractYAML returns the YAML of a model's answer: its fenced block, or
// the whole answer.
func extractYAML(answer string) []byte {
	if m := yamlBlockRE.FindStringSubmatch(answer); m != nil {
		return []byte(m[1])
	}
	return []byte(strings.TrimSpace(answer) + "\n")
}

// checkAnswer returns the problems of a proposed agent.yaml, one per line,
// or "".
func checkAnswer(file string, data []byte, source string) string {
	if len(data) > bundle.MaxFileSize {
		return fmt.Sprintf("agent.yaml is %d bytes, more than %d", len(data), bundle.MaxFileSize)
	}
	b, err := bundle.Parse(file, data)
	var lines []string
	if err != nil {
		if ps, ok := yamlx.AsProblems(err); ok {
			for _, p := range ps {
				lines = append(lines, p.String())
			}
		} else {
			lines = append(lines, err.Error())
		}
	}
	if b != nil && (b.Repo == nil || b.Repo.Source != source) {
		lines = append(lines, fmt.Sprintf("repo.source must be %q", source))
	}
	if b != nil && len(b.Skills) == 0 && len(lines) == 0 {
		lines = append(lines, "skills: at least one skill is required")
	}
	return strings.Join(lines, "\n")
}

// buildDigest describes the repository compactly: its files, README, the
// static analysis's entry points with their help, and the bundle the static
// generator would write.
func buildDigest(ctx context.Context, job *Job) (string, *static.Result) {
	var b strings.Builder
	b.WriteString("## Files\n")
	n := 0
	filepath.WalkDir(job.RepoDir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(job.RepoDir, p)
		if d.IsDir() && (d.Name() == ".git" || d.Name() == ".agentnet" || d.Name() == "node_modules" || d.Name() == "__pycache__") {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Type().IsRegular() {
			if n++; n <= digestTreeFiles {
				fmt.Fprintf(&b, "%s\n", filepath.ToSlash(rel))
			}
		}
		return nil
	})
	if n > digestTreeFiles {
		fmt.Fprintf(&b, "... and %d more files\n", n-digestTreeFiles)
	}
	for _, name := range []string{"README.md", "README.rst", "README.txt", "README"} {
		if data, err := readHead(filepath.Join(job.RepoDir, name), digestReadme); err == nil {
			fmt.Fprintf(&b, "\n## %s (first %d bytes)\n%s\n", name, digestReadme, data)
			break
		}
	}
	res, err := analyse(ctx, job)
	if err != nil {
		fmt.Fprintf(&b, "\n## Static analysis\nIt found no usable entry point: %v\n", err)
		return b.String(), res
	}
	b.WriteString("\n## Entry points found by static analysis\n")
	for _, t := range res.Tools {
		fmt.Fprintf(&b, "- %s (%s, from %s): run as %v; subcommands:", t.Name, t.Kind, t.Source, t.Prog)
		for _, s := range t.Root.Subs {
			fmt.Fprintf(&b, " %s", s.Name)
		}
		b.WriteString("\n")
	}
	yaml := string(res.YAML)
	if len(yaml) > 4*digestHelp {
		yaml = yaml[:4*digestHelp] + "\n# ... cut\n"
	}
	fmt.Fprintf(&b, "\n## The bundle the static analysis proposes (its setup already ran; improve it)\n```yaml\n%s```\n", yaml)
	return b.String(), res
}

func readHead(path string, n int) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	buf := make([]byte, n)
	k, _ := f.Read(buf)
	return string(buf[:k]), nil
}
