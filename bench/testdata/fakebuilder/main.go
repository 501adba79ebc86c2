// Command fakebuilder is a small stand-in for a coding agent in the
// commission tests. It records what it can see (its prompt, environment and
// every file of its workspace) in $AGENTNET_WORKSPACE/seen-N.txt, then
// writes a bundle into $AGENTNET_BUNDLE_DIR: its first submission echoes
// the text unchanged (wrong); a later one, once the prompt carries the
// feedback on the development cases, upper-cases it (right). With
// FAKE_MODE=nothing it gives up without writing anything. With
// FAKE_SCAN=1 it also reads every file it can reach from / (but /proc,
// /sys and /dev) and its environment, looking for the held-out markers of
// testdata/commission and for the development case's text, and records
// what it found.
package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
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

// markers are what must never reach the builder (spelled backwards, so
// that this program's own bytes do not hold them) and what must: the
// development case's text.
var (
	markers = []string{"TERCES-TUODLEH", "TERCES-ELIF", "TERCES-STSET", "lmay.tuodleh", "stupni-tuodleh", "sdrow teiuq"}
	devText = "ereht olleh"
)

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// scan reads the file system from / and the environment and reports the
// markers and the development text it found, and how many files it read.
func scan() string {
	self, _ := os.Executable()
	found := map[string]bool{}
	dev, files := false, 0
	look := func(where string, data []byte) {
		for _, m := range markers {
			if bytes.Contains(data, []byte(reverse(m))) {
				found[reverse(m)+" in "+where] = true
			}
		}
		if bytes.Contains(data, []byte(reverse(devText))) {
			dev = true
		}
	}
	look("the environment", []byte(strings.Join(os.Environ(), "\n")))
	filepath.WalkDir("/", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (p == "/proc" || p == "/sys" || p == "/dev") {
			return filepath.SkipDir
		}
		look("the name "+p, []byte(p))
		if !d.Type().IsRegular() || p == self || strings.HasPrefix(d.Name(), "seen-") {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > 64<<20 {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		files++
		look(p, data)
		return nil
	})
	var list []string
	for f := range found {
		list = append(list, f)
	}
	sort.Strings(list)
	if len(list) == 0 {
		list = []string{"none"}
	}
	return fmt.Sprintf("## scan\nfiles read: %d\ndevelopment text found: %v\nheld-out markers found: %s\n", files, dev, strings.Join(list, "; "))
}

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
	if os.Getenv("FAKE_SCAN") == "1" {
		seen.WriteString(scan())
	}
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
