package eval

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"text/tabwriter"
)

// Run is one finished run: its directory, results and, when config.json is
// there, the configuration that made it.
type Run struct {
	Dir     string
	Results *Results
	Config  *RunConfig // nil when the run directory has no config.json
}

// LoadRun reads a finished run directory.
func LoadRun(dir string) (*Run, error) {
	r, err := LoadResults(dir)
	if err != nil {
		return nil, err
	}
	run := &Run{Dir: dir, Results: r}
	var cfg RunConfig
	if err := readJSONFile(filepath.Join(dir, "config.json"), &cfg); err == nil {
		run.Config = &cfg
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return run, nil
}

// Label names the run by what made it: generator × router × judge (and the
// model when one was used), or its directory's name when that is unknown.
func (r *Run) Label() string {
	if r.Config == nil {
		return filepath.Base(r.Dir)
	}
	l := fmt.Sprintf("%s × %s × %s", r.Config.Generator, r.Config.Router, r.Config.Judge)
	if r.Config.Model != "" {
		l += " (" + r.Config.Model + ")"
	}
	return l
}

// Cell is one run's value of a compared metric: a rate with its counts and
// 95 % Wilson interval, or a plain number (Rate false).
type Cell struct {
	IsRate bool
	Count  Count
	Value  *float64 // a plain number; nil when unknown
	Format string   // of Value
}

// Text is the cell as the tables print it.
func (c Cell) Text() string {
	if c.IsRate {
		return c.Count.String()
	}
	if c.Value == nil {
		return "–"
	}
	return fmt.Sprintf(c.Format, *c.Value)
}

// number is the cell's value for differences; ok is false when unknown.
func (c Cell) number() (float64, bool) {
	if c.IsRate {
		return c.Count.Rate(), c.Count.N > 0
	}
	if c.Value == nil {
		return 0, false
	}
	return *c.Value, true
}

// Row is one metric across the compared runs.
type Row struct {
	Metric string
	Cells  []Cell // one per run, in the order of Comparison.Runs
}

// Diff is cell i minus the first run's cell, in percentage points for rates;
// "–" when either is unknown.
func (r Row) Diff(i int) string {
	a, okA := r.Cells[0].number()
	b, okB := r.Cells[i].number()
	if !okA || !okB {
		return "–"
	}
	if r.Cells[0].IsRate {
		return fmt.Sprintf("%+.1f pp", b-a)
	}
	return fmt.Sprintf("%+.2f", b-a)
}

// Table is one of the paper's tables with one column per run.
type Table struct {
	Title string
	Rows  []Row
}

// Comparison is several runs side by side: the paper's four tables, each
// rate with its 95 % Wilson interval, and each run's difference to the
// first.
type Comparison struct {
	Runs   []*Run
	Tables []Table
}

// Compare lays out runs side by side. Runs of different suites compare, but
// their rates are of different tasks; WriteComparison says so.
func Compare(runs ...*Run) *Comparison {
	c := &Comparison{Runs: runs}
	row := func(metric string, cell func(*Results) Cell) Row {
		r := Row{Metric: metric}
		for _, run := range runs {
			r.Cells = append(r.Cells, cell(run.Results))
		}
		return r
	}
	rate := func(f func(*Results) Rate) func(*Results) Cell {
		return func(r *Results) Cell { return Cell{IsRate: true, Count: CountOf(f(r))} }
	}
	tiers := func(f func(*Results) TierRates, prefix string) []Row {
		var rows []Row
		for i, name := range []string{"easy", "medium", "hard", "overall"} {
			rows = append(rows, row(prefix+name, rate(func(r *Results) Rate { return tierRows(f(r))[i].Rate })))
		}
		return rows
	}
	c.Tables = append(c.Tables,
		Table{"Table 1. Agent generation", []Row{
			row("Pass@1 (of attempts)", func(r *Results) Cell { return Cell{IsRate: true, Count: attemptCount(r)} }),
			row("Pass@k (of repos)", rate(func(r *Results) Rate {
				return Rate{N: r.Summary.Generation.Repos, SR: r.Summary.Generation.PassAtK}
			})),
			row("tries", func(r *Results) Cell { return Cell{Value: r.Summary.Generation.Tries, Format: "%.2f"} }),
			row("tokens/repo", func(r *Results) Cell { return Cell{Value: r.Summary.Generation.TokensPerRepo, Format: "%.0f"} }),
		}},
		Table{"Table 2. Single-repo execution success rate by tier", tiers(func(r *Results) TierRates { return r.Summary.Single }, "SR ")},
		Table{"Table 3. Skill extraction against the ground truth (all skills pooled)", []Row{
			row("precision", func(r *Results) Cell { p, _ := skillCounts(r); return Cell{IsRate: true, Count: p} }),
			row("recall", func(r *Results) Cell { _, rc := skillCounts(r); return Cell{IsRate: true, Count: rc} }),
		}},
		Table{"Table 4. Multi-repo chains: orchestration and execution success by tier", append(
			tiers(func(r *Results) TierRates { return r.Summary.Chains.OrchSR }, "Orch SR "),
			tiers(func(r *Results) TierRates { return r.Summary.Chains.ExecSR }, "Exec SR ")...)},
	)
	return c
}

// attemptCount is the attempts that passed the gate of all attempts: the
// pooled Pass@1.
func attemptCount(r *Results) Count {
	var c Count
	for _, repo := range r.Repos {
		for _, a := range repo.Attempts {
			c.N++
			if a.OK {
				c.K++
			}
		}
	}
	return c
}

// skillCounts pools the skill match of every repo: generated skills some
// ground-truth skill supports (precision), ground-truth skills some
// generated skill covers (recall).
func skillCounts(r *Results) (precision, recall Count) {
	for _, repo := range r.Repos {
		if repo.Match == nil {
			continue
		}
		for _, s := range repo.Match.Supported {
			precision.N++
			if s != "" {
				precision.K++
			}
		}
		for _, g := range repo.Match.Covered {
			recall.N++
			if g != "" {
				recall.K++
			}
		}
	}
	return precision, recall
}

// WriteComparison writes c as aligned text: the runs, then each table with
// one column per run and one per difference to the first run.
func WriteComparison(w io.Writer, c *Comparison) error {
	fmt.Fprintln(w, "Runs (rates with their 95 % Wilson score interval; differences against run 1)")
	suites := map[string]bool{}
	for i, run := range c.Runs {
		fmt.Fprintf(w, "  %d  %s  suite %s  %s\n", i+1, run.Label(), run.Results.Suite, run.Dir)
		suites[run.Results.Suite] = true
	}
	if len(suites) > 1 {
		fmt.Fprintln(w, "  note: the runs are of different suites, so their rates are of different tasks")
	}
	for _, t := range c.Tables {
		fmt.Fprintf(w, "\n%s\n", t.Title)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		head := []string{"metric"}
		for i := range c.Runs {
			head = append(head, fmt.Sprintf("run %d", i+1))
		}
		for i := 1; i < len(c.Runs); i++ {
			head = append(head, fmt.Sprintf("Δ %d−1", i+1))
		}
		fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
		for _, r := range t.Rows {
			cells := []string{r.Metric}
			for _, cell := range r.Cells {
				cells = append(cells, cell.Text())
			}
			for i := 1; i < len(r.Cells); i++ {
				cells = append(cells, r.Diff(i))
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

//go:embed compare.html.tmpl
var compareTemplate string

var compareTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("compare").Funcs(template.FuncMap{
		"inc": func(i int) int { return i + 1 },
		"cell": func(c Cell) template.HTML {
			if !c.IsRate || c.Count.N == 0 {
				return template.HTML(template.HTMLEscapeString(c.Text()))
			}
			ci, _ := c.Count.CI()
			return template.HTML(fmt.Sprintf(`%.1f%% <span class="ci">[%.1f–%.1f] %d/%d</span>`, c.Count.Rate(), ci.Lo, ci.Hi, c.Count.K, c.Count.N))
		},
		"diffClass": func(d string) string {
			switch {
			case strings.HasPrefix(d, "+") && strings.Trim(d, "+0. p") != "":
				return "up"
			case strings.HasPrefix(d, "-"):
				return "down"
			}
			return ""
		},
	}).Parse(compareTemplate))
})

// WriteComparisonHTML writes c as a self-contained HTML page.
func WriteComparisonHTML(w io.Writer, c *Comparison) error {
	if err := compareTmpl().Execute(w, c); err != nil {
		return fmt.Errorf("render comparison: %w", err)
	}
	return nil
}

// MarshalJSON writes the comparison as {"runs": [...], "tables": [...]}:
// each run's label, suite, directory and configuration; each rate cell its
// k, n, rate and interval; each plain cell its value.
func (c *Comparison) MarshalJSON() ([]byte, error) {
	type jsonRun struct {
		Label  string     `json:"label"`
		Suite  string     `json:"suite"`
		Dir    string     `json:"dir"`
		Config *RunConfig `json:"config,omitempty"`
	}
	type jsonCell struct {
		K     *int      `json:"k,omitempty"`
		N     *int      `json:"n,omitempty"`
		Rate  *float64  `json:"rate,omitempty"`
		CI    *Interval `json:"ci95,omitempty"`
		Value *float64  `json:"value,omitempty"`
	}
	type jsonRow struct {
		Metric string     `json:"metric"`
		Cells  []jsonCell `json:"cells"`
		Diffs  []string   `json:"diffs"` // run i+2 minus run 1
	}
	type jsonTable struct {
		Title string    `json:"title"`
		Rows  []jsonRow `json:"rows"`
	}
	out := struct {
		Runs   []jsonRun   `json:"runs"`
		Tables []jsonTable `json:"tables"`
	}{}
	for _, r := range c.Runs {
		out.Runs = append(out.Runs, jsonRun{Label: r.Label(), Suite: r.Results.Suite, Dir: r.Dir, Config: r.Config})
	}
	for _, t := range c.Tables {
		jt := jsonTable{Title: t.Title}
		for _, row := range t.Rows {
			jr := jsonRow{Metric: row.Metric, Diffs: []string{}}
			for i, cell := range row.Cells {
				var jc jsonCell
				if cell.IsRate {
					k, n, rate := cell.Count.K, cell.Count.N, cell.Count.Rate()
					jc.K, jc.N = &k, &n
					if ci, ok := cell.Count.CI(); ok {
						jc.Rate, jc.CI = &rate, &ci
					}
				} else {
					jc.Value = cell.Value
				}
				jr.Cells = append(jr.Cells, jc)
				if i > 0 {
					jr.Diffs = append(jr.Diffs, row.Diff(i))
				}
			}
			jt.Rows = append(jt.Rows, jr)
		}
		out.Tables = append(out.Tables, jt)
	}
	return json.Marshal(out)
}
