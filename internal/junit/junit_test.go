package junit

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWriteDecodesBack(t *testing.T) {
	t.Parallel()
	var r Report
	r.Name = "run"
	s := r.Suite("single")
	s.Add(Case{Name: "a", Class: "single.easy", Time: 1.5})
	s.Add(Case{Name: "b", Class: "single.easy", Failure: "check 1: want <x>\n & \"y\"", Detail: "output: <html>"})
	c := r.Suite("chain")
	c.Add(Case{Name: "c", Class: "chain.hard", Error: "registry down"})
	c.Add(Case{Name: "d", Class: "chain.hard", Skipped: "repo has no agent"})
	var buf bytes.Buffer
	if err := r.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "<?xml") {
		t.Errorf("report does not start with an XML declaration: %q", buf.String()[:20])
	}
	var got Report
	if err := xml.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("decode the report: %v\n%s", err, buf.String())
	}
	type counts struct{ Tests, Failures, Errors, Skipped int }
	if d := cmp.Diff(counts{4, 1, 1, 1}, counts{got.Tests, got.Failures, got.Errors, got.Skipped}); d != "" {
		t.Errorf("report counts (-want +got):\n%s", d)
	}
	if len(got.Suites) != 2 || got.Suites[0].Tests != 2 || got.Suites[0].Failures != 1 || got.Suites[1].Errors != 1 || got.Suites[1].Skipped != 1 {
		t.Fatalf("suites = %+v", got.Suites)
	}
	b := got.Suites[0].Cases[1]
	if b.FailureEl == nil || b.FailureEl.Message != `check 1: want <x> & "y"` || b.FailureEl.Text != "output: <html>" {
		t.Errorf("failure of b = %+v, want the reason on one line and the detail as text", b.FailureEl)
	}
	if a := got.Suites[0].Cases[0]; a.FailureEl != nil || a.ErrorEl != nil || a.SkippedEl != nil || a.Time != 1.5 {
		t.Errorf("passed case a = %+v", a)
	}
	if got.Suites[1].Cases[0].ErrorEl == nil || got.Suites[1].Cases[1].SkippedEl == nil {
		t.Errorf("chain cases = %+v", got.Suites[1].Cases)
	}
}
