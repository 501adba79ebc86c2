package orchestrator

import "testing"

// TestStepMessagePreviousText checks that a step's text output reaches the
// next step as a file named and typed by what it holds.
func TestStepMessagePreviousText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ text, name, mediaType string }{
		{"Q3 2024\n\"1,566\"\n\"1,188\"\n", "input.csv", "text/csv"},
		{"{\"valid\": false}\n", "input.json", "application/json"},
		{"lines: 7\nwords: 40\n", "input.txt", "text/plain"},
	} {
		msg := stepMessage("Compute the mean.", Input{}, &Output{Text: tc.text}, false, "ctx")
		if len(msg.Parts) != 2 {
			t.Fatalf("stepMessage() has %d parts, want the instruction and one file", len(msg.Parts))
		}
		if p := msg.Parts[1]; p.Filename != tc.name || p.MediaType != tc.mediaType {
			t.Errorf("previous output %q sent as %s (%s), want %s (%s)", tc.text, p.Filename, p.MediaType, tc.name, tc.mediaType)
		}
	}
}
