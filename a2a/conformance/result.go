package conformance

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Level is how binding a check is, in RFC 2119 words.
type Level string

// The levels, strongest first. A failed MUST check fails the audit.
const (
	Must   Level = "MUST"
	Should Level = "SHOULD"
	May    Level = "MAY"
)

var levels = []Level{Must, Should, May}

// Status is the outcome of one check.
type Status string

// The outcomes.
const (
	Pass Status = "pass"
	Fail Status = "fail"
	Skip Status = "skip" // not applicable, or an earlier step it needs failed
)

// Check describes one check of the catalog.
type Check struct {
	ID       string `json:"id"`
	Level    Level  `json:"level"`
	Category string `json:"category"` // discovery, schema, lint, jsonrpc, core, capabilities, fleet
	Title    string `json:"title"`    // what holds when the check passes
	// Ref is the A2A compatibility kit's requirement id, or the section of
	// the specification the check rests on.
	Ref string `json:"ref,omitempty"`
}

// Result is the outcome of one check against one endpoint (or the fleet).
type Result struct {
	Check
	// Version is the A2A protocol version of the interface probed ("1.0",
	// "0.3"); empty for checks of the card and of the fleet.
	Version string `json:"version,omitempty"`
	Status  Status `json:"status"`
	// Reason says in one line why the check failed or was skipped.
	Reason string `json:"reason,omitempty"`
}

// Endpoint is the audit of one URL.
type Endpoint struct {
	URL string `json:"url"`
	// Name is the agent's name from its card, when it has one.
	Name string `json:"name,omitempty"`
	// Versions lists the A2A versions of the JSON-RPC interfaces probed.
	Versions []string `json:"versions"`
	Results  []Result `json:"results"`
}

// Summary counts the results of a report.
type Summary struct {
	MustFailed   int `json:"must_failed"`
	ShouldFailed int `json:"should_failed"`
	MayFailed    int `json:"may_failed"`
	Passed       int `json:"passed"`
	Skipped      int `json:"skipped"`
}

// Report is the outcome of an audit.
type Report struct {
	Endpoints []Endpoint `json:"endpoints"`
	// Fleet holds the fleet checks; empty when fewer than two URLs were
	// audited.
	Fleet   []Result `json:"fleet"`
	Summary Summary  `json:"summary"`
}

// Failed reports whether a MUST check failed.
func (r *Report) Failed() bool { return r.Summary.MustFailed > 0 }

func (r *Report) summarize() {
	var s Summary
	count := func(res []Result) {
		for _, x := range res {
			switch {
			case x.Status == Pass:
				s.Passed++
			case x.Status == Skip:
				s.Skipped++
			case x.Level == Must:
				s.MustFailed++
			case x.Level == Should:
				s.ShouldFailed++
			default:
				s.MayFailed++
			}
		}
	}
	for _, e := range r.Endpoints {
		count(e.Results)
	}
	count(r.Fleet)
	r.Summary = s
}

// String is the summary line.
func (s Summary) String() string {
	return fmt.Sprintf("MUST failed: %d · SHOULD failed: %d · MAY not met: %d · passed: %d · skipped: %d",
		s.MustFailed, s.ShouldFailed, s.MayFailed, s.Passed, s.Skipped)
}

// WriteText writes the report as tables grouped by endpoint and level,
// followed by the summary line.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, e := range r.Endpoints {
		head := e.URL
		if e.Name != "" {
			head += " — " + e.Name
		}
		if len(e.Versions) > 0 {
			head += " (A2A " + strings.Join(e.Versions, ", ") + ")"
		}
		b.WriteString(head + "\n")
		writeTable(&b, e.Results)
		b.WriteString("\n")
	}
	if len(r.Fleet) > 0 {
		fmt.Fprintf(&b, "fleet of %d endpoints\n", len(r.Endpoints))
		writeTable(&b, r.Fleet)
		b.WriteString("\n")
	}
	b.WriteString(r.Summary.String() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func writeTable(b *strings.Builder, res []Result) {
	for _, lv := range levels {
		var rows []Result
		for _, x := range res {
			if x.Level == lv {
				rows = append(rows, x)
			}
		}
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(b, "  %s\n", lv)
		tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
		for _, x := range rows {
			v := x.Version
			if v == "" {
				v = "-"
			}
			text := x.Reason
			if x.Status == Pass || text == "" {
				text = x.Title
			}
			fmt.Fprintf(tw, "    %s\t%s\t%s\t%s\n", strings.ToUpper(string(x.Status)), x.ID, v, oneLine(text))
		}
		tw.Flush()
	}
}

// oneLine keeps a reason to one line of reasonable length.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 240 {
		s = string(r[:237]) + "..."
	}
	return s
}
