package process

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/internal/proc"
)

func init() { deploy.Register("process", newProcess) }

// process runs each agent as "agentnet serve" in a child process on a free
// loopback port. An attached agent runs in a proc.Group of its own, so Down
// (or this process's death) ends it and every process it started; a
// detached one relies on serve's own containment of its skills.
type process struct {
	cfg deploy.Config

	mu     sync.Mutex
	groups map[int]*proc.Group // attached agents this value started, by pid
}

var _ deploy.Runtime = (*process)(nil)

func newProcess(cfg deploy.Config) (deploy.Runtime, error) {
	if cfg.Self == "" {
		return nil, errors.New("process runtime: no agentnet executable to run agents with")
	}
	return &process{cfg: cfg, groups: map[int]*proc.Group{}}, nil
}

func (p *process) Name() string { return "process" }

// Up starts "agentnet serve BUNDLE --addr 127.0.0.1:PORT" and waits for its
// card.
func (p *process) Up(ctx context.Context, spec deploy.Spec) (*deploy.Agent, error) {
	bundleDir, err := filepath.Abs(spec.Bundle)
	if err != nil {
		return nil, fmt.Errorf("up %s: %w", spec.Name, err)
	}
	var lastErr error
	// The free port may be taken between the probe and the bind; try again.
	for attempt := 0; attempt < 3; attempt++ {
		a, err := p.start(ctx, spec, bundleDir)
		if err == nil {
			return a, nil
		}
		lastErr = err
		if ctx.Err() != nil {
			break
		}
	}
	return nil, lastErr
}

func (p *process) start(ctx context.Context, spec deploy.Spec, bundleDir string) (*deploy.Agent, error) {
	port, err := freePort()
	if err != nil {
		return nil, fmt.Errorf("up %s: %w", spec.Name, err)
	}
	url := fmt.Sprintf("http://127.0.0.1:%d/", port)
	args := []string{"serve", bundleDir, "--addr", fmt.Sprintf("127.0.0.1:%d", port), "--verbose"}
	if spec.Setup {
		args = append(args, "--setup")
	}
	var logf *os.File
	logPath := ""
	if p.cfg.LogDir != "" {
		if err := os.MkdirAll(p.cfg.LogDir, 0o755); err != nil {
			return nil, fmt.Errorf("up %s: log directory: %w", spec.Name, err)
		}
		logPath = filepath.Join(p.cfg.LogDir, spec.Name+".log")
		logf, err = os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, fmt.Errorf("up %s: log: %w", spec.Name, err)
		}
		defer logf.Close()
	}
	cmd := exec.Command(p.cfg.Self, args...)
	cmd.Env = p.cfg.Env
	if p.cfg.SignKey != nil {
		b, err := bundle.Load(bundleDir)
		if err != nil {
			return nil, fmt.Errorf("up %s: %w", spec.Name, err)
		}
		sigVar, err := p.cfg.CardSignaturesVar(b, url)
		if err != nil {
			return nil, fmt.Errorf("up %s: %w", spec.Name, err)
		}
		cmd.Env = append(slices.Clone(p.cfg.Env), sigVar)
	}
	cmd.Dir = bundleDir
	if logf != nil {
		cmd.Stdout, cmd.Stderr = logf, logf
	}
	var group *proc.Group
	if p.cfg.Detach {
		cmd.SysProcAttr = sysProcAttr(true)
		err = cmd.Start()
	} else {
		group = proc.NewGroup()
		err = group.Start(cmd)
	}
	if err != nil {
		if group != nil {
			_ = group.Kill()
		}
		return nil, fmt.Errorf("up %s: start host: %w", spec.Name, err)
	}
	pid := cmd.Process.Pid
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	kill := func() {
		_ = proc.KillGroup(pid)
		if group != nil {
			_ = group.Kill()
		}
	}
	a := &deploy.Agent{Name: spec.Name, URL: url, Runtime: p.Name(), Bundle: bundleDir, ID: strconv.Itoa(pid), Log: logPath, Started: time.Now().UTC()}

	deadline := time.NewTimer(p.cfg.ReadyTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-exited:
			return nil, fmt.Errorf("up %s: the host exited before its card answered (%v)%s", spec.Name, err, logTail(logPath))
		case <-ctx.Done():
			kill()
			<-exited
			return nil, ctx.Err()
		case <-deadline.C:
			kill()
			<-exited
			return nil, fmt.Errorf("up %s: no card at %s within %s%s", spec.Name, url, p.cfg.ReadyTimeout, logTail(logPath))
		case <-tick.C:
			if deploy.CardAnswers(ctx, url) == nil {
				if group != nil {
					p.mu.Lock()
					p.groups[pid] = group
					p.mu.Unlock()
				}
				return a, nil
			}
		}
	}
}

// Down kills the agent's process group: SIGTERM, then SIGKILL after a grace
// period. An agent this value started attached goes with its whole
// proc.Group, whatever its skills daemonised.
func (p *process) Down(ctx context.Context, a *deploy.Agent) error {
	pid, err := strconv.Atoi(a.ID)
	if err != nil || pid <= 0 {
		return fmt.Errorf("down %s: bad process id %q", a.Name, a.ID)
	}
	p.mu.Lock()
	group := p.groups[pid]
	delete(p.groups, pid)
	p.mu.Unlock()
	if group != nil {
		defer group.Kill()
	}
	if err := syscall.Kill(-pid, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("down %s: %w", a.Name, err)
	}
	grace := time.NewTimer(3 * time.Second)
	defer grace.Stop()
	for {
		if !alive(pid) {
			_ = syscall.Kill(-pid, syscall.SIGKILL) // stragglers of the group
			return nil
		}
		select {
		case <-grace.C:
			_ = proc.KillGroup(pid)
			return nil
		case <-ctx.Done():
			_ = proc.KillGroup(pid)
			return ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
	}
}

// Health reports whether the agent's card answers.
func (p *process) Health(ctx context.Context, a *deploy.Agent) deploy.Health {
	if err := deploy.CardAnswers(ctx, a.URL); err != nil {
		detail := err.Error()
		if pid, _ := strconv.Atoi(a.ID); !alive(pid) {
			detail = "process gone"
		}
		return deploy.Health{Detail: detail}
	}
	return deploy.Health{Up: true}
}

// alive reports whether pid runs (a zombie does not count).
func alive(pid int) bool {
	if pid <= 0 || syscall.Kill(pid, 0) != nil {
		return false
	}
	st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err == nil {
		s := string(st)
		if i := strings.LastIndex(s, ") "); i >= 0 && i+2 < len(s) && s[i+2] == 'Z' {
			return false
		}
	}
	return true
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func logTail(path string) string {
	if path == "" {
		return ""
	}
	data, err := os.ReadFile(path)
	if err != nil || len(data) == 0 {
		return ""
	}
	if len(data) > 600 {
		data = data[len(data)-600:]
	}
	return "; log " + path + ":\n" + string(data)
}
