package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/internal/chromiumtest"
	"github.com/agentnet/agentnet/tasks"
)

// traceLine is one line of an a2a/proxy trace, as the recorder writes it.
func traceLine(seq, ex int, kind, agent, method string, ms float64, body any) string {
	m := map[string]any{"seq": seq, "exchange": ex, "kind": kind, "agent": agent, "elapsed_ms": ms, "time": "2026-12-01T10:00:00Z", "bytes": 10}
	if method != "" {
		m["rpc_method"] = method
	}
	if kind == "stream" {
		m["status"] = 200
	}
	if body != nil {
		m["body"] = body
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func sendBody(text, file string) any {
	parts := []any{map[string]any{"text": text}}
	if file != "" {
		parts = append(parts, map[string]any{"raw": strings.Repeat("QUJD", 40), "filename": file, "mediaType": "text/markdown"})
	}
	return map[string]any{"jsonrpc": "2.0", "method": "SendStreamingMessage", "id": "1", "params": map[string]any{"message": map[string]any{"parts": parts, "role": "ROLE_USER"}}}
}

func stateBody(state string) any {
	return map[string]any{"jsonrpc": "2.0", "id": "1", "result": map[string]any{"statusUpdate": map[string]any{"status": map[string]any{"state": state}}}}
}

// writeTracedRun writes a run directory: a two-step chain routed by BM25
// whose second step went to the wrong agent after a retried send, a
// passed single task, and two repos, one with a note on what generation
// left out.
func writeTracedRun(t *testing.T) (string, *Results) {
	t.Helper()
	dir := t.TempDir()
	orchOK := false
	r := &Results{Version: ResultsVersion, Suite: "s", Repos: []RepoResult{
		{ID: "mdkit", Generated: true, Bundle: "repos/mdkit/bundle", Attempts: []AttemptResult{{N: 1, OK: true}},
			Skills: []SkillText{{ID: "html", Name: "mdkit html", Description: "Markdown to HTML."}, {ID: "lint", Name: "mdkit lint"}},
			Match:  &SkillMatch{Supported: []string{"md-to-html", ""}, Covered: map[string]string{"md-to-html": "html", "toc": ""}}},
		{ID: "csvtool", Generated: true, Attempts: []AttemptResult{{N: 1, OK: true}}, Skills: []SkillText{{ID: "stats"}}},
	}, Tasks: []TaskResult{
		{ID: "chain-report", Type: tasks.Chain, Tier: tasks.Medium, Status: StatusFailed, OrchOK: &orchOK,
			Reason: "output does not match /mean/", DurationMS: 1480, Trace: "tasks/chain-report/trace.jsonl",
			Checks: []tasks.Result{{Check: "matches /mean/", Reason: "output does not match /mean/"}},
			Steps: []StepResult{
				{Index: 1, Expected: "mdkit", Routed: "mdkit", Score: 9.04, Reason: `BM25 9.04 for "mdkit" (skill html); next "htmltext" 5.52`, Outcome: "ok", DurationMS: 808},
				{Index: 2, Expected: "htmltext", Routed: "csvtool", Score: 4.2, Reason: `BM25 4.20 for "csvtool" (skill stats)`, Outcome: "ok", DurationMS: 300,
					Artifacts: []string{"tasks/chain-report/steps/2/table.csv"}},
			}},
		{ID: "csvtool-stats", Type: tasks.Single, Tier: tasks.Easy, Repo: "csvtool", Status: StatusPassed, Pass: true, DurationMS: 90,
			Output: "mean: 3", Trace: "tasks/csvtool-stats/trace.jsonl"},
	}}
	Summarize(r, 1)
	files := map[string]string{
		"tasks/chain-report/trace.jsonl": strings.Join([]string{
			traceLine(1, 7, "request", "agent-md", "SendStreamingMessage", 0, sendBody("Convert this Markdown report to HTML.", "report.md")),
			traceLine(2, 7, "stream", "agent-md", "", 3, nil),
			traceLine(3, 7, "event", "agent-md", "", 800, stateBody("TASK_STATE_COMPLETED")),
			traceLine(4, 8, "request", "agent-csv", "SendStreamingMessage", 0, sendBody("Extract the revenue table of the page as CSV.", "")),
			traceLine(5, 8, "error", "agent-csv", "", 2, nil), // no answer: retried
			traceLine(6, 9, "request", "agent-csv", "SendStreamingMessage", 0, sendBody("Extract the revenue table of the page as CSV.", "")),
			traceLine(7, 9, "event", "agent-csv", "", 290, stateBody("TASK_STATE_COMPLETED")),
		}, "\n") + "\n",
		"tasks/chain-report/steps/1/output.txt": "<h1>Quarterly report</h1><script>window.__xss=1</script>",
		"tasks/chain-report/steps/2/output.txt": "column: Q3\ncount: 4",
		"tasks/chain-report/steps/2/table.csv":  "a,b\n1,2\n",
		"tasks/csvtool-stats/trace.jsonl": traceLine(1, 3, "request", "agent-csv", "message/send", 0, sendBody("Mean of the price column.", "prices.csv")) + "\n" +
			traceLine(2, 3, "response", "agent-csv", "", 80, stateBody("completed")) + "\n",
		"repos/mdkit/bundle/.agentnet/attempts/1/attempt.json": `{"n":1,"ok":true,"skills":["html","lint"],"notes":["node: subcommand 'serve' left out: it starts a server"]}`,
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, r
}

func TestNewView(t *testing.T) {
	t.Parallel()
	dir, r := writeTracedRun(t)
	v := NewView(r, dir)
	chain := v.TaskViews[0]
	if want := "1. Convert this Markdown report to HTML.\n2. Extract the revenue table of the page as CSV."; chain.Instruction != want {
		t.Errorf("chain instruction = %q, want %q", chain.Instruction, want)
	}
	if got := chain.StepViews[0].InputFiles; len(got) != 1 || got[0] != "report.md" {
		t.Errorf("step 1 files = %v, want [report.md]", got)
	}
	if got := chain.StepViews[1].Output; got != "column: Q3\ncount: 4" {
		t.Errorf("step 2 output = %q", got)
	}
	if len(chain.Exchanges) != 3 || chain.Exchanges[0].Agent != "mdkit" || chain.Exchanges[2].Agent != "csvtool" || chain.Exchanges[2].State != "completed" {
		t.Errorf("exchanges = %+v, want 3 (the retry kept), agents named by repo", chain.Exchanges)
	}
	if body := chain.Exchanges[0].Entries[0].Body; !strings.Contains(body, "<160 bytes of base64>") || !strings.Contains(body, `"filename": "report.md"`) {
		t.Errorf("request body shown as %s, want indented JSON with the file bytes left out", body)
	}
	single := v.TaskViews[1]
	if single.Instruction != "Mean of the price column." || single.StepViews[0].Output != "mean: 3" || single.StepViews[0].Routed != "csvtool" {
		t.Errorf("single task view = %+v", single)
	}
	md := v.RepoViews[0]
	if fmt.Sprint(md.Missed) != "[toc]" || fmt.Sprint(md.Unsupported) != "[lint]" || len(md.Records) != 1 || len(md.Records[0].Notes) != 1 {
		t.Errorf("mdkit record: missed %v, unsupported %v, attempts %+v", md.Missed, md.Unsupported, md.Records)
	}
	if fmt.Sprint(v.RepoIDs) != "[csvtool htmltext mdkit]" || fmt.Sprint(v.Tiers) != "[medium easy]" {
		t.Errorf("filters: repos %v, tiers %v", v.RepoIDs, v.Tiers)
	}
	if got := v.Link("tasks/a/x.csv"); got != "tasks/a/x.csv" {
		t.Errorf("Link() in the run directory = %q", got)
	}
	v.LinkBase = "../runs/r1"
	if got := v.Link("tasks/a/x.csv"); got != "../runs/r1/tasks/a/x.csv" {
		t.Errorf("Link() from another directory = %q", got)
	}
	// Without the directory, the view still renders what results hold.
	if nv := NewView(r, ""); nv.TaskViews[0].Instruction != "" || nv.TaskViews[0].TraceNote == "" {
		t.Errorf("view without a run directory = %+v", nv.TaskViews[0])
	}
}

// TestTraceViewerInChromium opens report.html in a headless Chromium,
// filters the tasks, clicks into the chain and reads what it shows.
func TestTraceViewerInChromium(t *testing.T) {
	t.Parallel()
	bin := chromiumtest.Find()
	if bin == "" {
		t.Skip(chromiumtest.SkipReason)
	}
	dir, r := writeTracedRun(t)
	s := &Store{Dir: dir}
	if err := s.WriteResults(r); err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	for _, banned := range []string{`src="http`, `href="http`, "url(http", "@import", "<link "} {
		if bytes.Contains(html, []byte(banned)) {
			t.Errorf("report.html is not self-contained: it holds %q", banned)
		}
	}
	p := chromiumtest.Start(t, bin)
	p.Navigate("file://" + filepath.Join(dir, "report.html"))
	str := func(expr string) string { return fmt.Sprint(p.Eval(expr)) }

	if got := str(`document.querySelectorAll("details.task").length`); got != "2" {
		t.Fatalf("tasks shown = %s, want 2", got)
	}
	if got := str(`document.querySelector("#f-count").textContent`); got != "2 of 2 tasks" {
		t.Errorf("filter count = %q, want 2 of 2 tasks", got)
	}
	// Filter by status, then by repo, then clear.
	setFilter := func(id, val string) {
		p.Eval(fmt.Sprintf(`(function(){var s=document.getElementById(%q); s.value=%q; s.dispatchEvent(new Event("change")); return true})()`, id, val))
	}
	visible := `Array.from(document.querySelectorAll("details.task")).filter(d => !d.hidden).map(d => d.id).join(",")`
	setFilter("f-status", "passed")
	if got := str(visible); got != "task-csvtool-stats" {
		t.Errorf("status passed shows %q, want task-csvtool-stats", got)
	}
	setFilter("f-status", "")
	setFilter("f-repo", "htmltext")
	if got := str(visible); got != "task-chain-report" {
		t.Errorf("repo htmltext shows %q, want task-chain-report", got)
	}
	setFilter("f-tier", "easy")
	if got := str(visible); got != "" || str(`document.querySelector("#f-count").textContent`) != "0 of 2 tasks" {
		t.Errorf("repo htmltext and tier easy show %q, want none", got)
	}
	setFilter("f-tier", "")
	setFilter("f-repo", "")

	// Click into the chain.
	chain := `document.getElementById("task-chain-report")`
	if got := str(chain + `.open`); got != "false" {
		t.Errorf("chain open before the click = %s", got)
	}
	p.Eval(chain + `.querySelector("summary").click(); true`)
	if got := str(chain + `.open`); got != "true" {
		t.Fatalf("chain open after the click = %s", got)
	}
	if got := str(chain + `.querySelector("pre.instruction").innerText`); !strings.Contains(got, "2. Extract the revenue table") {
		t.Errorf("instruction shown = %q", got)
	}
	if got := str(chain + `.querySelector("table.steps").innerText`); !strings.Contains(got, `BM25 4.20 for "csvtool"`) || !strings.Contains(got, "htmltext") {
		t.Errorf("steps table = %q, want the router's reason and the expected repo", got)
	}
	step1 := chain + `.querySelector("details.step[data-step='1']")`
	p.Eval(step1 + `.querySelector("summary").click(); true`)
	if got := str(step1 + `.querySelector("pre.input").innerText`); got != "Convert this Markdown report to HTML." {
		t.Errorf("step 1 input = %q", got)
	}
	if got := str(step1 + `.querySelector("pre.output").innerText`); !strings.Contains(got, "<script>window.__xss=1</script>") {
		t.Errorf("step 1 output = %q, want the HTML shown as text", got)
	}
	if got := str(`typeof window.__xss`); got != "undefined" {
		t.Errorf("an output's markup ran in the page: window.__xss is %s", got)
	}
	if got := str(chain + `.querySelector("a.artifact").getAttribute("href")`); got != "tasks/chain-report/steps/2/table.csv" {
		t.Errorf("artifact link = %q", got)
	}
	// The A2A messages are collapsed until clicked.
	msgs := chain + `.querySelector("details.messages")`
	if got := str(msgs + `.open`); got != "false" {
		t.Errorf("A2A messages open before a click = %s", got)
	}
	p.Eval(msgs + `.querySelector("summary").click(); true`)
	if got := str(msgs + `.querySelectorAll("details.exchange").length`); got != "3" {
		t.Errorf("exchanges = %s, want 3", got)
	}
	first := msgs + `.querySelector("details.exchange")`
	p.Eval(first + `.querySelector("summary").click(); true`)
	if got := str(first + `.innerText`); !strings.Contains(got, "SendStreamingMessage → mdkit") || !strings.Contains(got, `"filename": "report.md"`) {
		t.Errorf("first exchange shows %q", got)
	}
	// The generation record says what was left out and why.
	rec := `document.getElementById("repo-mdkit")`
	p.Eval(rec + `.querySelector("summary").click(); true`)
	if got := str(rec + `.querySelector("ul.left-out").innerText`); !strings.Contains(got, "toc") || !strings.Contains(got, "lint") || !strings.Contains(got, "left out: it starts a server") {
		t.Errorf("left out = %q", got)
	}
	// Nothing was fetched from anywhere.
	if got := str(`performance.getEntriesByType("resource").length`); got != "0" {
		t.Errorf("the page loaded %s resources, want 0", got)
	}
	if png := p.Screenshot(); len(png) < 2000 {
		t.Errorf("screenshot: %d bytes", len(png))
	} else if out := os.Getenv("AGENTNET_TEST_ARTIFACTS"); out != "" {
		os.WriteFile(filepath.Join(out, "report-trace-viewer.png"), png, 0o644)
	}
}
