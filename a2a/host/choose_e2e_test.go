package host_test

import (
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// tagKit is shaped like a media-tag tool's scripts: a copier that takes
// two files, a retagger that may take files, a splitter of another audio
// format, an inspector that takes one file; their help shares no word
// with a question about a recording.
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
  - id: retag
    name: retag
    description: Converts tags to Unicode and stores them again.
    params:
      type: object
      properties:
        file: {type: array, format: path, items: {type: string, format: path}, x-role: input-file}
    run: [sh, -c, 'echo "retagged $1"', retag, "{{file}}"]
  - id: split
    name: split
    description: Split Ogg logical streams.
    params:
      type: object
      properties:
        filename: {type: string, format: path, x-role: input-file}
      required: [filename]
    run: [sh, -c, 'echo "split $1"', split, "{{filename}}"]
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
		t.Fatalf("answer = %q (state %s: %s), want the inspector's: the copier needs a second file the message lacks, the retagger need not work on a file, the splitter takes Ogg", got, task.Status.State, statusText(task))
	}
}
