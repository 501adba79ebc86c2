package host_test

import (
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/a2a/binding"
	"github.com/agentnet/agentnet/a2a/host"
)

// TestBlockingSendStoresOnce: a blocking SendMessage of a new task is
// answered by the host's direct path on every binding — the task is
// written to the store once, as it ended (a2a-go's task manager writes it
// on every event, deep-copying it twice each time) — and answers the same
// task a2a-go would: the user's message in its history, the output as an
// artifact, completed — its history trimmed to historyLength when the call
// asks (the stored task keeps it). A stream of the same message still sees every
// state change, and ReturnImmediately still answers before the end.
func TestBlockingSendStoresOnce(t *testing.T) {
	t.Parallel()
	s := serveOnPort(t, textkit, map[string]string{"upper.py": upperPy})
	for _, b := range binding.All {
		t.Run(string(b), func(t *testing.T) {
			t.Parallel()
			c := bindingClient(t, s.URL, b)
			req := textMessage("shout once " + string(b))
			task := send(t, c, req)
			if got, want := artifactText(task), "SHOUT ONCE "+strings.ToUpper(string(b))+"\n"; task.Status.State != a2a.TaskStateCompleted || got != want {
				t.Fatalf("task %s output %q (%s), want completed %q", task.Status.State, got, statusText(task), want)
			}
			if len(task.History) != 1 || task.History[0].ID != req.Message.ID || task.ContextID == "" {
				t.Errorf("task history %v, context %q; want the one user message and a context", task.History, task.ContextID)
			}
			if v := host.StoredVersion(s.Host, task.ID); v != 1 {
				t.Errorf("stored version = %d, want 1 (written once, as it ended)", v)
			}
			again, err := c.GetTask(t.Context(), &a2a.GetTaskRequest{ID: task.ID})
			if err != nil || again.Status.State != a2a.TaskStateCompleted || artifactText(again) != artifactText(task) {
				t.Errorf("GetTask = %v, %v; want the completed task", again, err)
			}

			none := 0
			short := textMessage("shout without history")
			short.Config = &a2a.SendMessageConfig{HistoryLength: &none}
			if brief := send(t, c, short); len(brief.History) != 0 || artifactText(brief) != "SHOUT WITHOUT HISTORY\n" {
				t.Errorf("historyLength 0: history %d messages, output %q; want none, the output", len(brief.History), artifactText(brief))
			} else if full, err := c.GetTask(t.Context(), &a2a.GetTaskRequest{ID: brief.ID}); err != nil || len(full.History) != 1 {
				t.Errorf("GetTask after historyLength 0 = %v, %v; want the stored history", full, err)
			}

			var states []a2a.TaskState
			var id a2a.TaskID
			for ev, err := range c.SendStreamingMessage(t.Context(), textMessage("shout streamed")) {
				if err != nil {
					t.Fatalf("stream error = %v", err)
				}
				switch e := ev.(type) {
				case *a2a.Task:
					states, id = append(states, e.Status.State), e.ID
				case *a2a.TaskStatusUpdateEvent:
					states = append(states, e.Status.State)
				}
			}
			if len(states) < 3 || states[0] != a2a.TaskStateSubmitted || states[len(states)-1] != a2a.TaskStateCompleted {
				t.Errorf("stream states = %v, want submitted, working…, completed", states)
			}
			if v := host.StoredVersion(s.Host, id); v < 3 {
				t.Errorf("streamed task's stored version = %d, want one write per event", v)
			}

			quick := textMessage("shout quickly")
			quick.Config = &a2a.SendMessageConfig{ReturnImmediately: true}
			if early := send(t, c, quick); early.Status.State.Terminal() && early.Status.State != a2a.TaskStateCompleted {
				t.Errorf("ReturnImmediately answered %s", early.Status.State)
			}
		})
	}
}
