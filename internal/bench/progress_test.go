package bench

import (
	"bytes"
	"strings"
	"testing"
)

func TestProgress(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	p := &progress{w: &b, total: 2}
	p.line("generate %s ok", "textkit")
	p.advance()
	p.advance()
	p.finish()
	out := b.String()
	for _, want := range []string{"generate textkit ok\n", "] 1/2", "[" + strings.Repeat("#", barWidth) + "] 2/2"} {
		if !strings.Contains(out, want) {
			t.Errorf("progress output %q lacks %q", out, want)
		}
	}
	var quiet *progress
	quiet.line("x")
	quiet.advance() // a nil progress (not a terminal) prints nothing and does not panic
	(&progress{}).advance()
}
