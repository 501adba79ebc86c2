package host

import (
	"errors"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
)

func TestTaskStore(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := newTaskStore(time.Minute, 2)
	s.now = func() time.Time { return now }
	task := func(id string, state a2a.TaskState) *a2a.Task {
		return &a2a.Task{ID: a2a.TaskID(id), ContextID: "c", Status: a2a.TaskStatus{State: state}}
	}
	finish := func(id string) {
		t.Helper()
		if _, err := s.Update(ctx, &taskstore.UpdateRequest{Task: task(id, a2a.TaskStateCompleted), PrevVersion: taskstore.TaskVersionMissing}); err != nil {
			t.Fatalf("Update(%s) error = %v", id, err)
		}
	}
	has := func(id string) bool {
		_, err := s.Get(ctx, a2a.TaskID(id))
		if err != nil && !errors.Is(err, a2a.ErrTaskNotFound) {
			t.Fatalf("Get(%s) error = %v", id, err)
		}
		return err == nil
	}
	for _, id := range []string{"running", "a", "b", "c"} {
		if _, err := s.Create(ctx, task(id, a2a.TaskStateWorking)); err != nil {
			t.Fatalf("Create(%s) error = %v", id, err)
		}
	}
	if _, err := s.Create(ctx, task("a", a2a.TaskStateWorking)); !errors.Is(err, taskstore.ErrTaskAlreadyExists) {
		t.Errorf("Create(a) again error = %v, want ErrTaskAlreadyExists", err)
	}
	finish("a")
	finish("b")
	finish("c") // three finished, two kept: a goes
	if has("a") || !has("b") || !has("c") {
		t.Errorf("after 3 finished with 2 kept: a %v, b %v, c %v; want false, true, true", has("a"), has("b"), has("c"))
	}
	now = now.Add(time.Minute + time.Second) // past the TTL
	if has("b") || has("c") {
		t.Errorf("past the TTL: b %v, c %v; want both forgotten", has("b"), has("c"))
	}
	now = now.Add(time.Hour)
	if !has("running") {
		t.Error("a running task was forgotten")
	}
	if n := s.len(); n != 1 {
		t.Errorf("len() = %d, want 1 (the running task)", n)
	}
}
