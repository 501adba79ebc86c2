package host

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
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

// TestTaskStoreCopies: what a2a-go changes in place of a task it read or
// stored never reaches the store, while a file's bytes are never copied
// (a2a-go's own store gob-copies them on every Create, Update and Get).
func TestTaskStoreCopies(t *testing.T) {
	ctx := t.Context()
	s := newTaskStore(time.Minute, 10)
	payload := make([]byte, 4<<20)
	task := &a2a.Task{ID: "t", ContextID: "c", Status: a2a.TaskStatus{State: a2a.TaskStateWorking},
		Artifacts: []*a2a.Artifact{{ID: "a", Parts: a2a.ContentParts{{Content: a2a.Raw(payload), Filename: "big.bin"}}}},
		History:   []*a2a.Message{a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("hi"))}}
	if _, err := s.Create(ctx, task); err != nil {
		t.Fatal(err)
	}
	// Changing the task given to the store changes nothing stored.
	task.Artifacts[0].Parts = append(task.Artifacts[0].Parts, a2a.NewTextPart("later"))
	task.History = append(task.History, a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart("x")))
	task.Status.State = a2a.TaskStateFailed
	got, err := s.Get(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	if n, h, st := len(got.Task.Artifacts[0].Parts), len(got.Task.History), got.Task.Status.State; n != 1 || h != 1 || st != a2a.TaskStateWorking {
		t.Errorf("stored task after changing the original: %d parts, %d messages, %s; want 1, 1, working", n, h, st)
	}
	// Nor does changing a task read from it.
	got.Task.Artifacts[0].Parts = nil
	got.Task.Artifacts = append(got.Task.Artifacts, &a2a.Artifact{ID: "b"})
	again, _ := s.Get(ctx, "t")
	if len(again.Task.Artifacts) != 1 || len(again.Task.Artifacts[0].Parts) != 1 {
		t.Errorf("stored task after changing a copy read: %d artifacts; want 1 with 1 part", len(again.Task.Artifacts))
	}

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range 10 {
		st, err := s.Get(ctx, "t")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Update(ctx, &taskstore.UpdateRequest{Task: st.Task, PrevVersion: st.Version}); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("10 reads and updates of a task holding %d bytes allocated %d bytes; the payload must be shared, not copied", len(payload), grew)
	}
	if _, err := s.Update(ctx, &taskstore.UpdateRequest{Task: again.Task, PrevVersion: again.Version}); !errors.Is(err, taskstore.ErrConcurrentModification) {
		t.Errorf("Update from a stale version: err = %v, want ErrConcurrentModification", err)
	}
}

// TestOutputBuffers: the buffers a run's output streams are copied into
// keep the head (standard output) or the tail (standard error) whether
// written to or read into.
func TestOutputBuffers(t *testing.T) {
	t.Parallel()
	data := strings.Repeat("0123456789", 1000)
	for _, max := range []int{0, 1, 700, 10000, 20000} {
		var w, r headBuffer
		w.max, r.max = max, max
		w.Write([]byte(data))
		if _, err := r.ReadFrom(iotest.OneByteReader(strings.NewReader(data))); err != nil {
			t.Fatal(err)
		}
		if string(w.buf) != string(r.buf) || w.truncated != r.truncated || len(r.buf) != min(max, len(data)) || r.truncated != (max < len(data)) {
			t.Errorf("head %d: read %d bytes (truncated %v), written %d (truncated %v)", max, len(r.buf), r.truncated, len(w.buf), w.truncated)
		}
		tw, tr := tailBuffer{max: max}, tailBuffer{max: max}
		tw.Write([]byte(data))
		tr.ReadFrom(strings.NewReader(data))
		if string(tw.buf) != string(tr.buf) || string(tr.buf) != data[len(data)-min(max, len(data)):] {
			t.Errorf("tail %d: read %d bytes, written %d", max, len(tr.buf), len(tw.buf))
		}
	}
}
