package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/deploy/docker"
	"github.com/agentnet/agentnet/deploy/swarm"
	"github.com/agentnet/agentnet/eval"
	"github.com/agentnet/agentnet/generation"
	"github.com/agentnet/agentnet/tasks"
)

// Default budget of a commission's builder.
const (
	defaultSubmissions = 3
	defaultBuildBudget = 30 * time.Minute
)

// The builder's workspace: what it reads and where it writes.
const (
	briefFile    = "TASK.md"
	feedbackFile = "FEEDBACK.md"
	devDir       = "dev"         // dev/cases.yaml and dev/inputs/: the development cases
	deliveryDir  = "delivery"    // the bundle the builder submits
	builderDir   = "builder"     // in the task's directory: workspace, submissions, logs
	workspaceDir = "workspace"   // in builderDir
	submitDir    = "submissions" // in builderDir: every accepted submission, as submitted
)

var _ generation.Sandbox = (*docker.Sandbox)(nil)

// openJobs returns the containers of the coding agents and hidden tests for
// the runtime: with docker, they are contained as the agents are; with
// swarm, as Swarm jobs with the same containment; with any other runtime
// they run as local processes (nil).
func openJobs(runtime string, env []string) (*docker.Jobs, error) {
	open := docker.NewJobs
	switch runtime {
	case "docker":
	case "swarm":
		open = swarm.NewJobs
	default:
		return nil, nil
	}
	jobs, err := open(deploy.Config{Env: env})
	if err != nil {
		return nil, fmt.Errorf("containers for coding agents and hidden tests: %w", err)
	}
	return jobs, nil
}

// sandbox is where the coding agents of the run work, as jobs named name:
// containers with the docker runtime, local processes (nil) otherwise.
func (r *run) sandbox(name string) generation.Sandbox {
	if r.jobs == nil {
		return nil
	}
	return r.jobs.Sandbox(name)
}

// build has the builder build the commission's delivery in a fresh
// workspace that holds the brief, the development cases with their input
// files and, for editing and optimization, the starter — never a held-out
// case or a hidden test. With the docker runtime, a command builder runs
// in a container that sees the workspace and nothing else of this machine
// (the builder's sandbox, set up by commission). Each submission is evaluated on the development
// cases and the evaluation is given back with the next one, within the
// budget (Options.Submissions, Options.BuildTimeout); the builder stops
// early once a submission passes every development case. The last accepted
// submission (one that deployed) is frozen into delivery. It returns "" or
// why there is no delivery; the submissions and their tokens are recorded
// in res.
func (r *run) build(ctx context.Context, c *tasks.Case, b generation.Builder, taskDir, delivery string, res *eval.TaskResult) (string, error) {
	cr := res.Commission
	root := filepath.Join(taskDir, builderDir)
	os.RemoveAll(root)
	ws := filepath.Join(root, workspaceDir)
	brief, err := prepareWorkspace(c, r.opts.Suite.Dir, ws)
	if err != nil {
		return "", fmt.Errorf("prepare the workspace of %s: %w", c.ID, err)
	}
	logf, err := os.Create(filepath.Join(root, "build.log"))
	if err != nil {
		return "", err
	}
	defer logf.Close()

	max := r.opts.Submissions
	if max <= 0 {
		max = defaultSubmissions
	}
	budget := r.opts.BuildTimeout
	if budget <= 0 {
		budget = defaultBuildBudget
	}
	deadline := time.Now().Add(budget)
	ev := r.evaluator()
	feedback, accepted, why := "", "", "no submission"
	for n := 1; n <= max && time.Now().Before(deadline); n++ {
		start := time.Now()
		sub := eval.Submission{N: n}
		dev := &eval.CommissionResult{}
		fmt.Fprintf(logf, "# submission %d\n", n)
		job := &generation.BuildJob{
			Workspace: ws, Delivery: filepath.Join(ws, deliveryDir), Brief: brief,
			Submission: n, Feedback: feedback, Env: r.opts.Env, Log: logf,
			Logger: r.opts.Logger.With("task", c.ID, "submission", n), Deadline: deadline,
		}
		var out *generation.Output
		berr := guard(func() error {
			var err error
			out, err = b.Build(ctx, job)
			return err
		})
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if out != nil {
			sub.TokensIn, sub.TokensOut = out.Tokens.In, out.Tokens.Out
			addTokens(res, out.Tokens)
		}
		snap := filepath.Join(root, submitDir, fmt.Sprint(n))
		switch {
		case !bundle.Exists(job.Delivery):
			sub.Reason = "no agent.yaml in the delivery"
			if berr != nil {
				sub.Reason = berr.Error()
			}
		default:
			if err := copyTree(job.Delivery, snap); err != nil {
				return "", fmt.Errorf("keep submission %d: %w", n, err)
			}
			sub.SHA256, _ = hashTree(snap)
			scores, gate, err := ev.evaluate(ctx, c, snap, "", evalSpec{splits: []string{splitDev}, work: filepath.Join(root, "eval", fmt.Sprint(n))}, dev)
			if err != nil {
				return "", err
			}
			sub.DevResult = scores[splitDev]
			if gate != "" {
				sub.Reason = gate
			} else {
				sub.Accepted, accepted = true, snap
				if berr != nil {
					sub.Reason = "the builder reported: " + berr.Error()
				}
			}
		}
		if sub.Accepted {
			feedback = devFeedback(n, dev, sub.DevResult)
		} else {
			why = "no accepted submission: " + sub.Reason
			feedback = fmt.Sprintf("Submission %d was not accepted: %s", n, sub.Reason)
		}
		sub.DurationMS = time.Since(start).Milliseconds()
		cr.Submissions = append(cr.Submissions, sub)
		os.WriteFile(filepath.Join(ws, feedbackFile), []byte(feedback+"\n"), 0o644)
		fmt.Fprintf(logf, "# submission %d: accepted %v, dev result %s\n", n, sub.Accepted, fmtScore(sub.DevResult))
		if sub.Accepted && sub.DevResult != nil && *sub.DevResult >= 100 {
			break
		}
	}
	if accepted == "" {
		return why, nil
	}
	// Freeze: the last accepted submission, copied out of the builder's reach.
	if err := copyTree(accepted, delivery); err != nil {
		return "", fmt.Errorf("freeze the delivery: %w", err)
	}
	return "", nil
}

// devFeedback is what the builder is told about a submission: its result
// on each development case and why.
func devFeedback(n int, dev *eval.CommissionResult, mean *float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Submission %d scored %s of 100 on the development cases.\n", n, fmtScore(mean))
	for _, cs := range dev.Cases {
		fmt.Fprintf(&b, "- %s: %s, score %.0f", cs.ID, cs.Status, cs.Score)
		if cs.Reason != "" {
			fmt.Fprintf(&b, ": %s", clip(cs.Reason, 600))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func fmtScore(p *float64) string {
	if p == nil {
		return "–"
	}
	return fmt.Sprintf("%.1f", *p)
}

func addTokens(res *eval.TaskResult, t generation.Tokens) {
	if t.In != nil {
		res.TokensIn += int(*t.In)
	}
	if t.Out != nil {
		res.TokensOut += int(*t.Out)
	}
}

// devCase is a development case as the builder's workspace shows it.
type devCase struct {
	ID          string         `yaml:"id" json:"id"`
	Instruction string         `yaml:"instruction" json:"instruction"`
	Text        string         `yaml:"text,omitempty" json:"text,omitempty"`
	Data        map[string]any `yaml:"data,omitempty" json:"data,omitempty"`
	Files       []string       `yaml:"files,omitempty" json:"files,omitempty"`
	Expect      []tasks.Check  `yaml:"-" json:"expect,omitempty"`
}

// prepareWorkspace writes the builder's workspace into ws and returns the
// brief. Only the requirement, the development cases and their input
// files, and the starter are copied in: the held-out cases and the hidden
// tests stay where they are.
func prepareWorkspace(c *tasks.Case, suiteDir, ws string) (string, error) {
	if err := os.MkdirAll(filepath.Join(ws, devDir, "inputs"), 0o755); err != nil {
		return "", err
	}
	var devs []devCase
	if c.Cases != nil {
		for _, ec := range c.Cases.Dev.Cases {
			d := devCase{ID: ec.ID, Instruction: ec.Instruction, Expect: ec.Expect}
			if ec.Input != nil {
				d.Text, d.Data = ec.Input.Text, ec.Input.Data
				for _, f := range ec.Input.Files {
					src := f
					if !filepath.IsAbs(src) {
						src = filepath.Join(suiteDir, f)
					}
					name := filepath.Base(f)
					if err := copyFile(src, filepath.Join(ws, devDir, "inputs", name)); err != nil {
						return "", fmt.Errorf("dev case %s: %w", ec.ID, err)
					}
					d.Files = append(d.Files, devDir+"/inputs/"+name)
				}
			}
			devs = append(devs, d)
		}
	}
	// The cases go to the builder as JSON (expectations included): the
	// checks are part of what the builder is shown.
	data, err := json.MarshalIndent(devs, "", "  ")
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(ws, devDir, "cases.json"), append(data, '\n'), 0o644); err != nil {
		return "", err
	}
	delivery := filepath.Join(ws, deliveryDir)
	if c.Workspace != "" && (c.Stage == tasks.Editing || c.Stage == tasks.Optimization) {
		if err := copyTree(filepath.Join(suiteDir, c.Workspace), delivery); err != nil {
			return "", fmt.Errorf("copy the starter: %w", err)
		}
	} else if err := os.MkdirAll(delivery, 0o755); err != nil {
		return "", err
	}
	brief := writeBrief(c, data)
	if err := os.WriteFile(filepath.Join(ws, briefFile), []byte(brief), 0o644); err != nil {
		return "", err
	}
	return brief, nil
}

// writeBrief is the task as the builder reads it.
func writeBrief(c *tasks.Case, devJSON []byte) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Commission %s (%s)\n\n", c.ID, c.Stage)
	b.WriteString("## Requirement\n\n" + strings.TrimSpace(c.Requirement) + "\n\n")
	switch c.Stage {
	case tasks.Editing:
		b.WriteString("The directory delivery/ holds the agent to change: edit it in place.\n\n")
	case tasks.Optimization:
		b.WriteString("The directory delivery/ holds a working agent: make it score better, without breaking it.\n\n")
	default:
		b.WriteString("Build the agent in the directory delivery/ (empty now).\n\n")
	}
	b.WriteString("## How it is judged\n\n")
	b.WriteString("The agent is an agent bundle: delivery/agent.yaml and the program files it runs (see the format below).\n")
	b.WriteString("When you finish, delivery/ is deployed as an A2A agent and run on the development cases below; their\n")
	b.WriteString("results come back to you (also in FEEDBACK.md) and you may submit again within your budget. The last\n")
	b.WriteString("submission that deploys is frozen and judged on further cases you do not see, like the development ones.\n")
	if c.Gates != nil {
		startup, perCase := gates(c)
		fmt.Fprintf(&b, "It must start within %s and answer each case within %s.\n", startup, perCase)
	}
	b.WriteString("\n## Development cases (dev/cases.json; input files in dev/inputs/)\n\n")
	b.WriteString("Each case sends the agent one message: the instruction as its first text part, the case's text as a\n")
	b.WriteString("second text part, its data as a data part and its files as file parts. Every check in expect must hold\n")
	b.WriteString("on the answer.\n\n```json\n")
	b.Write(devJSON)
	b.WriteString("\n```\n")
	if len(c.Rubric) > 0 {
		b.WriteString("\n## Rubric\n\n" + strings.TrimSpace(c.Rubric.Text()) + "\n")
	}
	b.WriteString("\n## The bundle format\n\nAs below, except that a bundle you build has no `repo` field: `setup`, `check` and `{{repo}}`\n")
	b.WriteString("refer to the bundle directory itself.\n\n")
	b.WriteString(generation.BundleFormat() + "\n")
	return b.String()
}

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}
