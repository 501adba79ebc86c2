package host

import (
	"errors"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// TestFold: the direct path folds a task's events as a2a-go's task manager
// does — artifacts added, replaced and extended, a status message moving
// to the history when the next status comes — and refuses what a2a-go
// refuses: an event before the task, an event of another task, an event
// after the end, an append to no artifact.
func TestFold(t *testing.T) {
	ec := &a2asrv.ExecutorContext{TaskID: "t1", ContextID: "c1", Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("hi"))}
	must := func(task *a2a.Task, ev a2a.Event) *a2a.Task {
		t.Helper()
		task, err := fold(task, ec, ev)
		if err != nil {
			t.Fatalf("fold(%T) error = %v", ev, err)
		}
		return task
	}
	task := must(nil, a2a.NewSubmittedTask(ec, ec.Message))
	task = must(task, a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, a2a.NewMessageForTask(a2a.MessageRoleAgent, ec, a2a.NewTextPart("busy"))))
	art := a2a.NewArtifactEvent(ec, a2a.NewTextPart("a"))
	task = must(task, art)
	task = must(task, a2a.NewArtifactUpdateEvent(ec, art.Artifact.ID, a2a.NewTextPart("b"))) // appends
	other := a2a.NewArtifactEvent(ec, a2a.NewTextPart("x"))
	task = must(task, other)
	replace := a2a.NewArtifactUpdateEvent(ec, other.Artifact.ID, a2a.NewTextPart("y"))
	replace.Append = false
	task = must(task, replace)
	task = must(task, a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil))

	if task.Status.State != a2a.TaskStateCompleted || len(task.History) != 2 || task.History[1].Parts[0].Text() != "busy" {
		t.Errorf("task %s, history %d messages; want completed, the user's message and the working status's", task.Status.State, len(task.History))
	}
	var texts []string
	for _, a := range task.Artifacts {
		s := ""
		for _, p := range a.Parts {
			s += p.Text()
		}
		texts = append(texts, s)
	}
	if len(texts) != 2 || texts[0] != "ab" || texts[1] != "y" {
		t.Errorf("artifacts = %q, want [ab y]", texts)
	}
	if len(art.Artifact.Parts) != 1 {
		t.Errorf("the event's artifact was changed: %d parts", len(art.Artifact.Parts))
	}

	bad := []struct {
		name string
		task *a2a.Task
		ev   a2a.Event
	}{
		{"status before the task", nil, a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, nil)},
		{"another task", task, a2a.NewStatusUpdateEvent(&a2asrv.ExecutorContext{TaskID: "t2", ContextID: "c1"}, a2a.TaskStateWorking, nil)},
		{"after the end", task, a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, nil)},
		{"append to nothing", must(nil, a2a.NewSubmittedTask(ec, ec.Message)), a2a.NewArtifactUpdateEvent(ec, "none", a2a.NewTextPart("z"))},
	}
	for _, c := range bad {
		if _, err := fold(c.task, ec, c.ev); !errors.Is(err, a2a.ErrInvalidAgentResponse) {
			t.Errorf("%s: error = %v, want InvalidAgentResponse", c.name, err)
		}
	}
}
