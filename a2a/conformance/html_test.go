package conformance_test

import (
	"strings"
	"testing"

	"github.com/agentnet/agentnet/a2a/a2atest"
)

// The HTML report lists every result with its status and requirement id,
// and escapes what the endpoint said.
func TestWriteHTML(t *testing.T) {
	t.Parallel()
	ag := a2atest.New(a2atest.BadSignature, a2atest.WithName(`echo<script>alert(1)</script>`))
	defer ag.Close()
	rep := audit(t, ag.URL)
	var b strings.Builder
	if err := rep.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	n := 0
	for _, e := range rep.Endpoints {
		n += len(e.Results)
	}
	if got := strings.Count(page, "<tr class="); got != n {
		t.Errorf("the page has %d result rows, want %d", got, n)
	}
	for _, want := range []string{rep.Summary.String(), `<td class="fail">fail</td>`, "card.signature-valid", "CARD-SIGN-001"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, "<script>alert(1)") || !strings.Contains(page, "echo&lt;script&gt;") {
		t.Error("the page does not escape the card's name")
	}
}
