package conformance

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// dialect is what differs between the JSON-RPC bindings of A2A 1.0 and 0.3:
// method names, the shape of messages and results, the spelling of states.
type dialect struct {
	version                            string
	send, stream, get, cancel, pushSet string
	pushGet                            string
}

var (
	v10 = dialect{version: "1.0", send: "SendMessage", stream: "SendStreamingMessage", get: "GetTask", cancel: "CancelTask",
		pushSet: "CreateTaskPushNotificationConfig", pushGet: "GetTaskPushNotificationConfig"}
	v03 = dialect{version: "0.3", send: "message/send", stream: "message/stream", get: "tasks/get", cancel: "tasks/cancel",
		pushSet: "tasks/pushNotificationConfig/set", pushGet: "tasks/pushNotificationConfig/get"}
)

// dialectFor picks the dialect of an interface's protocol version.
func dialectFor(version string) (dialect, bool) {
	switch {
	case version == "1" || strings.HasPrefix(version, "1."):
		return v10, true
	case strings.HasPrefix(version, "0."):
		return v03, true
	}
	return dialect{}, false
}

func (d dialect) is03() bool { return d.version == "0.3" }

// message is a user text message; taskID and contextID may be empty.
func (d dialect) message(id, text, taskID, contextID string) map[string]any {
	m := map[string]any{"messageId": id}
	if d.is03() {
		m["kind"] = "message"
		m["role"] = "user"
		m["parts"] = []any{map[string]any{"kind": "text", "text": text}}
	} else {
		m["role"] = "ROLE_USER"
		m["parts"] = []any{map[string]any{"text": text}}
	}
	if taskID != "" {
		m["taskId"] = taskID
	}
	if contextID != "" {
		m["contextId"] = contextID
	}
	return m
}

func (d dialect) getParams(taskID string, historyLength int) map[string]any {
	p := map[string]any{"id": taskID}
	if historyLength >= 0 {
		p["historyLength"] = historyLength
	}
	return p
}

func (d dialect) pushSetParams(taskID, url string) map[string]any {
	if d.is03() {
		return map[string]any{"taskId": taskID, "pushNotificationConfig": map[string]any{"id": "agentnet-audit", "url": url}}
	}
	return map[string]any{"taskId": taskID, "id": "agentnet-audit", "url": url}
}

func (d dialect) pushGetParams(taskID string) map[string]any {
	if d.is03() {
		return map[string]any{"id": taskID, "pushNotificationConfigId": "agentnet-audit"}
	}
	return map[string]any{"taskId": taskID, "id": "agentnet-audit"}
}

// pushURL finds the webhook URL in a push config result.
func (d dialect) pushURL(res map[string]any) string {
	if d.is03() {
		if c, ok := res["pushNotificationConfig"].(map[string]any); ok {
			s, _ := c["url"].(string)
			return s
		}
	}
	s, _ := res["url"].(string)
	return s
}

// event is one decoded result of message/send or of a stream.
type event struct {
	kind  string // task, message, status, artifact
	obj   map[string]any
	state string // normalized task state ("completed", "input-required"), for task and status
}

// final reports whether no event may follow this one on a stream: a
// message, or a task or status update in a terminal or interrupted state.
func (e event) final() bool {
	if e.kind == "message" {
		return true
	}
	if e.kind == "status" && e.obj["final"] == true {
		return true
	}
	return (e.kind == "task" || e.kind == "status") && (terminal(e.state) || interrupted(e.state))
}

// normState folds "TASK_STATE_INPUT_REQUIRED" and "input-required" together.
func normState(s string) string {
	s = strings.ToLower(strings.TrimPrefix(s, "TASK_STATE_"))
	return strings.ReplaceAll(s, "_", "-")
}

func terminal(state string) bool {
	switch state {
	case "completed", "failed", "canceled", "cancelled", "rejected":
		return true
	}
	return false
}

func interrupted(state string) bool { return state == "input-required" || state == "auth-required" }

// decodeEvent reads a result as a task, a message or (on streams) an update.
func (d dialect) decodeEvent(raw json.RawMessage, stream bool) (event, error) {
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return event{}, fmt.Errorf("the result is %s, not an object", jsonKind(raw))
	}
	var ev event
	if d.is03() {
		kind, _ := obj["kind"].(string)
		switch kind {
		case "task", "message":
			ev = event{kind: kind, obj: obj}
		case "status-update", "artifact-update":
			if !stream {
				return event{}, fmt.Errorf("the result is a %s event, want a task or a message", kind)
			}
			ev = event{kind: strings.TrimSuffix(kind, "-update"), obj: obj}
			if kind == "artifact-update" {
				ev.kind = "artifact"
			}
		default:
			return event{}, fmt.Errorf("the result has kind %q, want task or message", kind)
		}
	} else {
		keys := []string{"task", "message"}
		if stream {
			keys = append(keys, "statusUpdate", "artifactUpdate")
		}
		var found []string
		for _, k := range keys {
			if _, ok := obj[k]; ok {
				found = append(found, k)
			}
		}
		if len(found) != 1 {
			return event{}, fmt.Errorf("the result has fields %s, want exactly one of %s", strings.Join(sortedKeys(obj), ", "), strings.Join(keys, ", "))
		}
		inner, ok := obj[found[0]].(map[string]any)
		if !ok {
			return event{}, fmt.Errorf("%s is not an object", found[0])
		}
		ev = event{kind: strings.TrimSuffix(found[0], "Update"), obj: inner}
	}
	switch ev.kind {
	case "task":
		for _, k := range []string{"id", "contextId"} {
			if s, _ := ev.obj[k].(string); s == "" {
				return event{}, fmt.Errorf("the task has no %s", k)
			}
		}
		fallthrough
	case "status":
		st, _ := ev.obj["status"].(map[string]any)
		s, _ := st["state"].(string)
		if s == "" {
			return event{}, fmt.Errorf("the %s has no status.state", ev.kind)
		}
		ev.state = normState(s)
	case "message":
		if s, _ := ev.obj["messageId"].(string); s == "" {
			return event{}, fmt.Errorf("the message has no messageId")
		}
		if _, ok := ev.obj["parts"].([]any); !ok {
			return event{}, fmt.Errorf("the message has no parts")
		}
	}
	return ev, nil
}

// decodeTask reads the result of tasks/get or tasks/cancel: a bare task
// (in both versions).
func (d dialect) decodeTask(raw json.RawMessage) (map[string]any, error) {
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("the result is %s, not a task", jsonKind(raw))
	}
	if _, wrapped := obj["task"]; wrapped && obj["id"] == nil {
		return nil, fmt.Errorf("the result wraps the task in {\"task\": ...}; tasks/get returns the task itself")
	}
	if s, _ := obj["id"].(string); s == "" {
		return nil, fmt.Errorf("the result has no task id")
	}
	return obj, nil
}

func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }
