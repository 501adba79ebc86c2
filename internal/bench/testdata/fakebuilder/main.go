// Command fakebuilder is a small stand-in for a coding agent in the
// commission tests. It records what it can see (its prompt, environment and
// every file of its workspace) in $AGENTNET_WORKSPACE/seen-N.txt, then
// writes a bundle into $AGENTNET_BUNDLE_DIR: its first submission echoes
// the text unchanged (wrong); a later one, once the prompt carries the
// feedback on the development cases, upper-cases it (right). With
// FAKE_MODE=nothing it gives up without writing anything.
package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

const agentYAML = `version: 1
name: shouter
description: Answers with the text of the message in upper case.
skills:
  - id: shout
    name: Shout
    description: Turn the given text into upper-case letters.
    params:
      type: object
      properties:
        text: {type: string, description: the text}
      required: [text]
    run: [sh, "{{repo}}/shout.sh", "{{text}}"]
    timeout: 10s
`

func main() {
	ws, out, n := os.Getenv("AGENTNET_WORKSPACE"), os.Getenv("AGENTNET_BUNDLE_DIR"), os.Getenv("AGENTNET_SUBMISSION")
	prompt, err := os.ReadFile(os.Getenv("AGENTNET_PROMPT_FILE"))
	if err != nil || ws == "" || out == "" {
		fmt.Fprintln(os.Stderr, "fakebuilder: no prompt or workspace:", err)
		os.Exit(3)
	}
	var seen strings.Builder
	fmt.Fprintf(&seen, "## prompt\n%s\n## env\n%s\n## args\n%s\n", prompt, strings.Join(os.Environ(), "\n"), strings.Join(os.Args, " "))
	filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && !strings.HasPrefix(d.Name(), "seen-") {
			data, _ := os.ReadFile(p)
			fmt.Fprintf(&seen, "## file %s\n%s\n", p, data)
		}
		return nil
	})
	os.WriteFile(filepath.Join(ws, "seen-"+n+".txt"), []byte(seen.String()), 0o644)
	if os.Getenv("FAKE_MODE") == "nothing" {
		fmt.Fprintln(os.Stderr, "fakebuilder: giving up")
		os.Exit(1)
	}
	script := "#!/bin/sh\nprintf '%s\\n' \"$1\"\n"
	if strings.Contains(string(prompt), "Feedback on submission") && strings.Contains(string(prompt), "hello: scored, score 0") {
		script = "#!/bin/sh\nprintf '%s\\n' \"$1\" | tr '[:lower:]' '[:upper:]'\n"
	}
	if err := os.WriteFile(filepath.Join(out, "agent.yaml"), []byte(agentYAML), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(filepath.Join(out, "shout.sh"), []byte(script), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(`{"type":"result","usage":{"input_tokens":100,"output_tokens":20}}`)
}
