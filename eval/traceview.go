package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Bounds of what the report reads of a run directory: a trace is read up
// to maxTraceBytes, a text shown up to maxShown bytes.
const (
	maxTraceBytes = 16 << 20
	maxShown      = 6000
)

// View is what report.html shows: the results and, read from the run
// directory, each task's steps with their inputs and outputs and its A2A
// messages, and each repo's generation record.
type View struct {
	*Results
	// Dir is the run directory the files were read from ("" when only
	// results.json was at hand).
	Dir string
	// LinkBase is the run directory as seen from where the report is
	// written, for the links to artifacts; "" when the report is in it.
	LinkBase  string
	TaskViews []TaskView
	RepoViews []RepoView
	// The values of the filters.
	Statuses, Tiers, RepoIDs []string
}

// TaskView is one task of the trace viewer.
type TaskView struct {
	TaskResult
	// Instruction is what the agents were asked: a single task's message,
	// or a chain's steps in order, as the trace recorded them.
	Instruction string
	Repos       []string // the repos the task involves (filter values)
	StepViews   []StepView
	Exchanges   []Exchange
	TraceNote   string // why the trace is missing or partial
}

// StepView is one step: who was to do it and who did, the router's reason,
// what went in and what came out.
type StepView struct {
	Index      int
	Expected   string
	Routed     string
	Score      float64
	Reason     string
	Outcome    string
	DurationMS int64
	Input      string   // the text parts sent
	InputFiles []string // the files sent, by name
	Output     string
	Artifacts  []string // run-relative paths
}

// Exchange is one HTTP exchange of a trace: an A2A request and what came
// back, each entry's JSON body indented and clipped.
type Exchange struct {
	N       int64
	Agent   string // the repo, when known, else the proxy's label
	Method  string
	State   string // the task's last state seen
	Elapsed float64
	Entries []TraceLine
}

// TraceLine is one entry of an exchange.
type TraceLine struct {
	Kind      string
	ElapsedMS float64
	Status    int
	Body      string
	Error     string
}

// RepoView is a repo's generation record: its skills, which ground-truth
// skills they cover, what was left out, and each attempt.
type RepoView struct {
	RepoResult
	Covered     [][2]string // ground-truth id, generated skill id
	Missed      []string    // ground-truth skills no generated skill covers
	Unsupported []string    // generated skills no ground-truth skill supports
	Records     []AttemptRecord
}

// AttemptRecord is one generation attempt as its attempt.json records it.
type AttemptRecord struct {
	N       int      `json:"n"`
	OK      bool     `json:"ok"`
	Stage   string   `json:"stage"`
	Reason  string   `json:"reason"`
	Skills  []string `json:"skills"`
	Notes   []string `json:"notes"`
	Missing []any    `json:"missing"`
}

// NewView builds the view of r; dir, when not empty, is the run directory
// whose traces, step outputs and generation records it reads. Missing or
// unreadable files leave their part of the view empty, with a note.
func NewView(r *Results, dir string) *View {
	v := &View{Results: r, Dir: dir}
	seen := map[string]map[string]bool{"status": {}, "tier": {}, "repo": {}}
	add := func(kind, val string) {
		if val != "" && !seen[kind][val] {
			seen[kind][val] = true
			switch kind {
			case "status":
				v.Statuses = append(v.Statuses, val)
			case "tier":
				v.Tiers = append(v.Tiers, val)
			default:
				v.RepoIDs = append(v.RepoIDs, val)
			}
		}
	}
	for _, t := range r.Tasks {
		tv := taskView(t, dir)
		add("status", t.Status)
		add("tier", string(t.Tier))
		for _, id := range tv.Repos {
			add("repo", id)
		}
		v.TaskViews = append(v.TaskViews, tv)
	}
	sort.Strings(v.RepoIDs)
	for _, repo := range r.Repos {
		v.RepoViews = append(v.RepoViews, repoView(repo, dir))
	}
	return v
}

func taskView(t TaskResult, dir string) TaskView {
	tv := TaskView{TaskResult: t}
	if t.Repo != "" {
		tv.Repos = append(tv.Repos, t.Repo)
	}
	for _, st := range t.Steps {
		if !contains(tv.Repos, st.Expected) {
			tv.Repos = append(tv.Repos, st.Expected)
		}
		tv.StepViews = append(tv.StepViews, StepView{Index: st.Index, Expected: st.Expected, Routed: st.Routed, Score: st.Score,
			Reason: st.Reason, Outcome: st.Outcome, DurationMS: st.DurationMS, Artifacts: st.Artifacts})
	}
	if len(tv.StepViews) == 0 && t.Type != "commission" {
		// A single task is one step, sent to its own repo's agent.
		tv.StepViews = []StepView{{Index: 1, Expected: t.Repo, Routed: t.Repo, Outcome: t.Status, DurationMS: t.DurationMS,
			Output: clipText(t.Output, maxShown), Artifacts: t.Artifacts}}
	}
	if dir == "" || t.Trace == "" {
		if t.Type != "commission" {
			tv.TraceNote = "no trace recorded"
		}
		return tv
	}
	lines, err := readTrace(filepath.Join(dir, filepath.FromSlash(t.Trace)))
	if err != nil {
		tv.TraceNote = err.Error()
	}
	sends := groupSends(lines)
	agentRepo := map[string]string{}
	var instr []string
	for i, g := range sends {
		if i >= len(tv.StepViews) {
			break
		}
		sv := &tv.StepViews[i]
		sv.Input, sv.InputFiles = messageParts(g.request)
		if sv.Routed != "" {
			agentRepo[g.agent] = sv.Routed
		}
		if len(sends) > 1 || t.Type == "chain" {
			instr = append(instr, fmt.Sprintf("%d. %s", i+1, sv.Input))
		} else {
			instr = append(instr, sv.Input)
		}
	}
	tv.Instruction = strings.Join(instr, "\n")
	for i := range tv.StepViews {
		sv := &tv.StepViews[i]
		if t.Type == "chain" {
			b, err := readLimited(filepath.Join(dir, "tasks", t.ID, "steps", fmt.Sprint(sv.Index), "output.txt"), maxShown)
			if err == nil {
				sv.Output = b
			}
		}
	}
	tv.Exchanges = exchanges(lines, agentRepo)
	return tv
}

// traceEntry is the part of a trace line (an a2a/proxy entry) the viewer
// reads.
type traceEntry struct {
	Exchange  int64           `json:"exchange"`
	Kind      string          `json:"kind"`
	Agent     string          `json:"agent"`
	ElapsedMS float64         `json:"elapsed_ms"`
	Status    int             `json:"status"`
	RPCMethod string          `json:"rpc_method"`
	Body      json.RawMessage `json:"body"`
	Text      string          `json:"text"`
	Error     string          `json:"error"`
}

func readTrace(path string) ([]traceEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	defer f.Close()
	var out []traceEntry
	sc := bufio.NewScanner(io.LimitReader(f, maxTraceBytes))
	sc.Buffer(make([]byte, 64<<10), maxTraceBytes)
	for sc.Scan() {
		var e traceEntry
		if json.Unmarshal(sc.Bytes(), &e) == nil {
			out = append(out, e)
		}
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("trace %s: read only in part: %w", filepath.Base(path), err)
	}
	return out, nil
}

// sendMethods are the JSON-RPC methods that hand an agent a message, in
// A2A 1.0 and 0.3 spelling.
var sendMethods = map[string]bool{"SendMessage": true, "SendStreamingMessage": true, "message/send": true, "message/stream": true}

type sendGroup struct {
	agent   string
	request json.RawMessage
}

// groupSends lists the messages handed to agents in order, a resend to the
// same agent after an exchange that got no answer (a transport retry)
// counted with the one before: the k-th group is step k's.
func groupSends(lines []traceEntry) []sendGroup {
	answered := map[int64]bool{}
	for _, e := range lines {
		if (e.Kind == "response" || e.Kind == "event") && len(e.Body) > 0 {
			answered[e.Exchange] = true
		}
	}
	var out []sendGroup
	var lastAgent string
	var lastEx int64 = -1
	for _, e := range lines {
		if e.Kind != "request" || !sendMethods[e.RPCMethod] {
			continue
		}
		if len(out) > 0 && e.Agent == lastAgent && !answered[lastEx] {
			lastEx = e.Exchange
			continue
		}
		out = append(out, sendGroup{agent: e.Agent, request: e.Body})
		lastAgent, lastEx = e.Agent, e.Exchange
	}
	return out
}

// messageParts reads the text and the file names of a send request's
// message, in A2A 1.0 and 0.3 form.
func messageParts(body json.RawMessage) (string, []string) {
	var req struct {
		Params struct {
			Message struct {
				Parts []map[string]any `json:"parts"`
			} `json:"message"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &req) != nil {
		return "", nil
	}
	var text []string
	var files []string
	for _, p := range req.Params.Message.Parts {
		if s, ok := p["text"].(string); ok {
			text = append(text, s)
			continue
		}
		if f, ok := p["file"].(map[string]any); ok { // 0.3
			p = f
		}
		for _, k := range []string{"filename", "name"} {
			if s, ok := p[k].(string); ok && s != "" {
				files = append(files, s)
				break
			}
		}
		if d, ok := p["data"]; ok {
			b, _ := json.Marshal(d)
			text = append(text, string(b))
		}
	}
	return clipText(strings.Join(text, "\n"), maxShown), files
}

// exchanges groups trace lines by exchange, in order of first appearance.
func exchanges(lines []traceEntry, agentRepo map[string]string) []Exchange {
	idx := map[int64]int{}
	var out []Exchange
	for _, e := range lines {
		i, ok := idx[e.Exchange]
		if !ok {
			agent := e.Agent
			if repo := agentRepo[e.Agent]; repo != "" {
				agent = repo
			}
			idx[e.Exchange] = len(out)
			out = append(out, Exchange{N: e.Exchange, Agent: agent})
			i = len(out) - 1
		}
		x := &out[i]
		if e.RPCMethod != "" && x.Method == "" {
			x.Method = e.RPCMethod
		}
		if e.ElapsedMS > x.Elapsed {
			x.Elapsed = e.ElapsedMS
		}
		if st := lastState(e.Body); st != "" {
			x.State = st
		}
		body := e.Text
		if len(e.Body) > 0 {
			body = prettyBody(e.Body)
		}
		x.Entries = append(x.Entries, TraceLine{Kind: e.Kind, ElapsedMS: e.ElapsedMS, Status: e.Status, Body: body, Error: e.Error})
	}
	return out
}

// prettyBody indents a JSON body with long opaque strings (a file part's
// base64 bytes) shortened, and clips it.
func prettyBody(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return clipText(string(raw), maxShown)
	}
	v = shorten(v)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if enc.Encode(v) != nil {
		return clipText(string(raw), maxShown)
	}
	return clipText(strings.TrimSpace(b.String()), maxShown)
}

func shorten(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if s, ok := val.(string); ok && (k == "raw" || k == "bytes") && len(s) > 80 {
				x[k] = fmt.Sprintf("<%d bytes of base64>", len(s))
				continue
			}
			x[k] = shorten(val)
		}
	case []any:
		for i := range x {
			x[i] = shorten(x[i])
		}
	}
	return v
}

// lastState finds a task state in a response or event body.
func lastState(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	i := bytes.LastIndex(raw, []byte(`"state":"`))
	if i < 0 {
		return ""
	}
	rest := raw[i+len(`"state":"`):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return ""
	}
	s := strings.ToLower(strings.TrimPrefix(string(rest[:j]), "TASK_STATE_"))
	return strings.ReplaceAll(s, "_", "-")
}

func repoView(r RepoResult, dir string) RepoView {
	rv := RepoView{RepoResult: r}
	if m := r.Match; m != nil {
		for gt, gen := range m.Covered {
			if gen == "" {
				rv.Missed = append(rv.Missed, gt)
			} else {
				rv.Covered = append(rv.Covered, [2]string{gt, gen})
			}
		}
		sort.Strings(rv.Missed)
		sort.Slice(rv.Covered, func(i, j int) bool { return rv.Covered[i][0] < rv.Covered[j][0] })
		for i, s := range m.Supported {
			if s == "" && i < len(r.Skills) {
				rv.Unsupported = append(rv.Unsupported, r.Skills[i].ID)
			}
		}
	}
	if dir == "" {
		return rv
	}
	for _, a := range r.Attempts {
		rec := AttemptRecord{N: a.N, OK: a.OK, Reason: a.Reason}
		for _, p := range attemptFiles(dir, r, a) {
			data, err := readLimited(p, 1<<20)
			if err == nil && json.Unmarshal([]byte(data), &rec) == nil {
				break
			}
		}
		rv.Records = append(rv.Records, rec)
	}
	return rv
}

// attemptFiles are where an attempt's attempt.json may be: in its own
// directory, or in the deployed bundle's record of attempts.
func attemptFiles(dir string, r RepoResult, a AttemptResult) []string {
	var out []string
	if a.Dir != "" {
		d := filepath.Join(dir, filepath.FromSlash(a.Dir))
		out = append(out, filepath.Join(d, "attempt.json"), filepath.Join(d, ".agentnet", "attempts", fmt.Sprint(a.N), "attempt.json"))
	}
	if r.Bundle != "" {
		out = append(out, filepath.Join(dir, filepath.FromSlash(r.Bundle), ".agentnet", "attempts", fmt.Sprint(a.N), "attempt.json"))
	}
	return out
}

// readLimited reads at most n bytes of path, marking a clipped text.
func readLimited(path string, n int) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, int64(n)+1))
	if err != nil {
		return "", err
	}
	if len(b) > n {
		return string(b[:n]) + "\n[... clipped]", nil
	}
	return string(b), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
