// Command fakeagent is a small stand-in for a coding agent in the command
// generator's tests: it reads the prompt file, writes a bundle for the
// textstats demo repo into $AGENTNET_BUNDLE_DIR, and, as FAKE_MODE says,
// calls a model through the base-URL variables (OpenAI JSON, Anthropic
// stream), prints a JSON result with usage, or does neither; with "hang",
// it says so and never ends. With "python" it writes a bundle for a Python
// package named by FAKE_PACKAGE whose setup is the environment command the
// prompt gives and whose skill runs the package with the venv's python. With FAKE_PROBE set to a path, it records in
// the bundle directory's seen.txt whether it can see that path.
package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

const bundle = `version: 1
name: textstats
description: Word frequencies of plain-text files.
repo: {source: repo}
check: [[./textstats, --help]]
skills:
  - id: word-frequency
    name: Word frequency
    description: List the most frequent words of a text file, leaving out English stop words.
    params:
      type: object
      properties:
        file: {type: string, format: path}
      required: [file]
    run: ["{{repo}}/textstats", top, "{{file}}"]
`

func main() {
	prompt, err := os.ReadFile(os.Getenv("AGENTNET_PROMPT_FILE"))
	if err != nil || !strings.Contains(string(prompt), "agent.yaml") {
		fmt.Fprintln(os.Stderr, "fakeagent: no usable prompt file:", err)
		os.Exit(3)
	}
	mode := os.Getenv("FAKE_MODE")
	if mode == "fail" {
		fmt.Fprintln(os.Stderr, "fakeagent: giving up")
		os.Exit(1)
	}
	if probe := os.Getenv("FAKE_PROBE"); probe != "" {
		_, err := os.Stat(probe)
		seen := fmt.Sprintf("probe %s: visible %v\nhome %s\n", probe, err == nil, os.Getenv("HOME"))
		os.WriteFile(filepath.Join(os.Getenv("AGENTNET_BUNDLE_DIR"), "seen.txt"), []byte(seen), 0o644)
	}
	if mode == "hang" {
		fmt.Println("fakeagent: hanging")
		time.Sleep(24 * time.Hour)
	}
	if mode == "proxy" {
		post(os.Getenv("OPENAI_BASE_URL")+"/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
		post(os.Getenv("ANTHROPIC_BASE_URL")+"/v1/messages", `{"model":"c","stream":true,"max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`)
	}
	text := bundle
	if mode == "python" {
		text = pythonBundle(string(prompt), os.Getenv("FAKE_PACKAGE"))
	}
	if err := os.WriteFile(filepath.Join(os.Getenv("AGENTNET_BUNDLE_DIR"), "agent.yaml"), []byte(text), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if mode == "json" {
		fmt.Println(`{"type":"result","subtype":"success","result":"done","usage":{"input_tokens":1200,"output_tokens":340}}`)
	}
}

// pythonBundle follows the prompt's environment section: its setup line,
// and the venv's interpreter for the check and the skill.
func pythonBundle(prompt, pkg string) string {
	var setup, python string
	for _, line := range strings.Split(prompt, "\n") {
		if s, ok := strings.CutPrefix(strings.TrimSpace(line), "setup: "); ok && setup == "" && strings.Contains(s, "python-env") {
			setup = s
		}
	}
	if _, rest, ok := strings.Cut(prompt, "Then run Python in skills and checks as `"); ok {
		python, _, _ = strings.Cut(rest, "`")
	}
	if setup == "" || python == "" {
		fmt.Fprintln(os.Stderr, "fakeagent: the prompt gives no Python environment")
		os.Exit(4)
	}
	return fmt.Sprintf(`version: 1
name: %[1]s
description: Shouts words.
repo: {source: repo}
setup: %[2]s
check: [[%[3]s, -c, "import %[1]s"]]
skills:
  - id: shout
    name: Shout
    description: Upper-case the words given.
    params:
      type: object
      properties:
        text: {type: string}
      required: [text]
    run: ["{{repo}}/%[3]s", -m, %[1]s, "{{text}}"]
`, pkg, setup, python)
}

func post(url, body string) {
	resp, err := http.Post(url, "application/json", bytes.NewBufferString(body))
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakeagent:", err)
		os.Exit(1)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
}
