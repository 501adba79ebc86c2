package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/deploy/docker"
	"github.com/agentnet/agentnet/eval"
	"github.com/agentnet/agentnet/internal/proc"
	"github.com/agentnet/agentnet/tasks"
)

// testsBudget is how many case timeouts the hidden tests get in all.
const testsBudget = 5

// The environment of a commission's hidden tests.
const (
	envDelivery = "AGENTNET_DELIVERY"  // a fresh copy of the frozen delivery
	envAgentURL = "AGENTNET_AGENT_URL" // the running delivery's A2A endpoint
	envTestsDir = "AGENTNET_TESTS_DIR" // the copy of the tests directory the command runs in
)

// runTests runs a commission's hidden acceptance tests against a running
// delivery: the command runs in a fresh copy of the tests directory, with a
// fresh copy of the delivery and the agent's URL in its environment, and is
// killed at the end of its budget (testsBudget case timeouts). Beside an
// agent of the docker runtime it runs in a fresh container of its own that
// sees those two copies alone and shares the agent's network (see
// runTestsInJob); otherwise as a local process group. Pass and fail per
// test are read from its output: go test -json, JUnit XML, TAP or Python
// unittest; any other output counts as one test that passes when the
// command exits with 0.
func (e *evaluator) runTests(ctx context.Context, c *tasks.Case, delivery string, agent *deploy.Agent, work string) *eval.TestsResult {
	tr := &eval.TestsResult{Outcome: eval.TestsError}
	os.RemoveAll(work)
	dir, dcopy := filepath.Join(work, "run"), filepath.Join(work, "delivery")
	src := c.Tests.Dir
	if !filepath.IsAbs(src) {
		src = filepath.Join(e.suiteDir, src)
	}
	if err := copyTree(src, dir); err != nil {
		tr.Detail = "copy the tests: " + err.Error()
		return tr
	}
	if err := copyTree(delivery, dcopy); err != nil {
		tr.Detail = "copy the delivery: " + err.Error()
		return tr
	}
	_, perCase := gates(c)
	budget := testsBudget * perCase
	argv := append([]string(nil), c.Tests.Command...)
	if strings.ContainsRune(argv[0], '/') && !filepath.IsAbs(argv[0]) {
		argv[0] = filepath.Join(dir, argv[0])
	}
	var out testsRun
	if e.jobs != nil && (agent.Runtime == "docker" || agent.Runtime == "swarm") {
		out = e.runTestsInJob(ctx, c, argv, dir, dcopy, agent, budget)
	} else {
		out = e.runTestsHere(ctx, argv, dir, dcopy, agent.URL, budget)
	}
	logPath := filepath.Join(work, "tests.log")
	os.WriteFile(logPath, append(append(out.stdout, "\n--- stderr ---\n"...), out.stderr...), 0o644)
	if e.rel != nil {
		tr.Log = e.rel(logPath)
	}
	switch {
	case ctx.Err() != nil:
		tr.Detail = ctx.Err().Error()
		return tr
	case out.timedOut:
		parseTests(tr, out.stdout, out.stderr, false)
		tr.Outcome, tr.Detail = eval.TestsTimeout, fmt.Sprintf("the tests ran out of their %s and were killed", budget)
		return tr
	case out.failed != nil:
		tr.Detail = "run the tests: " + out.failed.Error()
		return tr
	}
	parseTests(tr, out.stdout, out.stderr, out.exitErr == nil)
	tr.Outcome = eval.TestsFailed
	if out.exitErr == nil && tr.Total > 0 && tr.Passed == tr.Total {
		tr.Outcome = eval.TestsPassed
	}
	if tr.Outcome == eval.TestsFailed && tr.Detail == "" {
		tr.Detail = fmt.Sprintf("%d of %d passed", tr.Passed, tr.Total)
		if out.exitErr != nil {
			tr.Detail += "; " + out.exitErr.Error() + tail(out.stderr, 300)
		}
	}
	return tr
}

// testsRun is what running a hidden test command left.
type testsRun struct {
	stdout, stderr []byte
	timedOut       bool
	failed         error // the command could not run
	exitErr        error // it ran and exited with a status other than 0
}

// runTestsHere runs the tests as a local proc.Group, which is killed with
// everything it started when the command ends or its budget does.
func (e *evaluator) runTestsHere(ctx context.Context, argv []string, dir, dcopy, agentURL string, budget time.Duration) testsRun {
	tctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	cmd := exec.CommandContext(tctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(append([]string(nil), e.env...), envDelivery+"="+dcopy, envAgentURL+"="+agentURL, envTestsDir+"="+dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// Hidden tests may start servers and helpers, daemonised or not, that
	// must not outlive them.
	group := proc.NewGroup()
	defer group.Kill()
	cmd.Cancel = group.Kill
	cmd.WaitDelay = 2 * time.Second
	err := group.Start(cmd)
	if err == nil {
		err = cmd.Wait()
	}
	_ = group.Kill()
	out := testsRun{stdout: stdout.Bytes(), stderr: stderr.Bytes(), timedOut: errors.Is(tctx.Err(), context.DeadlineExceeded)}
	var ee *exec.ExitError
	switch {
	case err == nil || errors.Is(err, exec.ErrWaitDelay):
	case errors.As(err, &ee):
		out.exitErr = err
	default:
		out.failed = err
	}
	return out
}

// testsMaxOutput bounds the output kept of hidden tests run in a container.
const testsMaxOutput = 16 << 20

// runTestsInJob runs the tests in a fresh container that sees the copies of
// the tests and of the delivery (at their own paths) and nothing else of
// this machine, in the network of the agent's container, where it reaches
// the agent at docker.BesideURL; the container is removed when the command
// ends or its budget does. Its image holds the command's program with what
// it needs (a Python's standard library, a shell's usual tools, and curl
// for a shell when this machine has it); the go command sees this
// machine's GOROOT, read-only, with empty caches and no module proxy, so a
// Go test suite runs on the standard library and vendored modules alone
// (see docker.Jobs.Run). Its environment is the three AGENTNET_ variables
// and the locale of the run's: no credential reaches the tests, which may
// run the delivery's code.
func (e *evaluator) runTestsInJob(ctx context.Context, c *tasks.Case, argv []string, dir, dcopy string, agent *deploy.Agent, budget time.Duration) testsRun {
	env := []string{envDelivery + "=" + dcopy, envAgentURL + "=" + docker.BesideURLOf(agent), envTestsDir + "=" + dir, "PYTHONDONTWRITEBYTECODE=1"}
	for _, kv := range e.env {
		k, _, _ := strings.Cut(kv, "=")
		if k == "LANG" || k == "TZ" || strings.HasPrefix(k, "LC_") {
			env = append(env, kv)
		}
	}
	var programs []string
	if shells[filepath.Base(argv[0])] {
		programs = []string{"curl"}
	}
	res := e.jobs.Run(ctx, docker.JobSpec{
		Name: "tests-" + c.ID, Argv: argv, Programs: programs, Env: env, Dir: dir,
		Mounts:  []docker.Mount{{Host: dir}, {Host: dcopy}},
		Timeout: budget, MaxOutput: testsMaxOutput, Beside: agent,
	})
	out := testsRun{stdout: res.Stdout, stderr: res.Stderr, timedOut: res.TimedOut}
	switch {
	case res.Err == nil, res.TimedOut:
	case res.ExitCode > 0:
		out.exitErr = fmt.Errorf("exit status %d", res.ExitCode)
		if gm := (*docker.GoModuleError)(nil); errors.As(res.Err, &gm) {
			// Say why, since nothing in the tests' output tells that
			// the container has no module proxy.
			out.exitErr = fmt.Errorf("exit status %d: %w", res.ExitCode, gm)
		}
	default:
		out.failed = res.Err
	}
	return out
}

// shells are the POSIX shells whose test scripts get curl in a container.
var shells = map[string]bool{"sh": true, "bash": true, "dash": true, "ash": true, "ksh": true, "zsh": true}

// parseTests fills tr's counts from a test command's output.
func parseTests(tr *eval.TestsResult, stdout, stderr []byte, exitOK bool) {
	for _, p := range []struct {
		format string
		parse  func(out []byte) (passed int, failed []string, ok bool)
	}{
		{"go-test-json", parseGoTestJSON},
		{"junit", parseJUnit},
		{"tap", parseTAP},
		{"unittest", parseUnittest},
	} {
		out := stdout
		if p.format == "unittest" {
			out = append(append([]byte(nil), stdout...), stderr...)
		}
		if passed, failed, ok := p.parse(out); ok {
			tr.Format, tr.Passed, tr.Failed, tr.Total = p.format, passed, failed, passed+len(failed)
			return
		}
	}
	tr.Format, tr.Total = "exit-status", 1
	if exitOK {
		tr.Passed = 1
	} else {
		tr.Failed = []string{"exit status"}
	}
}

// parseGoTestJSON reads `go test -json` events: each test's last pass or
// fail; a package that fails with no test failing (a build error) counts
// as one failed test. Skipped tests are left out.
func parseGoTestJSON(out []byte) (int, []string, bool) {
	type event struct {
		Action, Package, Test string
	}
	final := map[string]string{}
	pkgFail := map[string]bool{}
	seen := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var ev event
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Action == "" {
			continue
		}
		seen = true
		switch {
		case ev.Test != "" && (ev.Action == "pass" || ev.Action == "fail" || ev.Action == "skip"):
			final[ev.Package+" "+ev.Test] = ev.Action
		case ev.Test == "" && ev.Action == "fail":
			pkgFail[ev.Package] = true
		}
	}
	if !seen {
		return 0, nil, false
	}
	passed := 0
	var failed []string
	failedIn := map[string]bool{}
	for name, a := range final {
		switch a {
		case "pass":
			passed++
		case "fail":
			failed = append(failed, name)
			failedIn[strings.Fields(name)[0]] = true
		}
	}
	for pkg := range pkgFail {
		if !failedIn[pkg] {
			failed = append(failed, pkg+" (package)")
		}
	}
	sort.Strings(failed)
	return passed, failed, true
}

// parseJUnit reads a JUnit XML report (<testsuites> or <testsuite>).
func parseJUnit(out []byte) (int, []string, bool) {
	i := bytes.Index(out, []byte("<testsuite"))
	if i < 0 {
		return 0, nil, false
	}
	type testcase struct {
		Name    string    `xml:"name,attr"`
		Class   string    `xml:"classname,attr"`
		Failure *struct{} `xml:"failure"`
		Error   *struct{} `xml:"error"`
		Skipped *struct{} `xml:"skipped"`
	}
	type suite struct {
		Cases  []testcase `xml:"testcase"`
		Suites []suite    `xml:"testsuite"`
	}
	var root suite
	data := out[i:]
	if bytes.HasPrefix(data, []byte("<testsuites")) {
		if xml.Unmarshal(data, &root) != nil {
			return 0, nil, false
		}
	} else {
		var s suite
		if xml.Unmarshal(data, &s) != nil {
			return 0, nil, false
		}
		root.Suites = []suite{s}
	}
	passed := 0
	var failed []string
	var walk func(s suite)
	walk = func(s suite) {
		for _, tc := range s.Cases {
			switch {
			case tc.Skipped != nil:
			case tc.Failure != nil || tc.Error != nil:
				failed = append(failed, strings.TrimPrefix(tc.Class+"."+tc.Name, "."))
			default:
				passed++
			}
		}
		for _, sub := range s.Suites {
			walk(sub)
		}
	}
	walk(root)
	if passed+len(failed) == 0 {
		return 0, nil, false
	}
	return passed, failed, true
}

var (
	tapLineRE  = regexp.MustCompile(`^(not )?ok\s+(\d+)\b\s*-?\s*([^#]*)(#\s*(\w+))?`)
	tapPlanRE  = regexp.MustCompile(`^1\.\.(\d+)`)
	unitRanRE  = regexp.MustCompile(`(?m)^Ran (\d+) tests? in `)
	unitFailRE = regexp.MustCompile(`(?m)^FAILED \(([^)]*)\)`)
	unitSkipRE = regexp.MustCompile(`skipped=(\d+)`)
	unitNameRE = regexp.MustCompile(`(?m)^(?:FAIL|ERROR): (\S+) \(([^)]+)\)`)
)

// parseTAP reads Test Anything Protocol output; tests the plan promises
// but never reports count as failed.
func parseTAP(out []byte) (int, []string, bool) {
	passed, plan, lines := 0, -1, 0
	var failed []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if m := tapPlanRE.FindStringSubmatch(line); m != nil {
			plan, _ = strconv.Atoi(m[1])
			continue
		}
		m := tapLineRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		lines++
		directive := strings.ToUpper(m[5])
		name := strings.TrimSpace(m[3])
		if name == "" {
			name = "test " + m[2]
		}
		switch {
		case directive == "SKIP":
		case m[1] == "" || directive == "TODO":
			passed++
		default:
			failed = append(failed, name)
		}
	}
	if lines == 0 {
		return 0, nil, false
	}
	for i := lines; i < plan; i++ {
		failed = append(failed, fmt.Sprintf("test %d (not reported)", i+1))
	}
	return passed, failed, true
}

// parseUnittest reads Python unittest's summary ("Ran N tests", "OK" or
// "FAILED (failures=F, errors=E, skipped=S)") and the names of the failed
// tests.
func parseUnittest(out []byte) (int, []string, bool) {
	m := unitRanRE.FindSubmatch(out)
	if m == nil {
		return 0, nil, false
	}
	ran, _ := strconv.Atoi(string(m[1]))
	skipped := 0
	if s := unitSkipRE.FindSubmatch(out); s != nil {
		skipped, _ = strconv.Atoi(string(s[1]))
	}
	var failed []string
	for _, n := range unitNameRE.FindAllSubmatch(out, -1) {
		// "FAIL: test_x (module.Class.test_x)" since Python 3.11, "(module.Class)" before.
		name := string(n[2])
		if !strings.HasSuffix(name, "."+string(n[1])) {
			name += "." + string(n[1])
		}
		failed = append(failed, name)
	}
	if len(failed) == 0 && unitFailRE.Match(out) {
		// A failure without a name: count the summary's numbers.
		f := unitFailRE.FindSubmatch(out)
		for _, kv := range strings.Split(string(f[1]), ",") {
			k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
			if n, err := strconv.Atoi(v); err == nil && (k == "failures" || k == "errors") {
				for i := 0; i < n; i++ {
					failed = append(failed, k)
				}
			}
		}
	}
	passed := ran - skipped - len(failed)
	if passed < 0 {
		passed = 0
	}
	return passed, failed, true
}

func tail(b []byte, n int) string {
	s := strings.TrimSpace(string(b))
	if s == "" {
		return ""
	}
	if len(s) > n {
		s = "…" + s[len(s)-n:]
	}
	return ": " + s
}
