package orchestrator

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/agentnet/agentnet/a2a/proxy"
)

// sendMethods are the operations that hand an agent a message, in A2A 1.0
// and 0.3 spelling (the proxy names an HTTP+JSON or gRPC call's operation
// in the 1.0 spelling).
var sendMethods = map[string]bool{
	"SendMessage": true, "SendStreamingMessage": true,
	"message/send": true, "message/stream": true,
}

// Send is one message handed to an agent, as a trace shows it.
type Send struct {
	Exchange int64
	Agent    string // the proxy's label: the agent's registry id
	Method   string
	Binding  string // jsonrpc, rest or grpc
	Start    time.Time
	End      time.Time
	// Answered says the agent answered at all (a JSON-RPC result or error,
	// or a stream with events) rather than failing to be reached.
	Answered  bool
	State     string // the task's last state: "completed", "failed", ... or ""
	Error     string // a JSON-RPC error's message, or why the exchange broke
	Status    string // the last status message's text
	TaskID    string
	ContextID string
	Artifacts []string // artifact names (or file names) in the answer
	// Content says an artifact of the answer holds something: a part with
	// text that is not blank, a file or data. A task completed without
	// content is an empty answer.
	Content bool
}

// Sends reads the messages handed to agents from a trace, in the order
// they were sent.
func Sends(entries []proxy.Entry) []Send {
	byEx := map[int64]*Send{}
	var order []int64
	for _, e := range entries {
		if e.Kind == proxy.KindRequest {
			if !sendMethods[e.RPCMethod] {
				continue
			}
			byEx[e.Exchange] = &Send{Exchange: e.Exchange, Agent: e.Agent, Method: e.RPCMethod, Binding: e.Binding, Start: e.Time, End: e.Time}
			order = append(order, e.Exchange)
			continue
		}
		s := byEx[e.Exchange]
		if s == nil {
			continue
		}
		s.End = e.Time
		switch e.Kind {
		case proxy.KindResponse:
			if e.Status == 200 && e.Body != nil && e.Error == "" {
				s.Answered = s.scan(e.Body)
			} else if e.Error != "" {
				s.Error = e.Error
			} else {
				s.Error = "HTTP " + itoa(e.Status)
			}
		case proxy.KindEvent:
			if e.Body != nil && s.scan(e.Body) {
				s.Answered = true
			}
		case proxy.KindEnd:
			if e.GRPCStatus != nil {
				s.Answered = true // a gRPC status is the agent's answer
			}
			if e.Error != "" && !terminalName(s.State) {
				s.Error = e.Error
			}
		case proxy.KindError:
			s.Error = e.Error
		}
	}
	out := make([]Send, 0, len(order))
	for _, id := range order {
		out = append(out, *byEx[id])
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start.Before(out[j].Start) })
	return out
}

// scan reads an answer (a body or an event's data) and reports whether it
// is one: a JSON-RPC response envelope, or for HTTP+JSON and gRPC the A2A
// object itself (an AIP-193 error for HTTP+JSON).
func (s *Send) scan(body json.RawMessage) bool {
	if s.Binding == proxy.BindingREST || s.Binding == proxy.BindingGRPC {
		var v map[string]any
		if json.Unmarshal(body, &v) != nil {
			return false
		}
		if e, ok := v["error"].(map[string]any); ok {
			s.Error, _ = e["message"].(string)
			return true
		}
		s.walk(v)
		return true
	}
	var env struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &env) != nil {
		return false
	}
	if env.Error != nil {
		s.Error = env.Error.Message
		return true
	}
	if env.Result == nil {
		return false
	}
	var v any
	if json.Unmarshal(env.Result, &v) != nil {
		return false
	}
	s.walk(v)
	return true
}

// walk finds task ids, states, status texts and artifact names anywhere in
// a result, in A2A 1.0 ({"task": {...}}, {"statusUpdate": ...}) and 0.3
// ({"kind": "task", ...}) form alike.
func (s *Send) walk(v any) {
	switch x := v.(type) {
	case []any:
		for _, item := range x {
			s.walk(item)
		}
	case map[string]any:
		if st, ok := x["status"].(map[string]any); ok {
			if state, ok := st["state"].(string); ok {
				s.State = normState(state)
				if id, ok := x["id"].(string); ok && x["taskId"] == nil {
					s.TaskID = id
				}
			}
			if t := partsText(st["message"]); t != "" {
				s.Status = t
			}
		}
		if id, ok := x["taskId"].(string); ok {
			s.TaskID = id
		}
		if id, ok := x["contextId"].(string); ok {
			s.ContextID = id
		}
		if a, ok := x["artifact"].(map[string]any); ok {
			s.addArtifact(a)
		}
		if list, ok := x["artifacts"].([]any); ok {
			for _, a := range list {
				if m, ok := a.(map[string]any); ok {
					s.addArtifact(m)
				}
			}
		}
		for k, val := range x {
			switch k {
			case "status", "artifact", "artifacts", "history":
				continue
			}
			s.walk(val)
		}
	}
}

func (s *Send) addArtifact(a map[string]any) {
	if parts, ok := a["parts"].([]any); ok && !s.Content {
		s.Content = slices.ContainsFunc(parts, hasContent)
	}
	name, _ := a["name"].(string)
	if name == "" {
		name, _ = a["artifactId"].(string)
	}
	if name != "" && !slices.Contains(s.Artifacts, name) {
		s.Artifacts = append(s.Artifacts, name)
	}
}

// hasContent reports whether a part, in A2A 1.0 or 0.3 form, holds text
// that is not blank, a file or data.
func hasContent(p any) bool {
	pm, ok := p.(map[string]any)
	if !ok {
		return false
	}
	if t, ok := pm["text"].(string); ok && strings.TrimSpace(t) != "" {
		return true
	}
	for _, k := range []string{"raw", "url", "file", "data"} {
		if v, ok := pm[k]; ok && v != nil {
			return true
		}
	}
	return false
}

func partsText(m any) string {
	msg, ok := m.(map[string]any)
	if !ok {
		return ""
	}
	parts, _ := msg["parts"].([]any)
	var b strings.Builder
	for _, p := range parts {
		if pm, ok := p.(map[string]any); ok {
			if t, ok := pm["text"].(string); ok {
				b.WriteString(t)
			}
		}
	}
	return strings.TrimSpace(b.String())
}

// normState spells a task state the same in 1.0 ("TASK_STATE_COMPLETED")
// and 0.3 ("completed").
func normState(s string) string {
	s = strings.ToLower(strings.TrimPrefix(strings.ToUpper(s), "TASK_STATE_"))
	return strings.ReplaceAll(s, "_", "-")
}

func terminalName(s string) bool {
	switch s {
	case "completed", "failed", "canceled", "rejected", "input-required", "auth-required":
		return true
	}
	return false
}

// Attribute assigns the sends of a delegated chain to its steps, in order:
// the k-th message handed to a fleet agent is step k's, except that a send
// repeated to the same agent after one that got no answer (a transport
// retry) belongs to the same step. It returns the sends of each step and
// those beyond the last step.
func Attribute(sends []Send, steps int) (perStep [][]Send, extra []Send) {
	var groups [][]Send
	for _, s := range sends {
		if n := len(groups); n > 0 {
			last := groups[n-1][len(groups[n-1])-1]
			if last.Agent == s.Agent && !last.Answered {
				groups[n-1] = append(groups[n-1], s)
				continue
			}
		}
		groups = append(groups, []Send{s})
	}
	perStep = make([][]Send, steps)
	for i, g := range groups {
		if i < steps {
			perStep[i] = g
		} else {
			extra = append(extra, g...)
		}
	}
	return perStep, extra
}

// within returns the sends that started in [from, to].
func within(sends []Send, from, to time.Time) []Send {
	var out []Send
	for _, s := range sends {
		if !s.Start.Before(from) && !s.Start.After(to) {
			out = append(out, s)
		}
	}
	return out
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
