package host_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/a2a/binding"
	"github.com/agentnet/agentnet/a2a/host"
)

// TestStreamDirect: a stream of a new task is answered by the host's direct
// path on every binding. The client sees the sequence a2a-go's task manager
// sent — the task submitted, working statuses, the output as an artifact,
// completed last — and the store holds the task as it ended, written once
// per status: the artifact goes with the status after it (a2a-go's task
// manager writes on every event, artifacts included). GetTask after the
// stream answers the task the stream built.
func TestStreamDirect(t *testing.T) {
	t.Parallel()
	s := serveOnPort(t, textkit, map[string]string{"upper.py": upperPy})
	for _, b := range binding.All {
		t.Run(string(b), func(t *testing.T) {
			t.Parallel()
			c := bindingClient(t, s.URL, b)
			req := textMessage("shout along " + string(b))
			var kinds []string
			var id a2a.TaskID
			var output string
			statuses := 0
			for ev, err := range c.SendStreamingMessage(t.Context(), req) {
				if err != nil {
					t.Fatalf("stream error = %v", err)
				}
				switch e := ev.(type) {
				case *a2a.Task:
					kinds, id = append(kinds, "task:"+string(e.Status.State)), e.ID
				case *a2a.TaskStatusUpdateEvent:
					statuses++
					if k := "status:" + string(e.Status.State); kinds[len(kinds)-1] != k {
						kinds = append(kinds, k) // heartbeats repeat working
					}
				case *a2a.TaskArtifactUpdateEvent:
					kinds = append(kinds, "artifact")
					for _, p := range e.Artifact.Parts {
						output += p.Text()
					}
				default:
					t.Fatalf("stream event %T", ev)
				}
			}
			want := "task:TASK_STATE_SUBMITTED status:TASK_STATE_WORKING artifact status:TASK_STATE_COMPLETED"
			if got := strings.Join(kinds, " "); got != want {
				t.Errorf("stream = %s, want %s", got, want)
			}
			if wantOut := "SHOUT ALONG " + strings.ToUpper(string(b)) + "\n"; output != wantOut {
				t.Errorf("streamed output %q, want %q", output, wantOut)
			}
			if v, want := host.StoredVersion(s.Host, id), int64(1+statuses); v != want {
				t.Errorf("stored version = %d, want %d (created, then one write per status)", v, want)
			}
			got, err := c.GetTask(t.Context(), &a2a.GetTaskRequest{ID: id})
			if err != nil || got.Status.State != a2a.TaskStateCompleted || artifactText(got) != output {
				t.Fatalf("GetTask after the stream = %v, %v; want completed with %q", got, err, output)
			}
			if len(got.History) < 1 || got.History[0].ID != req.Message.ID {
				t.Errorf("stored history %v, want the user's message first", got.History)
			}
		})
	}
}

// TestStreamDirectCancel: CancelTask of a task whose stream the direct path
// answers kills its skill (and the skill's child), ends the stream with
// the canceled status and stores the task canceled, on every binding.
func TestStreamDirectCancel(t *testing.T) {
	t.Parallel()
	const agent = `version: 1
name: sleeper
description: Sleeps for a long time.
skills:
  - id: sleep
    name: Sleep
    description: Sleep with a child process.
    run: [sh, "{{repo}}/sleep.sh", "{{workdir}}"]
`
	pidDir := t.TempDir()
	script := fmt.Sprintf("sleep 60 &\necho $! > \"%s/$1.pid\"\nwait\n", pidDir)
	s := serveOnPort(t, agent, map[string]string{"sleep.sh": strings.ReplaceAll(script, "$1", "$(basename $1)")})
	for _, b := range binding.All {
		t.Run(string(b), func(t *testing.T) {
			c := bindingClient(t, s.URL, b)
			var last a2a.TaskState
			var id a2a.TaskID
			canceled := false
			cancelDone := make(chan struct{})
			for ev, err := range c.SendStreamingMessage(t.Context(), textMessage("sleep")) {
				if err != nil {
					t.Errorf("stream error = %v", err)
					break
				}
				switch e := ev.(type) {
				case *a2a.Task:
					id, last = e.ID, e.Status.State
				case *a2a.TaskStatusUpdateEvent:
					last = e.Status.State
				}
				if last == a2a.TaskStateWorking && !canceled {
					canceled = true
					go func() {
						defer close(cancelDone)
						pids, _ := filepath.Glob(filepath.Join(pidDir, "*.pid"))
						for len(pids) == 0 {
							pids, _ = filepath.Glob(filepath.Join(pidDir, "*.pid"))
						}
						for _, p := range pids {
							os.Remove(p)
						}
						got, err := c.CancelTask(t.Context(), &a2a.CancelTaskRequest{ID: id})
						if err != nil || got.Status.State != a2a.TaskStateCanceled {
							t.Errorf("CancelTask() = %v, %v; want canceled", got, err)
						}
					}()
				}
			}
			if canceled {
				<-cancelDone
			}
			if last != a2a.TaskStateCanceled {
				t.Errorf("stream ended %s, want canceled", last)
			}
			if got, err := c.GetTask(t.Context(), &a2a.GetTaskRequest{ID: id}); err != nil || got.Status.State != a2a.TaskStateCanceled {
				t.Errorf("GetTask after cancel = %v, %v; want canceled", got, err)
			}
		})
	}
}
