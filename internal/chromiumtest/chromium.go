package chromiumtest

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/websocket"
)

// SkipReason is the one line a test skips with when Find finds nothing.
const SkipReason = "no chromium on PATH (Debian: apt-get install chromium); this page test needs it"

// Find returns the path of a Chromium (or Chrome) binary, or "".
func Find() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Page is a minimal DevTools protocol client of one page. It is not safe
// for concurrent use; each test starts its own.
type Page struct {
	t      *testing.T
	ws     *websocket.Conn
	nextID int
	events []string // methods of events seen since the last wait
}

type message struct {
	ID     int             `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params any             `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// Call sends a command and returns its result, recording events that
// arrive meanwhile. A protocol error fails the test.
func (p *Page) Call(method string, params any) json.RawMessage {
	p.t.Helper()
	p.nextID++
	id := p.nextID
	if params == nil {
		params = map[string]any{}
	}
	if err := websocket.JSON.Send(p.ws, message{ID: id, Method: method, Params: params}); err != nil {
		p.t.Fatalf("cdp %s: %v", method, err)
	}
	p.ws.SetReadDeadline(time.Now().Add(30 * time.Second))
	for {
		var m message
		if err := websocket.JSON.Receive(p.ws, &m); err != nil {
			p.t.Fatalf("cdp %s: %v", method, err)
		}
		if m.ID == id {
			if m.Error != nil {
				p.t.Fatalf("cdp %s: %s", method, m.Error.Message)
			}
			return m.Result
		}
		if m.Method != "" {
			p.events = append(p.events, m.Method)
		}
	}
}

// Navigate loads url and waits for its load event.
func (p *Page) Navigate(url string) {
	p.t.Helper()
	p.Call("Page.navigate", map[string]any{"url": url})
	p.WaitLoad()
}

// WaitLoad waits for the page's load event (which may already have come).
func (p *Page) WaitLoad() {
	p.t.Helper()
	defer func() { p.events = nil }()
	for _, e := range p.events {
		if e == "Page.loadEventFired" {
			return
		}
	}
	p.ws.SetReadDeadline(time.Now().Add(30 * time.Second))
	for {
		var m message
		if err := websocket.JSON.Receive(p.ws, &m); err != nil {
			p.t.Fatalf("cdp: waiting for the page to load: %v", err)
		}
		if m.Method == "Page.loadEventFired" {
			return
		}
	}
}

// Eval evaluates a JavaScript expression in the page and returns its value;
// an exception fails the test.
func (p *Page) Eval(expr string) any {
	p.t.Helper()
	res := p.Call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true})
	var r struct {
		Result struct {
			Value any `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		p.t.Fatal(err)
	}
	if r.ExceptionDetails != nil {
		p.t.Fatalf("eval %s: %s", expr, r.ExceptionDetails.Text)
	}
	return r.Result.Value
}

// Screenshot returns a PNG of the page.
func (p *Page) Screenshot() []byte {
	p.t.Helper()
	res := p.Call("Page.captureScreenshot", map[string]any{"format": "png"})
	var shot struct{ Data string }
	json.Unmarshal(res, &shot)
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	return png
}

// Start starts a headless Chromium in its own process group and connects to
// its first page; the test's cleanup stops it and removes its profile.
func Start(t *testing.T, bin string) *Page {
	t.Helper()
	profile, err := os.MkdirTemp("", "agentnet-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--no-first-run", "--no-default-browser-check", "--remote-debugging-address=127.0.0.1",
		"--remote-debugging-port=0", "--remote-allow-origins=*", "--window-size=1280,900",
		"--allow-file-access-from-files", "--user-data-dir="+profile, "about:blank")
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
	p := &Page{t: t, ws: ws}
	p.Call("Page.enable", nil)
	p.Call("Runtime.enable", nil)
	return p
}
