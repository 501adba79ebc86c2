package registry

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentnet/agentnet/internal/chromiumtest"
)

// The web page test drives a real headless Chromium (Debian's chromium
// package) over the DevTools protocol: load the page, search, open a card,
// take a screenshot. Without a Chromium it skips.

func TestWebPageInChromium(t *testing.T) {
	t.Parallel()
	bin := chromiumtest.Find()
	if bin == "" {
		t.Skip("no chromium on PATH (Debian: apt-get install chromium); the web page test needs it")
	}
	agents := newFakeAgents(t)
	reg := newTestRegistry(t)
	agents.set(t, "reverser", reverserCard())
	agents.set(t, "wordfreq", testCard("wordfreq", "Word frequencies of a text.",
		skill("top-words", "List the most common words of a text.", "text", "statistics")))
	agents.set(t, "xss", xssCard())
	for _, n := range []string{"reverser", "wordfreq", "xss"} {
		mustRegister(t, reg.client, agents.url(n))
	}
	c := chromiumtest.Start(t, bin)

	// Load the page.
	c.Call("Page.navigate", map[string]any{"url": reg.srv.URL + "/"})
	c.WaitLoad()
	if got := c.Eval(`document.querySelectorAll("tr.agent").length`); got != float64(3) {
		t.Errorf("agents listed = %v, want 3", got)
	}
	if got := c.Eval(`document.querySelector("#summary").textContent`); !strings.Contains(fmt.Sprint(got), "3 agents registered: 3 up") {
		t.Errorf("summary = %q", got)
	}
	// The card's markup is shown as text, never run.
	if got := c.Eval(`document.querySelectorAll("script").length`); got != float64(0) {
		t.Errorf("page has %v script elements, want 0", got)
	}
	if got := c.Eval(`document.body.textContent.includes("<script>window.__xss=1</script>")`); got != true {
		t.Error("the card's script tags are not shown as text")
	}

	// Search through the form.
	c.Eval(`document.querySelector("#q").value = "palindrome"; document.querySelector("#search").click(); true`)
	c.WaitLoad()
	if got := c.Eval(`location.search`); got != "?q=palindrome&tag=" {
		t.Errorf("after search, location.search = %q", got)
	}
	names := c.Eval(`Array.from(document.querySelectorAll("tr.agent a.card-link")).map(a => a.textContent).join(",")`)
	if names != "reverser" {
		t.Errorf("search results = %q, want reverser", names)
	}

	// Open the card.
	c.Eval(`document.querySelector("tr.agent a.card-link").click(); true`)
	c.WaitLoad()
	if got := c.Eval(`document.querySelector("#name").textContent`); got != "reverser" {
		t.Errorf("card page name = %q, want reverser", got)
	}
	if got := fmt.Sprint(c.Eval(`document.querySelector("#card").textContent`)); !strings.Contains(got, `"id": "reverse-text"`) {
		t.Errorf("card page shows %.200q, want the card JSON", got)
	}
	if got := c.Eval(`document.querySelector("#status").textContent`); got != "up" {
		t.Errorf("card page health = %q, want up", got)
	}

	// Screenshot.
	png := c.Screenshot()
	if !bytes.HasPrefix(png, []byte("\x89PNG")) || len(png) < 2000 {
		t.Fatalf("screenshot: %d bytes; want a PNG", len(png))
	}
	path := filepath.Join(t.TempDir(), "registry-card.png")
	if dir := os.Getenv("AGENTNET_TEST_ARTIFACTS"); dir != "" {
		path = filepath.Join(dir, "registry-card.png")
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot of the card page: %s (%d bytes)", path, len(png))

	// The hostile card's own page runs none of its markup either.
	c.Eval(`location.href = "/?q=script"; true`)
	c.WaitLoad()
	c.Eval(`document.querySelector("tr.agent a.card-link").click(); true`)
	c.WaitLoad()
	if got := c.Eval(`typeof window.__xss`); got != "undefined" {
		t.Errorf("card markup ran in the page: window.__xss is %v", got)
	}
	if got := c.Eval(`document.querySelectorAll("script, img").length`); got != float64(0) {
		t.Errorf("hostile card page has %v script or img elements, want 0", got)
	}
	if got := fmt.Sprint(c.Eval(`document.querySelector("#description").textContent`)); !strings.Contains(got, "<script>") {
		t.Errorf("hostile description shown as %q, want its text", got)
	}
}
