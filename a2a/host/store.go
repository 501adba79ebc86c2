package host

import (
	"context"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
)

// taskStore is the host's task store: a2a-go's in-memory store semantics
// (versions, TaskNotFound, ErrTaskAlreadyExists, ErrConcurrentModification)
// without its cost, and forgetting finished tasks: a task in a terminal
// state is dropped once ttl has passed since it finished, and when more
// than max finished tasks are held the oldest go first. Tasks still running
// are never dropped; forget is told of every task dropped, so that what
// the task left behind (its served files) goes with it.
//
// a2a-go's store copies the whole task with encoding/gob on every Create,
// Update and Get — payload bytes included. This one copies only the task's
// structure (copyTask): the structs a2a-go changes in place are fresh,
// while parts, whose contents nobody changes once sent, are shared.
//
// It is safe for concurrent use. Forgotten tasks answer TaskNotFound.
type taskStore struct {
	ttl    time.Duration
	max    int
	now    func() time.Time
	forget func(a2a.TaskID) // called for each task dropped; may be nil

	mu       sync.Mutex
	tasks    map[a2a.TaskID]*storedTask
	finished map[a2a.TaskID]bool
	done     []doneTask // finished tasks, oldest first
	empty    *taskstore.InMemory
}

type storedTask struct {
	task    *a2a.Task
	version taskstore.TaskVersion
}

type doneTask struct {
	id a2a.TaskID
	at time.Time
}

var _ taskstore.Store = (*taskStore)(nil)

// minTaskTTL keeps a finished task long enough for a2a-go to read it back
// and answer the request that ran it.
const minTaskTTL = time.Second

// newTaskStore returns a store that keeps finished tasks for ttl (at
// least minTaskTTL; 0 for ever) and at most maxDone of them (at least 1).
func newTaskStore(ttl time.Duration, maxDone int) *taskStore {
	if ttl > 0 && ttl < minTaskTTL {
		ttl = minTaskTTL
	}
	return &taskStore{ttl: ttl, max: max(maxDone, 1), now: time.Now, tasks: map[a2a.TaskID]*storedTask{},
		finished: map[a2a.TaskID]bool{}, empty: taskstore.NewInMemory(nil)}
}

// Create implements taskstore.Store.
func (s *taskStore) Create(_ context.Context, task *a2a.Task) (taskstore.TaskVersion, error) {
	if task == nil || task.ID == "" {
		return taskstore.TaskVersionMissing, a2a.ErrInvalidParams
	}
	cp := copyTask(task)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.evictLocked()
	if _, ok := s.tasks[task.ID]; ok {
		return taskstore.TaskVersionMissing, taskstore.ErrTaskAlreadyExists
	}
	s.tasks[task.ID] = &storedTask{task: cp, version: 1}
	s.finishLocked(cp)
	return 1, nil
}

// finishLocked starts a task's time to be forgotten when it is in a
// terminal state (a task can be created finished: directHandler).
func (s *taskStore) finishLocked(t *a2a.Task) {
	if t.Status.State.Terminal() && !s.finished[t.ID] {
		s.finished[t.ID] = true
		s.done = append(s.done, doneTask{id: t.ID, at: s.now()})
		s.evictLocked()
	}
}

// Update implements taskstore.Store; a task that reaches a terminal state
// starts its time to be forgotten.
func (s *taskStore) Update(ctx context.Context, req *taskstore.UpdateRequest) (taskstore.TaskVersion, error) {
	if req.Task == nil {
		return s.empty.Update(ctx, req) // a2a-go's own answer
	}
	cp := copyTask(req.Task)
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.tasks[req.Task.ID]
	if st == nil {
		return taskstore.TaskVersionMissing, a2a.ErrTaskNotFound
	}
	if req.PrevVersion != taskstore.TaskVersionMissing && st.version != req.PrevVersion {
		return taskstore.TaskVersionMissing, taskstore.ErrConcurrentModification
	}
	v := st.version + 1
	s.tasks[req.Task.ID] = &storedTask{task: cp, version: v}
	s.finishLocked(cp)
	s.evictLocked()
	return v, nil
}

// Get implements taskstore.Store.
func (s *taskStore) Get(_ context.Context, id a2a.TaskID) (*taskstore.StoredTask, error) {
	s.mu.Lock()
	s.evictLocked()
	st := s.tasks[id]
	s.mu.Unlock()
	if st == nil {
		return nil, a2a.ErrTaskNotFound
	}
	return &taskstore.StoredTask{Task: copyTask(st.task), Version: st.version}, nil
}

// List implements taskstore.Store as a2a-go's in-memory store without an
// authenticator does: it lists nothing to an anonymous caller.
func (s *taskStore) List(ctx context.Context, req *a2a.ListTasksRequest) (*a2a.ListTasksResponse, error) {
	return s.empty.List(ctx, req)
}

// len returns the number of tasks held.
func (s *taskStore) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tasks)
}

// evictLocked drops the finished tasks past ttl or beyond max.
func (s *taskStore) evictLocked() {
	now := s.now()
	n := 0
	for n < len(s.done) && (len(s.done)-n > s.max || s.ttl > 0 && now.Sub(s.done[n].at) > s.ttl) {
		id := s.done[n].id
		delete(s.tasks, id)
		delete(s.finished, id)
		if s.forget != nil {
			s.forget(id)
		}
		n++
	}
	if n > 0 {
		// Copy down rather than reslice, so that the array does not keep
		// growing at its end while its head is dead.
		s.done = append(s.done[:0], s.done[n:]...)
	}
}

// copyTask copies what a2a-go changes in place of a task it read from the
// store or handed to it: the task, its status, its history and artifact
// lists, each message and artifact with its list of parts and its
// metadata. Parts and the values in metadata are shared: nothing changes
// them once they are sent, and their bytes (a file's) are the costly part.
func copyTask(t *a2a.Task) *a2a.Task {
	cp := *t
	cp.Status.Message = copyMessage(t.Status.Message)
	if t.Status.Timestamp != nil {
		ts := *t.Status.Timestamp
		cp.Status.Timestamp = &ts
	}
	cp.History = copyList(t.History, copyMessage)
	cp.Artifacts = copyList(t.Artifacts, copyArtifact)
	cp.Metadata = maps.Clone(t.Metadata)
	return &cp
}

func copyMessage(m *a2a.Message) *a2a.Message {
	if m == nil {
		return nil
	}
	cp := *m
	cp.Parts = slices.Clone(m.Parts)
	cp.Metadata = maps.Clone(m.Metadata)
	cp.Extensions = slices.Clone(m.Extensions)
	cp.ReferenceTasks = slices.Clone(m.ReferenceTasks)
	return &cp
}

func copyArtifact(a *a2a.Artifact) *a2a.Artifact {
	if a == nil {
		return nil
	}
	cp := *a
	cp.Parts = slices.Clone(a.Parts)
	cp.Metadata = maps.Clone(a.Metadata)
	cp.Extensions = slices.Clone(a.Extensions)
	return &cp
}

func copyList[T any](list []*T, cp func(*T) *T) []*T {
	if list == nil {
		return nil
	}
	out := make([]*T, len(list))
	for i, v := range list {
		out[i] = cp(v)
	}
	return out
}
