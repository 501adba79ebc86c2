package eval

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/agentnet/agentnet/tasks"
)

// WriteTables writes the paper-style tables of r (generation; single-repo
// SR by tier; skill precision and recall; orchestration and execution SR of
// chains; commissions) as aligned plain text.
func WriteTables(w io.Writer, r *Results) error {
	s := r.Summary
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	line := func(cells ...string) { fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t") }

	fmt.Fprintf(w, "Suite %s\n", r.Suite)
	for _, l := range provenanceLines(r) {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Table 1. Agent generation")
	line("repos", "attempts", "Pass@1", "95% CI", fmt.Sprintf("Pass@k (k=%d)", s.Generation.K), "95% CI", "tries", "tokens/repo")
	line(fmt.Sprint(s.Generation.Repos), fmt.Sprint(s.Generation.Attempts), pct(s.Generation.PassAt1), countCI(attemptCount(r)),
		pct(s.Generation.PassAtK), ciText(Rate{N: s.Generation.Repos, SR: s.Generation.PassAtK}),
		optNum(s.Generation.Tries, "%.2f"), optNum(s.Generation.TokensPerRepo, "%.0f"))
	tw.Flush()

	fmt.Fprintln(w, "\nTable 2. Single-repo execution success rate by tier")
	line("tier", "n", "SR", "95% CI")
	for _, tr := range tierRows(s.Single) {
		line(tr.Name, fmt.Sprint(tr.Rate.N), ratePct(tr.Rate), ciText(tr.Rate))
	}
	tw.Flush()

	fmt.Fprintln(w, "\nTable 3. Skill extraction against the ground truth")
	line("repo", "skills", "precision", "recall")
	for _, repo := range r.Repos {
		line(repo.ID, fmt.Sprint(len(repo.Skills)), pct(repo.Precision), pct(repo.Recall))
	}
	line("average", "", pct(s.Skills.AvgPrecision), pct(s.Skills.AvgRecall))
	if p, rc := skillCounts(r); p.N > 0 {
		line("all skills pooled, 95% CI", fmt.Sprint(p.N), p.String(), rc.String())
	}
	tw.Flush()

	fmt.Fprintln(w, "\nTable 4. Multi-repo chains: orchestration and execution success by tier")
	line("tier", "n", "Orch SR", "95% CI", "Exec SR", "95% CI")
	exec := tierRows(s.Chains.ExecSR)
	for i, tr := range tierRows(s.Chains.OrchSR) {
		line(tr.Name, fmt.Sprint(tr.Rate.N), ratePct(tr.Rate), ciText(tr.Rate), ratePct(exec[i].Rate), ciText(exec[i].Rate))
	}
	tw.Flush()
	writeRouting(w, s.Chains.Routing)

	if s.Commission.N > 0 {
		fmt.Fprintln(w, "\nCommission tasks (held-out result vs development result)")
		line("task", "stage", "status", "result", "dev", "gap", "gap closure", "gated", "tests", "reward", "delivery")
		var validated []TaskResult
		for _, t := range r.Tasks {
			if t.Type != tasks.Commission || t.Commission == nil {
				continue
			}
			c := t.Commission
			gated := 0
			for _, cr := range c.Cases {
				if cr.Status == StatusGated {
					gated++
				}
			}
			testsCell := "–"
			if c.Tests != nil {
				testsCell = fmt.Sprintf("%d/%d %s", c.Tests.Passed, c.Tests.Total, c.Tests.Outcome)
			}
			delivery := "–"
			if c.DeliverySHA != "" {
				delivery = "sha256:" + c.DeliverySHA[:12]
			}
			line(t.ID, string(c.Stage), t.Status, optNum(c.Result, "%.1f"), optNum(c.DevResult, "%.1f"), optNum(c.Gap, "%+.1f"),
				optNum(c.GapClosure, "%.1f"), fmt.Sprint(gated), testsCell, optNum(c.Reward, "%.0f"), delivery)
			if c.Validation != nil {
				validated = append(validated, t)
			}
		}
		line("mean", "", "", optNum(s.Commission.Result, "%.1f"), optNum(s.Commission.DevResult, "%.1f"), "", optNum(s.Commission.GapClosure, "%.1f"), fmt.Sprint(s.Commission.GateFailures), "", "", "")
		tw.Flush()
		if len(validated) > 0 {
			fmt.Fprintln(w, "\nTask validation: each commission's reference and controls (no builder ran; not a builder's score)")
			vw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			fmt.Fprintln(vw, "task\trole\tdelivery\tdev\theld-out\ttests\tverdict\t")
			for _, t := range validated {
				for _, d := range t.Commission.Validation.Deliveries {
					testsCell := "–"
					if d.Tests != nil {
						testsCell = fmt.Sprintf("%d/%d %s", d.Tests.Passed, d.Tests.Total, d.Tests.Outcome)
					}
					verdict := "ok"
					if !d.OK {
						verdict = "WRONG: " + d.Reason
					}
					fmt.Fprintf(vw, "%s\t%s\t%s\t%d/%d\t%d/%d\t%s\t%s\t\n", t.ID, d.Role, d.Path, d.DevPassed, d.DevTotal, d.HeldPassed, d.HeldTotal, testsCell, verdict)
				}
			}
			vw.Flush()
		}
	}
	infra := 0
	for _, t := range r.Tasks {
		if t.Status == StatusInfraError {
			infra++
		}
	}
	if infra > 0 {
		fmt.Fprintf(w, "\n%d task(s) ended in an infrastructure error and are excluded from the rates.\n", infra)
	}
	return nil
}

type tierRow struct {
	Name string
	Rate Rate
}

func tierRows(t TierRates) []tierRow {
	return []tierRow{{"easy", t.Easy}, {"medium", t.Medium}, {"hard", t.Hard}, {"overall", t.Overall}}
}

// countCI is the interval of c as "[lo–hi]", or "–".
func countCI(c Count) string {
	ci, ok := c.CI()
	if !ok {
		return "–"
	}
	return fmt.Sprintf("[%.1f–%.1f]", ci.Lo, ci.Hi)
}

func pct(v float64) string { return fmt.Sprintf("%.1f%%", v) }

func ratePct(r Rate) string {
	if r.N == 0 {
		return "–"
	}
	return pct(r.SR)
}

func optNum(p *float64, format string) string {
	if p == nil {
		return "–"
	}
	return fmt.Sprintf(format, *p)
}

// writeRouting writes Table 5, routing per chain step, when a step was
// routed.
func writeRouting(w io.Writer, rt *RoutingSummary) {
	if rt == nil {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "\nTable 5. Routing per chain step: accuracy and Recall@k of the expected agent by tier")
	fmt.Fprintln(tw, "tier\tsteps\taccuracy\tranked\tRecall@1\tRecall@3\t")
	for _, r := range routingRows(rt) {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%s\t%s\t\n", r.Name, r.Accuracy.N, ratePct(r.Accuracy), r.At1.N, ratePct(r.At1), ratePct(r.At3))
	}
	tw.Flush()
}

// routingRow is one tier's routing figures.
type routingRow struct {
	Name               string
	Accuracy, At1, At3 Rate
}

func routingRows(rt *RoutingSummary) []routingRow {
	at1, at3 := tierRows(rt.RecallAt1), tierRows(rt.RecallAt3)
	var out []routingRow
	for i, r := range tierRows(rt.Accuracy) {
		out = append(out, routingRow{Name: r.Name, Accuracy: r.Rate, At1: at1[i].Rate, At3: at3[i].Rate})
	}
	return out
}
