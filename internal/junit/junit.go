package junit

import (
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"strings"
)

// Report is a <testsuites> document.
type Report struct {
	XMLName  xml.Name `xml:"testsuites"`
	Name     string   `xml:"name,attr,omitempty"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Skipped  int      `xml:"skipped,attr"`
	Time     float64  `xml:"time,attr"`
	Suites   []*Suite `xml:"testsuite"`
}

// Suite is one <testsuite>.
type Suite struct {
	Name     string  `xml:"name,attr"`
	Tests    int     `xml:"tests,attr"`
	Failures int     `xml:"failures,attr"`
	Errors   int     `xml:"errors,attr"`
	Skipped  int     `xml:"skipped,attr"`
	Time     float64 `xml:"time,attr"`
	Cases    []Case  `xml:"testcase"`
}

// Case is one <testcase>. At most one of Failure, Error and Skipped is set;
// none means the case passed.
type Case struct {
	Name  string  `xml:"name,attr"`
	Class string  `xml:"classname,attr"`
	Time  float64 `xml:"time,attr"` // seconds
	// Failure is why a case failed (the <failure message>); Detail, when
	// set, becomes the element's text.
	Failure string `xml:"-"`
	// Error is why a case could not be judged (an infrastructure error).
	Error string `xml:"-"`
	// Skipped is why a case was not run.
	Skipped string `xml:"-"`
	Detail  string `xml:"-"`

	FailureEl *Outcome `xml:"failure,omitempty"`
	ErrorEl   *Outcome `xml:"error,omitempty"`
	SkippedEl *Outcome `xml:"skipped,omitempty"`
	SystemOut string   `xml:"system-out,omitempty"`
}

// Outcome is a <failure>, <error> or <skipped> element.
type Outcome struct {
	Message string `xml:"message,attr,omitempty"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// Suite appends a new suite named name and returns it.
func (r *Report) Suite(name string) *Suite {
	s := &Suite{Name: name}
	r.Suites = append(r.Suites, s)
	return s
}

// Add appends c to the suite.
func (s *Suite) Add(c Case) { s.Cases = append(s.Cases, c) }

// Write fills in the elements and counts and writes the report as indented
// XML with its declaration.
func (r *Report) Write(w io.Writer) error {
	r.count()
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("encode JUnit report: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// WriteFile writes the report to path (0644).
func (r *Report) WriteFile(path string) error {
	var b strings.Builder
	if err := r.Write(&b); err != nil {
		return err
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("write JUnit report: %w", err)
	}
	return nil
}

func (r *Report) count() {
	r.Tests, r.Failures, r.Errors, r.Skipped, r.Time = 0, 0, 0, 0, 0
	for _, s := range r.Suites {
		s.Tests, s.Failures, s.Errors, s.Skipped, s.Time = len(s.Cases), 0, 0, 0, 0
		for i := range s.Cases {
			c := &s.Cases[i]
			c.FailureEl, c.ErrorEl, c.SkippedEl = nil, nil, nil
			switch {
			case c.Failure != "":
				c.FailureEl = &Outcome{Message: oneLine(c.Failure), Type: "failure", Text: c.Detail}
				s.Failures++
			case c.Error != "":
				c.ErrorEl = &Outcome{Message: oneLine(c.Error), Type: "error", Text: c.Detail}
				s.Errors++
			case c.Skipped != "":
				c.SkippedEl = &Outcome{Message: oneLine(c.Skipped)}
				s.Skipped++
			}
			s.Time += c.Time
		}
		r.Tests += s.Tests
		r.Failures += s.Failures
		r.Errors += s.Errors
		r.Skipped += s.Skipped
		r.Time += s.Time
	}
}

// oneLine keeps a message attribute to one line: CI tools show it as a title.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
