package eval

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/agentnet/agentnet/tasks"
)

//go:embed report.html.tmpl
var reportTemplate string

// reportTmpl is parsed on first use: every agentnet process (each hosted
// agent among them) would otherwise parse it while starting and keep it.
var reportTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"pct":        pct,
		"rate":       ratePct,
		"opt":        optNum,
		"tiers":      tierRows,
		"routing":    routingRows,
		"bars":       tierBars,
		"prbars":     prBars,
		"provenance": provenanceLines,
		"isChain": func(t TaskResult) bool {
			return t.Type == tasks.Chain
		},
		"isCommission": func(t TaskResult) bool { return t.Type == tasks.Commission && t.Commission != nil },
		"isSingle":     func(t TaskResult) bool { return t.Type == tasks.Single },
		"deref":        func(b *bool) bool { return b != nil && *b },
		"ci":           ciText,
		"rateOf":       func(n int, sr float64) Rate { return Rate{N: n, SR: sr} },
		"join":         strings.Join,
		"base":         path.Base,
		"short":        func(s string) string { return oneLineClip(s, 160) },
		"hasNotes": func(recs []AttemptRecord) bool {
			for _, r := range recs {
				if len(r.Notes) > 0 {
					return true
				}
			}
			return false
		},
	}).Parse(reportTemplate))
})

// WriteHTML writes a self-contained HTML report of r (inline CSS, SVG
// charts and script, no external assets) from the results alone: the trace
// viewer shows what results.json holds, without inputs or A2A messages.
func WriteHTML(w io.Writer, r *Results) error { return NewView(r, "").WriteHTML(w) }

// WriteRunHTML is WriteHTML with the run directory dir at hand: the trace
// viewer also shows each step's input and output, the A2A messages of each
// task's trace and each repo's generation attempts.
func WriteRunHTML(w io.Writer, r *Results, dir string) error { return NewView(r, dir).WriteHTML(w) }

// WriteHTML writes the report of v.
func (v *View) WriteHTML(w io.Writer) error {
	if err := reportTmpl().Execute(w, v); err != nil {
		return fmt.Errorf("render report: %w", err)
	}
	return nil
}

// Link is the href of a run-relative path: relative to where the report
// is read from (LinkBase, the run directory seen from the report's).
func (v *View) Link(runRel string) string {
	if v.LinkBase == "" || v.LinkBase == "." {
		return runRel
	}
	return path.Join(filepath.ToSlash(v.LinkBase), runRel)
}

// Pass1CI is the 95 % interval of the pooled Pass@1.
func (v *View) Pass1CI() string { return countCI(attemptCount(v.Results)) }

// PrecisionCI is the pooled skill precision with its 95 % interval.
func (v *View) PrecisionCI() string { p, _ := skillCounts(v.Results); return p.String() }

// RecallCI is the pooled skill recall with its 95 % interval.
func (v *View) RecallCI() string { _, r := skillCounts(v.Results); return r.String() }

// oneLineClip keeps s to one line of at most n runes.
func oneLineClip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// bar is one bar of an SVG bar chart.
type bar struct {
	Label  string
	Series string
	Value  float64 // 0–100
	X, Y   float64
	W, H   float64
	Class  string
	N      int
}

// tierBars lays out grouped bars (one group per tier, one bar per series)
// for an SVG chart 560×200 with 20 px margins.
func tierBars(series ...any) []bar {
	var out []bar
	tiers := []string{"easy", "medium", "hard", "overall"}
	nSeries := len(series) / 2
	groupW := 520.0 / float64(len(tiers))
	barW := (groupW - 20) / float64(max(nSeries, 1))
	for s := 0; s+1 < len(series); s += 2 {
		name, _ := series[s].(string)
		tr, _ := series[s+1].(TierRates)
		for i, row := range tierRows(tr) {
			h := 160 * row.Rate.SR / 100
			out = append(out, bar{
				Label: tiers[i], Series: name, Value: row.Rate.SR, N: row.Rate.N,
				X: 20 + float64(i)*groupW + 10 + float64(s/2)*barW, Y: 180 - h, W: barW - 2, H: h,
				Class: fmt.Sprintf("s%d", s/2),
			})
		}
	}
	return out
}

// prBars lays out per-repo precision and recall bars.
func prBars(repos []RepoResult) []bar {
	var out []bar
	if len(repos) == 0 {
		return nil
	}
	groupW := 520.0 / float64(len(repos))
	barW := (groupW - 8) / 2
	for i, r := range repos {
		for j, v := range []float64{r.Precision, r.Recall} {
			h := 160 * v / 100
			out = append(out, bar{Label: r.ID, Value: v, X: 20 + float64(i)*groupW + 4 + float64(j)*barW, Y: 180 - h, W: barW - 1, H: h, Class: fmt.Sprintf("s%d", j)})
		}
	}
	return out
}
