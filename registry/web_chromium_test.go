package registry

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/websocket"
)

// The web page test drives a real headless Chromium (Debian's chromium
// package) over the DevTools protocol: load the page, search, open a card,
// take a screenshot. Without a Chromium it skips.

func findChromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// cdp is a minimal DevTools protocol client of one page.
type cdp struct {
	t      *testing.T
	ws     *websocket.Conn
	nextID int
	events []string // methods of events seen since the last wait
}

type cdpMessage struct {
	ID     int             `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params any             `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// call sends a command and returns its result, recording events that
// arrive meanwhile.
func (c *cdp) call(method string, params any) json.RawMessage {
	c.t.Helper()
	c.nextID++
	id := c.nextID
	if params == nil {
		params = map[string]any{}
	}
	if err := websocket.JSON.Send(c.ws, cdpMessage{ID: id, Method: method, Params: params}); err != nil {
		c.t.Fatalf("cdp %s: %v", method, err)
	}
	c.ws.SetReadDeadline(time.Now().Add(30 * time.Second))
	for {
		var m cdpMessage
		if err := websocket.JSON.Receive(c.ws, &m); err != nil {
			c.t.Fatalf("cdp %s: %v", method, err)
		}
		if m.ID == id {
			if m.Error != nil {
				c.t.Fatalf("cdp %s: %s", method, m.Error.Message)
			}
			return m.Result
		}
		if m.Method != "" {
			c.events = append(c.events, m.Method)
		}
	}
}

// waitLoad waits for the page's load event (which may already have come).
func (c *cdp) waitLoad() {
	c.t.Helper()
	defer func() { c.events = nil }()
	for _, e := range c.events {
		if e == "Page.loadEventFired" {
			return
		}
	}
	c.ws.SetReadDeadline(time.Now().Add(30 * time.Second))
	for {
		var m cdpMessage
		if err := websocket.JSON.Receive(c.ws, &m); err != nil {
			c.t.Fatalf("cdp: waiting for the page to load: %v", err)
		}
		if m.Method == "Page.loadEventFired" {
			return
		}
	}
}

// eval evaluates a JavaScript expression in the page and returns its value.
func (c *cdp) eval(expr string) any {
	c.t.Helper()
	res := c.call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true})
	var r struct {
		Result struct {
			Value any `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		c.t.Fatal(err)
	}
	if r.ExceptionDetails != nil {
		c.t.Fatalf("eval %s: %s", expr, r.ExceptionDetails.Text)
	}
	return r.Result.Value
}

// startChromium starts a headless Chromium and connects to its first page.
func startChromium(t *testing.T, bin string) *cdp {
	t.Helper()
	profile, err := os.MkdirTemp("", "agentnet-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--no-first-run", "--no-default-browser-check", "--remote-debugging-address=127.0.0.1",
		"--remote-debugging-port=0", "--remote-allow-origins=*", "--window-size=1280,900",
		"--user-data-dir="+profile, "about:blank")
	// Its own process group, so that the renderers and helpers it starts
	// go down with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
		// Helpers may still be exiting; removal is retried briefly.
		for i := 0; i < 50 && os.RemoveAll(profile) != nil; i++ {
			time.Sleep(20 * time.Millisecond)
		}
	})
	wsURL := make(chan string, 1)
	var log bytes.Buffer
	go func() {
		re := regexp.MustCompile(`DevTools listening on (ws://\S+)`)
		s := bufio.NewScanner(stderr)
		for s.Scan() {
			if m := re.FindStringSubmatch(s.Text()); m != nil {
				wsURL <- m[1]
			} else if log.Len() < 4096 {
				log.WriteString(s.Text() + "\n")
			}
		}
	}()
	var browserWS string
	select {
	case browserWS = <-wsURL:
	case <-time.After(30 * time.Second):
		t.Fatalf("chromium did not start its DevTools endpoint in 30s")
	}
	// The page targets are listed over HTTP next to the browser's socket.
	host := strings.Split(strings.TrimPrefix(browserWS, "ws://"), "/")[0]
	var pageWS string
	for deadline := time.Now().Add(10 * time.Second); pageWS == "" && time.Now().Before(deadline); {
		resp, err := http.Get("http://" + host + "/json/list")
		if err == nil {
			var targets []struct{ Type, WebSocketDebuggerURL string }
			json.NewDecoder(resp.Body).Decode(&targets)
			resp.Body.Close()
			for _, tg := range targets {
				if tg.Type == "page" {
					pageWS = tg.WebSocketDebuggerURL
				}
			}
		}
		if pageWS == "" {
			time.Sleep(100 * time.Millisecond)
		}
	}
	if pageWS == "" {
		t.Fatal("chromium lists no page target")
	}
	ws, err := websocket.Dial(pageWS, "", "http://127.0.0.1/")
	if err != nil {
		t.Fatalf("connect to chromium page: %v", err)
	}
	ws.MaxPayloadBytes = 64 << 20
	t.Cleanup(func() { ws.Close() })
	c := &cdp{t: t, ws: ws}
	c.call("Page.enable", nil)
	c.call("Runtime.enable", nil)
	return c
}

func TestWebPageInChromium(t *testing.T) {
	t.Parallel()
	bin := findChromium()
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
	c := startChromium(t, bin)

	// Load the page.
	c.call("Page.navigate", map[string]any{"url": reg.srv.URL + "/"})
	c.waitLoad()
	if got := c.eval(`document.querySelectorAll("tr.agent").length`); got != float64(3) {
		t.Errorf("agents listed = %v, want 3", got)
	}
	if got := c.eval(`document.querySelector("#summary").textContent`); !strings.Contains(fmt.Sprint(got), "3 agents registered: 3 up") {
		t.Errorf("summary = %q", got)
	}
	// The card's markup is shown as text, never run.
	if got := c.eval(`document.querySelectorAll("script").length`); got != float64(0) {
		t.Errorf("page has %v script elements, want 0", got)
	}
	if got := c.eval(`document.body.textContent.includes("<script>window.__xss=1</script>")`); got != true {
		t.Error("the card's script tags are not shown as text")
	}

	// Search through the form.
	c.eval(`document.querySelector("#q").value = "palindrome"; document.querySelector("#search").click(); true`)
	c.waitLoad()
	if got := c.eval(`location.search`); got != "?q=palindrome&tag=" {
		t.Errorf("after search, location.search = %q", got)
	}
	names := c.eval(`Array.from(document.querySelectorAll("tr.agent a.card-link")).map(a => a.textContent).join(",")`)
	if names != "reverser" {
		t.Errorf("search results = %q, want reverser", names)
	}

	// Open the card.
	c.eval(`document.querySelector("tr.agent a.card-link").click(); true`)
	c.waitLoad()
	if got := c.eval(`document.querySelector("#name").textContent`); got != "reverser" {
		t.Errorf("card page name = %q, want reverser", got)
	}
	if got := fmt.Sprint(c.eval(`document.querySelector("#card").textContent`)); !strings.Contains(got, `"id": "reverse-text"`) {
		t.Errorf("card page shows %.200q, want the card JSON", got)
	}
	if got := c.eval(`document.querySelector("#status").textContent`); got != "up" {
		t.Errorf("card page health = %q, want up", got)
	}

	// Screenshot.
	res := c.call("Page.captureScreenshot", map[string]any{"format": "png"})
	var shot struct{ Data string }
	json.Unmarshal(res, &shot)
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) || len(png) < 2000 {
		t.Fatalf("screenshot: %d bytes, %v; want a PNG", len(png), err)
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
	c.eval(`location.href = "/?q=script"; true`)
	c.waitLoad()
	c.eval(`document.querySelector("tr.agent a.card-link").click(); true`)
	c.waitLoad()
	if got := c.eval(`typeof window.__xss`); got != "undefined" {
		t.Errorf("card markup ran in the page: window.__xss is %v", got)
	}
	if got := c.eval(`document.querySelectorAll("script, img").length`); got != float64(0) {
		t.Errorf("hostile card page has %v script or img elements, want 0", got)
	}
	if got := fmt.Sprint(c.eval(`document.querySelector("#description").textContent`)); !strings.Contains(got, "<script>") {
		t.Errorf("hostile description shown as %q, want its text", got)
	}
}
