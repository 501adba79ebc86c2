package host_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/agentnet/agentnet/a2a/host"
)

const pickAgent = `version: 1
name: picker
description: Picks a column of a table.
skills:
  - id: column
    name: column
    description: Print one column of a CSV table.
    params:
      type: object
      properties:
        table: {type: string, format: path, x-role: input-file, x-accepts: [text/csv]}
        column: {type: string, x-role: selector}
      required: [table, column]
    run: [python3, "{{repo}}/col.py", "{{table}}", "{{column}}"]
  - id: echo
    name: echo
    description: Echo words.
    params: {type: object, properties: {words: {type: string}, times: {type: integer, minimum: 1}}, required: [words]}
    run: [python3, -c, "import sys; print(' '.join([sys.argv[1]] * int(sys.argv[2])))", "{{words}}", "{{times}}"]
`

const colPy = `import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
i = rows[0].index(sys.argv[2])
print("\n".join(r[i] for r in rows[1:]))
`

func TestStructuredCall(t *testing.T) {
	t.Parallel()
	s := serve(t, pickAgent, map[string]string{"col.py": colPy})
	c := a2aClient(t, s.URL, "1.0")
	call := func(args map[string]any, parts ...*a2a.Part) *a2a.Task {
		req := textMessage("this text is ignored by a structured call", parts...)
		req.Message.Parts = append(req.Message.Parts, a2a.NewDataPart(map[string]any{"skill": "echo", "arguments": args}))
		return send(t, c, req)
	}
	task := call(map[string]any{"words": "hi there", "times": 2})
	if task.Status.State != a2a.TaskStateCompleted || artifactText(task) != "hi there hi there\n" {
		t.Fatalf("structured call: %s %q %q", task.Status.State, artifactText(task), statusText(task))
	}
	md := task.Artifacts[0].Metadata[host.BindingMetadataKey].(map[string]any)
	if md["binder"] != "rules" || !strings.Contains(toJSON(t, md["trace"]), `"from":"arguments given with the message"`) {
		t.Errorf("binding metadata = %v", md)
	}
	// Validated against the skill's schema: no language binding fills
	// what the call left out or got wrong.
	task = call(map[string]any{"times": 0})
	if task.Status.State != a2a.TaskStateFailed || !strings.Contains(statusText(task), "missing property 'words'") ||
		!strings.Contains(statusText(task), "times") {
		t.Errorf("invalid structured call: %s %q", task.Status.State, statusText(task))
	}
}

// A selector is never the whole instruction: with no column named, the
// task fails saying which parameter and why; with one named, the trace
// says where each argument came from.
func TestBindByRole(t *testing.T) {
	t.Parallel()
	s := serve(t, pickAgent, map[string]string{"col.py": colPy})
	c := a2aClient(t, s.URL, "1.0")
	table := &a2a.Part{Content: a2a.Raw("name,mass\nwater,18\nsalt,58\n"), Filename: "t.csv", MediaType: "text/csv"}
	msg := func(text string, parts ...*a2a.Part) *a2a.SendMessageRequest {
		req := textMessage(text, parts...)
		req.Message.Metadata = map[string]any{"skill": "column"}
		return req
	}
	task := send(t, c, msg("Print a column of this table, please.", table))
	if task.Status.State != a2a.TaskStateFailed || !strings.Contains(statusText(task), "required parameter column (selector) has no value") {
		t.Errorf("no column named: %s %q", task.Status.State, statusText(task))
	}
	task = send(t, c, msg("Print the mass column of this table.", table))
	if got := artifactText(task); got != "18\n58\n" {
		t.Fatalf("mass column: %q (%s)", got, statusText(task))
	}
	trace := toJSON(t, task.Artifacts[0].Metadata[host.BindingMetadataKey])
	for _, want := range []string{`"from":"attached file t.csv","param":"table"`, `"from":"instruction[10:14] \"mass\"","param":"column"`} {
		if !strings.Contains(trace, want) {
			t.Errorf("trace lacks %s:\n%s", want, trace)
		}
	}
	// A file of a type the input does not accept is not taken.
	doc := &a2a.Part{Content: a2a.Raw("%PDF-1.4\n"), Filename: "t.pdf", MediaType: "application/pdf"}
	task = send(t, c, msg("Print the mass column.", doc))
	if task.Status.State != a2a.TaskStateFailed || !strings.Contains(statusText(task), "required parameter table (input-file) has no value: none of the attached files is of a type it accepts (text/csv)") {
		t.Errorf("PDF for a CSV input: %s %q", task.Status.State, statusText(task))
	}
}

func toJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
