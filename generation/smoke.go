package generation

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"

	"github.com/agentnet/agentnet/bundle"
)

// Dropped is a skill the gate left out of the bundle, and why.
type Dropped struct {
	Skill  string `json:"skill"`
	Reason string `json:"reason"`
}

// SmokeBudget bounds one smoke call of a skill at the gate (less when the
// skill's own timeout is shorter). A call still running then is dropped:
// a skill that does not answer a small input in this time will not answer
// a caller's.
var SmokeBudget = 3 * time.Minute

// smokeOutcome is the end of one smoke call.
type smokeOutcome struct {
	skill string
	ok    bool   // the task completed
	why   string // why the skill cannot run, "" when it can
	note  string // what the failure said, for the log
	from  string
}

// smokeSkills calls every skill of b once through the A2A endpoint whose
// card is card, with the arguments smokeCallFor builds, a few at a time,
// and returns the outcomes in the skills' order.
func smokeSkills(ctx context.Context, b *bundle.Bundle, card []byte, log io.Writer) ([]smokeOutcome, error) {
	var ac a2a.AgentCard
	if err := json.Unmarshal(card, &ac); err != nil {
		return nil, fmt.Errorf("read the served card: %w", err)
	}
	hc := &http.Client{}
	client, err := a2aclient.NewFromCard(ctx, &ac, a2aclient.WithDefaultsDisabled(), a2aclient.WithJSONRPCTransport(hc))
	if err != nil {
		return nil, fmt.Errorf("no usable interface on the served card: %w", err)
	}
	defer client.Destroy()
	outs := make([]smokeOutcome, len(b.Skills))
	sem := make(chan struct{}, max(1, min(4, runtime.NumCPU())))
	var wg sync.WaitGroup
	for i := range b.Skills {
		sk := &b.Skills[i]
		if len(sk.Run) == 0 {
			outs[i] = smokeOutcome{skill: sk.ID, ok: true}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			outs[i] = smokeOne(ctx, client, sk, b.RepoDir())
		}()
	}
	wg.Wait()
	for _, o := range outs {
		switch {
		case o.ok:
			fmt.Fprintf(log, "# gate called %s (%s): it answered\n", o.skill, o.from)
		case o.why != "":
			fmt.Fprintf(log, "# gate called %s (%s): it cannot run, %s:\n%s\n", o.skill, o.from, o.why, indent(o.note))
		default:
			fmt.Fprintf(log, "# gate called %s (%s): it ran and refused the sample input:\n%s\n", o.skill, o.from, indent(o.note))
		}
	}
	return outs, nil
}

// smokeOne sends one message naming the skill, with its arguments as a
// data part and its files as file parts, and waits for the task to end.
func smokeOne(ctx context.Context, client *a2aclient.Client, sk *bundle.Skill, repo string) smokeOutcome {
	c := smokeCallFor(sk, repo)
	out := smokeOutcome{skill: sk.ID, from: c.from}
	var parts []*a2a.Part
	if len(c.args) > 0 {
		parts = append(parts, a2a.NewDataPart(c.args))
	}
	for _, f := range c.files {
		parts = append(parts, &a2a.Part{Content: a2a.Raw(f.data), Filename: f.name, MediaType: f.mediaType})
	}
	if len(parts) == 0 {
		parts = append(parts, a2a.NewDataPart(map[string]any{}))
	}
	msg := a2a.NewMessage(a2a.MessageRoleUser, parts...)
	msg.Metadata = map[string]any{"skill": sk.ID}
	budget := min(SmokeBudget, sk.RunTimeout()+30*time.Second)
	cctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	res, err := client.SendMessage(cctx, &a2a.SendMessageRequest{Message: msg})
	switch {
	case err != nil && cctx.Err() != nil && ctx.Err() == nil:
		out.why = fmt.Sprintf("it did not answer a small input within %s", budget)
		out.note = err.Error()
		return out
	case err != nil:
		// The gate's own call broke (not the skill): say so, keep it.
		out.note = "the call failed: " + err.Error()
		return out
	}
	task, ok := res.(*a2a.Task)
	if !ok {
		out.ok = true // a direct message is an answer
		return out
	}
	if task.Status.State == a2a.TaskStateCompleted {
		out.ok = true
		return out
	}
	out.note = statusText(task.Status.Message)
	if out.note == "" {
		out.note = "the task ended in state " + string(task.Status.State)
	}
	out.why = whyCannotRun(out.note)
	return out
}

func statusText(m *a2a.Message) string {
	if m == nil {
		return ""
	}
	var b strings.Builder
	for _, p := range m.Parts {
		if p != nil {
			b.WriteString(p.Text())
		}
	}
	return strings.TrimSpace(b.String())
}

func indent(s string) string {
	if len(s) > 2000 {
		s = s[:2000] + "…"
	}
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}
