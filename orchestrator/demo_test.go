package orchestrator_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/orchestrator"
	"github.com/agentnet/agentnet/tasks"
)

// TestDemoChain runs the demo suite's chain-page-top-words as written —
// its input page, its steps and its checks — against the suite's own repos
// (htmltext, textstats), each wrapped in a small hand-written bundle and
// hosted for real.
func TestDemoChain(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the demo's htmltext repo needs it")
	}
	s, err := tasks.Load("../tasks/demo/suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var c *tasks.Case
	for i := range s.Cases {
		if s.Cases[i].ID == "chain-page-top-words" {
			c = &s.Cases[i]
		}
	}
	if c == nil {
		t.Fatal("the demo suite has no chain-page-top-words")
	}
	repo := func(id string) string {
		abs, err := filepath.Abs(filepath.Join(s.Dir, "repos", id))
		if err != nil {
			t.Fatal(err)
		}
		return abs
	}
	bundleFor := func(yaml, id string) string {
		dir := t.TempDir()
		rel, err := filepath.Rel(dir, repo(id))
		if err != nil {
			t.Fatal(err)
		}
		return writeBundle(t, strings.ReplaceAll(yaml, "REPO", rel), nil)
	}
	reg := startRegistry(t)
	html := serveBundle(t, bundleFor(`version: 1
name: htmltext
description: Turn HTML pages into plain data - readable text, links, tables and metadata.
repo: {source: REPO}
skills:
  - id: text
    name: Readable text
    description: Extract the readable text of an HTML web page.
    tags: [html, text, extract]
    params: {type: object, properties: {page: {type: string, format: path}}, required: [page]}
    run: [env, "PYTHONPATH={{repo}}", python3, -m, htmltext, text, "{{page}}"]
  - id: links
    name: Links
    description: List every link of an HTML page as an absolute URL.
    tags: [html, links]
    params: {type: object, properties: {page: {type: string, format: path}}, required: [page]}
    run: [env, "PYTHONPATH={{repo}}", python3, -m, htmltext, links, "{{page}}"]
`, "htmltext"))
	words := serveBundle(t, bundleFor(`version: 1
name: textstats
description: Word frequencies, counts and readability scores for plain-text files.
repo: {source: REPO}
skills:
  - id: top-words
    name: Most frequent words
    description: List the most frequent words of a plain-text file with their counts.
    tags: [text, words, frequency]
    params: {type: object, properties: {file: {type: string, format: path}, n: {type: integer, default: 5}}, required: [file]}
    run: ["{{repo}}/textstats", top, "{{file}}", -n, "{{n}}"]
`, "textstats"))
	reg.register(t, html.URL, words.URL)

	ch := orchestrator.Chain{ID: c.ID}
	for _, st := range c.Steps {
		ch.Steps = append(ch.Steps, orchestrator.Step{Repo: st.Repo, Instruction: st.Instruction})
	}
	for _, f := range c.Input.Files {
		data, err := os.ReadFile(filepath.Join(s.Dir, f))
		if err != nil {
			t.Fatal(err)
		}
		ch.Input.Files = append(ch.Input.Files, orchestrator.File{Name: filepath.Base(f), MediaType: "text/html", Data: data})
	}
	r := orchestrator.New(directory{reg.client}, orchestrator.NewBM25())
	defer r.Close()
	res, err := r.Run(t.Context(), ch, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != orchestrator.OK || !res.OrchestrationOK {
		t.Fatalf("Run() = %s: %s", res.Outcome, stepSummary(res))
	}
	passed, checks := tasks.Eval(c.Expect, tasks.Output{Text: res.Output.Text})
	if !passed {
		t.Errorf("the demo's checks failed on %q: %+v", res.Output.Text, checks)
	}
}
