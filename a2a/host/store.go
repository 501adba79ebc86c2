package host

import (
	"context"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
)

// taskStore is a2a-go's in-memory task store that forgets finished tasks:
// a task in a terminal state is dropped once ttl has passed since it
// finished, and when more than max finished tasks are held the oldest go
// first. Tasks still running are never dropped. Each task lives in an a2a-go InMemory
// store of its own, so that dropping one is deleting a map entry and the
// store's semantics (versions, copies, owners) stay a2a-go's.
//
// It is safe for concurrent use. Forgotten tasks answer TaskNotFound.
type taskStore struct {
	ttl time.Duration
	max int
	now func() time.Time

	mu       sync.Mutex
	tasks    map[a2a.TaskID]*taskstore.InMemory
	finished map[a2a.TaskID]bool
	done     []doneTask // finished tasks, oldest first
	empty    *taskstore.InMemory
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
	return &taskStore{ttl: ttl, max: max(maxDone, 1), now: time.Now, tasks: map[a2a.TaskID]*taskstore.InMemory{},
		finished: map[a2a.TaskID]bool{}, empty: taskstore.NewInMemory(nil)}
}

// Create implements taskstore.Store.
func (s *taskStore) Create(ctx context.Context, task *a2a.Task) (taskstore.TaskVersion, error) {
	s.mu.Lock()
	s.evictLocked()
	if _, ok := s.tasks[task.ID]; ok {
		s.mu.Unlock()
		return taskstore.TaskVersionMissing, taskstore.ErrTaskAlreadyExists
	}
	one := taskstore.NewInMemory(nil)
	s.tasks[task.ID] = one
	s.mu.Unlock()
	v, err := one.Create(ctx, task)
	if err != nil {
		s.mu.Lock()
		if s.tasks[task.ID] == one {
			delete(s.tasks, task.ID)
		}
		s.mu.Unlock()
	}
	return v, err
}

// Update implements taskstore.Store; a task that reaches a terminal state
// starts its time to be forgotten.
func (s *taskStore) Update(ctx context.Context, req *taskstore.UpdateRequest) (taskstore.TaskVersion, error) {
	if req.Task == nil {
		return s.empty.Update(ctx, req) // a2a-go's own answer
	}
	one := s.lookup(req.Task.ID)
	if one == nil {
		return taskstore.TaskVersionMissing, a2a.ErrTaskNotFound
	}
	v, err := one.Update(ctx, req)
	if err == nil && req.Task.Status.State.Terminal() {
		s.mu.Lock()
		if !s.finished[req.Task.ID] && s.tasks[req.Task.ID] == one {
			s.finished[req.Task.ID] = true
			s.done = append(s.done, doneTask{id: req.Task.ID, at: s.now()})
		}
		s.evictLocked()
		s.mu.Unlock()
	}
	return v, err
}

// Get implements taskstore.Store.
func (s *taskStore) Get(ctx context.Context, id a2a.TaskID) (*taskstore.StoredTask, error) {
	one := s.lookup(id)
	if one == nil {
		return nil, a2a.ErrTaskNotFound
	}
	return one.Get(ctx, id)
}

// List implements taskstore.Store as a2a-go's in-memory store without an
// authenticator does: it lists nothing to an anonymous caller.
func (s *taskStore) List(ctx context.Context, req *a2a.ListTasksRequest) (*a2a.ListTasksResponse, error) {
	return s.empty.List(ctx, req)
}

func (s *taskStore) lookup(id a2a.TaskID) *taskstore.InMemory {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.evictLocked()
	return s.tasks[id]
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
		delete(s.tasks, s.done[n].id)
		delete(s.finished, s.done[n].id)
		n++
	}
	if n > 0 {
		// Copy down rather than reslice, so that the array does not keep
		// growing at its end while its head is dead.
		s.done = append(s.done[:0], s.done[n:]...)
	}
}
