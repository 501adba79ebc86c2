package host_test

import (
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// tagKit is shaped like a media-tag tool's scripts: a copier that takes
// two files, an inspector that takes one; their help shares no word with
// a question about a recording.
const tagKit = `version: 1
name: tagkit
description: Tag tools.
skills:
  - id: copy
    name: copy
    description: Copies tags from SRC to DST.
    params:
      type: object
      properties:
        src: {type: string, format: path, x-role: input-file}
        dst: {type: string, x-role: input-text}
      required: [src, dst]
    run: [sh, -c, 'echo "copied $1 to $2"', copy, "{{src}}", "{{dst}}"]
  - id: inspect
    name: inspect
    description: Full tag list for any given file.
    params:
      type: object
      properties:
        file: {type: string, format: path, x-role: input-file}
      required: [file]
    run: [sh, -c, 'echo "tags of $(basename "$1")"', inspect, "{{file}}"]
`

func TestChooseByBinding(t *testing.T) {
	t.Parallel()
	s := serve(t, tagKit, nil)
	c := a2aClient(t, s.URL, "1.0")
	part := &a2a.Part{Content: a2a.Raw("fLaC"), Filename: "chime.flac", MediaType: "audio/flac"}
	task := send(t, c, textMessage("How long is the attached recording, and what is its sample rate?", part))
	if got := artifactText(task); !strings.Contains(got, "tags of chime.flac") {
		t.Fatalf("answer = %q (state %s: %s), want the inspector's: the copier needs a second file the message lacks", got, task.Status.State, statusText(task))
	}
}
