package host_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/a2a/host"
	"github.com/agentnet/agentnet/cards"
	"github.com/agentnet/agentnet/internal/llm"
	"github.com/agentnet/agentnet/internal/llm/llmtest"
	"github.com/agentnet/agentnet/internal/proc/proctest"
)

const upperPy = "import sys\nprint(' '.join(sys.argv[1:]).upper())\n"

const textkit = `version: 1
name: textkit
description: Small text tools for checking the host.
skills:
  - id: shout
    name: Shout
    description: Convert the given text to upper case letters.
    tags: [text, case]
    examples: [Shout hello world]
    params: {type: object, properties: {text: {type: string, description: the text}}, required: [text]}
    run: [python3, "{{repo}}/upper.py", "{{text}}"]
    timeout: 10s
  - id: count
    name: Count bytes
    description: Count the bytes of a file.
    tags: [file, size, bytes]
    examples: ["How many bytes does this file have?"]
    params: {type: object, properties: {file: {type: string, format: path}}, required: [file]}
    run: [wc, -c, "{{file}}"]
  - id: repeat
    name: Repeat
    description: Repeat a word n times.
    tags: [repeat]
    params:
      type: object
      properties: {word: {type: string}, n: {type: integer, minimum: 1, default: 2}}
      required: [word]
    run: [python3, -c, "import sys; print(' '.join([sys.argv[1]] * int(sys.argv[2])))", "{{word}}", "{{n}}"]
`

func TestCard(t *testing.T) {
	t.Parallel()
	s := serve(t, textkit, map[string]string{"upper.py": upperPy})
	resp, err := http.Get(s.URL + host.CardPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET card = %d", resp.StatusCode)
	}
	if ps := cards.Validate(data); ps != nil {
		t.Errorf("the served card has problems:\n%v", ps)
	}
	if bytes.Contains(data, []byte("null")) {
		t.Errorf("the served card has a null: %s", data)
	}
	var c map[string]any
	json.Unmarshal(data, &c)
	if c["url"] != s.URL+"/" || c["protocolVersion"] != "0.3" {
		t.Errorf("card url, protocolVersion = %v, %v; want %s/, 0.3 for A2A 0.3 clients", c["url"], c["protocolVersion"], s.URL)
	}
	if got := len(c["skills"].([]any)); got != 3 {
		t.Errorf("card has %d skills, want 3", got)
	}
}

func TestSend(t *testing.T) {
	t.Parallel()
	s := serve(t, textkit, map[string]string{"upper.py": upperPy})
	for _, ver := range []string{"1.0", "0.3"} {
		t.Run(ver, func(t *testing.T) {
			t.Parallel()
			c := a2aClient(t, s.URL, ver)
			req := textMessage("hello world")
			req.Message.SetMeta("skill", "shout")
			task := send(t, c, req)
			if task.Status.State != a2a.TaskStateCompleted {
				t.Fatalf("task state = %s (%s), want completed", task.Status.State, statusText(task))
			}
			if got, want := artifactText(task), "HELLO WORLD\n"; got != want {
				t.Errorf("output = %q, want %q", got, want)
			}
			// tasks/get returns the same finished task.
			got, err := c.GetTask(t.Context(), &a2a.GetTaskRequest{ID: task.ID})
			if err != nil || got.Status.State != a2a.TaskStateCompleted || artifactText(got) != "HELLO WORLD\n" {
				t.Errorf("GetTask() = %v, %v; want the completed task", got, err)
			}
		})
	}
}

func TestSkillChoice(t *testing.T) {
	t.Parallel()
	s := serve(t, textkit, map[string]string{"upper.py": upperPy})
	c := a2aClient(t, s.URL, "1.0")
	tests := []struct {
		name string
		req  *a2a.SendMessageRequest
		want string
	}{
		{"bm25 by description", textMessage("Convert hello to upper case letters"), "CONVERT HELLO TO UPPER CASE LETTERS\n"},
		{"bm25 by file and tags", textMessage("how many bytes", &a2a.Part{Content: a2a.Raw("12345"), Filename: "five.bin"}), "5 "},
		{"data part by name with default", func() *a2a.SendMessageRequest {
			r := textMessage("", a2a.NewDataPart(map[string]any{"word": "ab"}))
			r.Message.SetMeta("skill", "repeat")
			return r
		}(), "ab ab\n"},
		{"string numbers coerced", func() *a2a.SendMessageRequest {
			r := textMessage("", a2a.NewDataPart(map[string]any{"word": "x", "n": "3"}))
			r.Message.SetMeta("skill_id", "repeat")
			return r
		}(), "x x x\n"},
		{"text to a required path parameter", func() *a2a.SendMessageRequest {
			r := textMessage("four")
			r.Message.SetMeta("skill", "count")
			return r
		}(), "4 "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			task := send(t, c, tc.req)
			if task.Status.State != a2a.TaskStateCompleted {
				t.Fatalf("task state = %s (%s), want completed", task.Status.State, statusText(task))
			}
			if got := artifactText(task); !strings.HasPrefix(got, tc.want) {
				t.Errorf("output = %q, want prefix %q", got, tc.want)
			}
		})
	}
}

func TestFailures(t *testing.T) {
	t.Parallel()
	const agent = `version: 1
name: broken
description: Skills that go wrong.
skills:
  - id: crash
    name: Crash
    description: Write to stderr and exit with status 3.
    run: [python3, -c, "import sys; sys.stderr.write('Traceback: boom\\n'); sys.exit(3)"]
  - id: hang
    name: Hang
    description: Sleep far past the timeout.
    run: [sleep, "30"]
    timeout: 300ms
  - id: needs
    name: Needs
    description: Needs an integer.
    params: {type: object, properties: {n: {type: integer}}, required: [n]}
    run: [echo, "{{n}}"]
  - id: missing
    name: Missing
    description: A program that does not exist.
    run: [no-such-program-agentnet]
`
	s := serve(t, agent, nil)
	c := a2aClient(t, s.URL, "1.0")
	tests := []struct {
		skill string
		parts []*a2a.Part
		want  string
	}{
		{"crash", nil, `skill "crash" exited with status 3: Traceback: boom`},
		{"hang", nil, `skill "hang" timed out after 300ms and was killed`},
		{"needs", nil, `skill "needs": required parameter n (setting) has no value: the message states no value for it`},
		{"needs", []*a2a.Part{a2a.NewDataPart(map[string]any{"n": "many"})}, `n: got string, want integer`},
		{"missing", nil, `skill "missing" could not start`},
		{"nope", nil, `unknown skill "nope" (this agent has: crash, hang, needs, missing)`},
	}
	for _, tc := range tests {
		t.Run(tc.skill, func(t *testing.T) {
			t.Parallel()
			req := textMessage("go", tc.parts...)
			req.Message.SetMeta("skill", tc.skill)
			start := time.Now()
			task := send(t, c, req)
			if task.Status.State != a2a.TaskStateFailed {
				t.Fatalf("task state = %s, want failed", task.Status.State)
			}
			if got := statusText(task); !strings.Contains(got, tc.want) {
				t.Errorf("failure message = %q, want it to contain %q", got, tc.want)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("the task took %s to fail", d)
			}
		})
	}
}

func TestStream(t *testing.T) {
	t.Parallel()
	const agent = `version: 1
name: slow
description: A slow echo.
skills:
  - id: slow-echo
    name: Slow echo
    description: Wait a little, then echo the text.
    params: {type: object, properties: {text: {type: string}}}
    run: [sh, "{{repo}}/slow.sh", "{{text}}"]
`
	s := serve(t, agent, map[string]string{"slow.sh": "sleep 0.4\necho \"$1\"\n"})
	for _, ver := range []string{"1.0", "0.3"} {
		t.Run(ver, func(t *testing.T) {
			t.Parallel()
			c := a2aClient(t, s.URL, ver)
			var states []a2a.TaskState
			var output string
			for ev, err := range c.SendStreamingMessage(t.Context(), textMessage("streamed")) {
				if err != nil {
					t.Fatalf("SendStreamingMessage() error = %v", err)
				}
				switch e := ev.(type) {
				case *a2a.Task:
					states = append(states, e.Status.State)
				case *a2a.TaskStatusUpdateEvent:
					states = append(states, e.Status.State)
				case *a2a.TaskArtifactUpdateEvent:
					for _, p := range e.Artifact.Parts {
						output += p.Text()
					}
				}
			}
			if output != "streamed\n" {
				t.Errorf("streamed output = %q, want %q", output, "streamed\n")
			}
			working := 0
			for _, st := range states {
				if st == a2a.TaskStateWorking {
					working++
				}
			}
			if len(states) < 3 || states[0] != a2a.TaskStateSubmitted || states[len(states)-1] != a2a.TaskStateCompleted || working < 3 {
				t.Errorf("states = %v, want submitted, several working updates while the skill runs, completed", states)
			}
		})
	}
}

func TestCancel(t *testing.T) {
	t.Parallel()
	// The skill starts a grandchild; both must die with the task.
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
	script := fmt.Sprintf("sleep 60 &\necho $! > %s/child.pid\necho $$ > %s/parent.pid\nwait\n", pidDir, pidDir)
	s := serve(t, agent, map[string]string{"sleep.sh": script})
	for _, ver := range []string{"1.0", "0.3"} {
		t.Run(ver, func(t *testing.T) {
			c := a2aClient(t, s.URL, ver)
			os.Remove(filepath.Join(pidDir, "child.pid"))
			req := textMessage("sleep")
			req.Config = &a2a.SendMessageConfig{ReturnImmediately: true}
			task := send(t, c, req)
			child := waitPID(t, filepath.Join(pidDir, "child.pid"))
			parent := waitPID(t, filepath.Join(pidDir, "parent.pid"))
			got, err := c.CancelTask(t.Context(), &a2a.CancelTaskRequest{ID: task.ID})
			if err != nil {
				t.Fatalf("CancelTask() error = %v", err)
			}
			if got.Status.State != a2a.TaskStateCanceled {
				t.Errorf("CancelTask() state = %s, want canceled", got.Status.State)
			}
			for _, pid := range []int{parent, child} {
				if !proctest.Gone(pid, 5*time.Second) {
					t.Errorf("process %d still runs after the task was canceled", pid)
				}
			}
			again, err := c.GetTask(t.Context(), &a2a.GetTaskRequest{ID: task.ID})
			if err != nil || again.Status.State != a2a.TaskStateCanceled {
				t.Errorf("GetTask() after cancel = %v, %v; want canceled", again, err)
			}
		})
	}
}

func waitPID(t *testing.T, file string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		data, err := os.ReadFile(file)
		if n, err2 := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && err2 == nil {
			return n
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no pid in %s", file)
	return 0
}

func TestFiles(t *testing.T) {
	t.Parallel()
	const agent = `version: 1
name: files
description: Reads and writes files.
skills:
  - id: report
    name: Report
    description: Write a PNG and a CSV report about the input file.
    params: {type: object, properties: {file: {type: string, format: path}}, required: [file]}
    run: [python3, "{{repo}}/report.py", "{{file}}"]
    outputs: ["*.png", "*.csv"]
`
	const report = `import sys, os
p = sys.argv[1]
data = open(p, 'rb').read()
print("input", os.path.basename(p), "in", os.path.dirname(p), len(data))
open("chart.png", "wb").write(b"\x89PNG\r\n\x1a\n" + b"\0" * 16)
open("report.csv", "w").write("name,total\nx,%d\n" % len(data))
open("scratch.log", "w").write("not an output")
`
	s := serve(t, agent, map[string]string{"report.py": report})
	c := a2aClient(t, s.URL, "1.0")
	workRoot := os.TempDir()

	t.Run("artifacts", func(t *testing.T) {
		t.Parallel()
		task := send(t, c, textMessage("report", &a2a.Part{Content: a2a.Raw("hello"), Filename: "in.txt", MediaType: "text/plain"}))
		if task.Status.State != a2a.TaskStateCompleted {
			t.Fatalf("state = %s (%s)", task.Status.State, statusText(task))
		}
		files := map[string]*a2a.Part{}
		for _, a := range task.Artifacts {
			for _, p := range a.Parts {
				if p.Filename != "" {
					files[p.Filename] = p
				}
			}
		}
		if p := files["chart.png"]; p == nil || p.MediaType != "image/png" || !bytes.HasPrefix(p.Raw(), []byte("\x89PNG")) {
			t.Errorf("chart.png artifact = %+v, want a PNG file part", p)
		}
		if p := files["report.csv"]; p == nil || !strings.HasPrefix(p.MediaType, "text/csv") || string(p.Raw()) != "name,total\nx,5\n" {
			t.Errorf("report.csv artifact = %+v, want the CSV", p)
		}
		if _, ok := files["scratch.log"]; ok || files["in.txt"] != nil {
			t.Errorf("artifacts %v include a non-output or an input file", files)
		}
	})
	t.Run("path traversal", func(t *testing.T) {
		t.Parallel()
		evil := &a2a.Part{Content: a2a.Raw("pwned"), Filename: "../../../../tmp/agentnet-evil.txt"}
		task := send(t, c, textMessage("report", evil))
		if task.Status.State != a2a.TaskStateCompleted {
			t.Fatalf("state = %s (%s)", task.Status.State, statusText(task))
		}
		out := artifactText(task)
		if !strings.HasPrefix(out, "input agentnet-evil.txt in ") || !strings.Contains(out, workRoot) {
			t.Errorf("output = %q, want the file saved by its base name inside a work directory", out)
		}
		if _, err := os.Stat("/tmp/agentnet-evil.txt"); err == nil {
			t.Error("the file part escaped the work directory")
		}
	})
	t.Run("path argument outside the work directory", func(t *testing.T) {
		t.Parallel()
		task := send(t, c, textMessage("report", a2a.NewDataPart(map[string]any{"file": "/etc/passwd"})))
		if task.Status.State != a2a.TaskStateFailed || !strings.Contains(statusText(task), "outside the task's work directory") {
			t.Errorf("state = %s (%s), want failed: outside the work directory", task.Status.State, statusText(task))
		}
	})
	t.Run("10 MiB message", func(t *testing.T) {
		t.Parallel()
		big := bytes.Repeat([]byte("0123456789abcdef"), 10<<20/16)
		task := send(t, c, textMessage("report", &a2a.Part{Content: a2a.Raw(big), Filename: "big.bin"}))
		if task.Status.State != a2a.TaskStateCompleted {
			t.Fatalf("state = %s (%s)", task.Status.State, statusText(task))
		}
		if out := artifactText(task); !strings.Contains(out, fmt.Sprintf(" %d\n", 10<<20)) {
			t.Errorf("output = %q, want the size %d", out, 10<<20)
		}
	})
}

func TestTooLarge(t *testing.T) {
	t.Parallel()
	s := serve(t, textkit, map[string]string{"upper.py": upperPy}, host.WithMaxBody(1<<10))
	c := a2aClient(t, s.URL, "1.0")
	_, err := c.SendMessage(t.Context(), textMessage(strings.Repeat("x", 4<<10)))
	if err == nil {
		t.Fatal("SendMessage(4 KiB) to a host taking 1 KiB succeeded, want an error")
	}
}

func TestLLMChoice(t *testing.T) {
	t.Parallel()
	fake := llmtest.NewFakeServer(func(req *llm.Request) llm.Message {
		return llm.Message{ToolCalls: []llm.ToolCall{{ID: "call_1", Type: "function",
			Function: llm.FunctionCall{Name: "repeat", Arguments: `{"word":"hey","n":3}`}}}}
	})
	defer fake.Close()
	s := serve(t, textkit, map[string]string{"upper.py": upperPy}, host.WithLLM(llm.New(fake.Config())))
	c := a2aClient(t, s.URL, "1.0")
	task := send(t, c, textMessage("say hey three times"))
	if got, want := artifactText(task), "hey hey hey\n"; got != want {
		t.Errorf("output = %q (%s), want %q", got, statusText(task), want)
	}
	reqs := fake.Requests()
	if len(reqs) != 1 || len(reqs[0].Tools) != 3 || reqs[0].Tools[0].Function.Name != "shout" {
		t.Fatalf("LLM requests = %+v, want one with the three skills as tools", reqs)
	}
	if !strings.Contains(reqs[0].Messages[1].Content, "say hey three times") {
		t.Errorf("LLM user message = %q, want the message text", reqs[0].Messages[1].Content)
	}
}

func TestClose(t *testing.T) {
	t.Parallel()
	const agent = `version: 1
name: sleeper
description: Sleeps.
skills: [{id: sleep, name: Sleep, description: Sleep long., run: [sleep, "30"]}]
`
	s := serve(t, agent, nil)
	c := a2aClient(t, s.URL, "1.0")
	done := make(chan *a2a.Task, 1)
	go func() {
		res, err := c.SendMessage(t.Context(), textMessage("zz"))
		task, _ := res.(*a2a.Task)
		if err != nil {
			task = nil
		}
		done <- task
	}()
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	if err := s.Close(); err != nil {
		t.Fatalf("Close() error = %v", err)
	}
	select {
	case task := <-done:
		if task == nil || task.Status.State != a2a.TaskStateFailed {
			t.Errorf("task after Close = %+v, want failed", task)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the running task did not end after Close")
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Close took %s", d)
	}
}
