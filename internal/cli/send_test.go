package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sendBundleYAML = `version: 1
name: shouter
description: Turns text into capital letters.
skills:
  - id: shout
    name: Shout
    description: Convert the given text to upper case letters.
    params: {type: object, properties: {text: {type: string}}, required: [text]}
    run: [python3, -c, "import sys; print(sys.argv[1].upper())", "{{text}}"]
  - id: shout-file
    name: Shout a file
    description: Write an upper-case copy of the given text file.
    params: {type: object, properties: {file: {type: string, format: path, description: the text file}}, required: [file]}
    run: [python3, -c, "import sys; open('result-upper.txt','w').write(open(sys.argv[1]).read().upper()); print('wrote result-upper.txt')", "{{file}}"]
    outputs: ["result-*.txt"]
  - id: refuse
    name: Refuse
    description: Always fails, saying why.
    params: {type: object, properties: {text: {type: string}}}
    run: [python3, -c, "import sys; sys.exit('cannot do that')"]
`

func TestSend(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "agent.yaml"), sendBundleYAML)
	url := startServe(t, "serve", dir).url
	work := t.TempDir()
	notes := filepath.Join(work, "notes.txt")
	writeFile(t, notes, "hello from a file")
	out := filepath.Join(work, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"text", []string{"send", url, "shout hello world", "--skill", "shout"}, ExitOK, "HELLO WORLD", ""},
		{"text over rest", []string{"send", url, "shout hello rest", "--skill", "shout", "--binding", "rest"}, ExitOK, "HELLO REST", ""},
		{"text over grpc", []string{"send", url, "shout hello grpc", "--skill", "shout", "--binding", "grpc"}, ExitOK, "HELLO GRPC", ""},
		{"file over grpc", []string{"send", url, "shout this file", "--file", notes, "--skill", "shout-file", "--out", t.TempDir(), "--binding", "grpc"}, ExitOK, "wrote result-upper.txt", "saved "},
		{"data part", []string{"send", url, "shout it", "--skill", "shout", "--data", `{"text": "from data"}`}, ExitOK, "FROM DATA", ""},
		{"structured call", []string{"send", url, "go", "--data", `{"skill": "shout", "arguments": {"text": "called"}}`}, ExitOK, "CALLED", ""},
		{"data not an object", []string{"send", url, "x", "--data", `[1, 2]`}, ExitInvalid, "", "--data"},
		{"data not JSON", []string{"send", url, "x", "--data", `{"a": `}, ExitInvalid, "", "--data"},
		{"bad binding", []string{"send", url, "x", "--binding", "soap"}, ExitInvalid, "", `binding "soap"`},
		{"file", []string{"send", url, "shout this file", "--file", notes, "--skill", "shout-file", "--out", out}, ExitOK, "wrote result-upper.txt", "saved " + out},
		{"failed task", []string{"send", url, "do it", "--skill", "refuse"}, ExitFailed, "", "agentnet send: the task ended failed"},
		{"unknown skill", []string{"send", url, "x", "--skill", "nope"}, ExitInvalid, "", `has no skill "nope" (it has shout, shout-file, refuse)`},
		{"missing file", []string{"send", url, "x", "--file", filepath.Join(work, "none")}, ExitInvalid, "", "--file"},
		{"out not a dir", []string{"send", url, "x", "--out", notes}, ExitInvalid, "", "--out"},
		{"bad url", []string{"send", "ftp://x", "hi"}, ExitInvalid, "", "not an http(s) URL"},
		{"no agent", []string{"send", "http://127.0.0.1:1/", "hi"}, ExitFailed, "", "no agent card at http://127.0.0.1:1/"},
		{"no text", []string{"send", url}, ExitInvalid, "", "want 2 argument(s) URL TEXT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := run(t, tc.args...)
			if code != tc.code || !strings.Contains(stdout, tc.stdout) || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("agentnet %v = exit %d, stdout %q, stderr %q; want exit %d, %q, %q", tc.args, code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
			}
			if code != ExitOK && strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("agentnet %v printed more than one error line: %q", tc.args, stderr)
			}
		})
	}
	if data, err := os.ReadFile(filepath.Join(out, "result-upper.txt")); err != nil || string(data) != "HELLO FROM A FILE" {
		t.Errorf("saved artifact = %q, %v", data, err)
	}

	// Again with --json: the same name is not overwritten.
	code, stdout, stderr := run(t, "send", url, "shout this file", "--file", notes, "--skill", "shout-file", "--out", out, "--json")
	var res sendResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || code != ExitOK {
		t.Fatalf("send --json = %d, %q, %q (%v)", code, stdout, stderr, err)
	}
	if res.State != "completed" || res.Agent != "shouter" || len(res.Artifacts) != 1 || res.Artifacts[0].Name != "result-upper-2.txt" || res.Artifacts[0].Bytes != 17 {
		t.Errorf("send --json = %+v, want one artifact saved beside the first", res)
	}
}

func TestSaveArtifactStaysInside(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, name := range []string{"../../etc/passwd", "/abs/x.txt", `..\..\win.txt`, "", ".", "..", ".hidden"} {
		p, err := saveArtifact(dir, name, []byte("x"))
		if err != nil {
			t.Fatalf("saveArtifact(%q) error = %v", name, err)
		}
		if filepath.Dir(p) != dir || strings.HasPrefix(filepath.Base(p), ".") {
			t.Errorf("saveArtifact(%q) wrote %s, want a plain name inside %s", name, p, dir)
		}
	}
}
