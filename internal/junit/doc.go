// Package junit writes JUnit XML reports, the test-report format CI systems
// read (Jenkins, GitLab, GitHub Actions' test reporters): test suites of test
// cases, each passed, failed (with a message and detail), errored or
// skipped.
//
// Build a Report, add suites and cases, and encode it:
//
//	var r junit.Report
//	s := r.Suite("audit http://127.0.0.1:8080/")
//	s.Add(junit.Case{Name: "card.discovery", Class: "MUST"})
//	s.Add(junit.Case{Name: "core.send", Class: "MUST", Failure: "no task in the answer"})
//	err := r.Write(w)
//
// The counts of suites and of the report are computed on Write.
package junit
