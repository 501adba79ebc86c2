// Package a2atest holds small A2A test agents on httptest: a well-behaved
// echo agent that speaks A2A 1.0 and 0.3 JSON-RPC through a2a-go's a2asrv
// and a2acompat/a2av0 at one URL, and the same agent breaking exactly one
// rule of the protocol (a Fault), for testing clients and the audit.
//
//	ag := a2atest.New(a2atest.NullSkills) // the card's skills are null
//	defer ag.Close()
//	rep, err := conformance.Audit(ctx, []string{ag.URL})
//
// New(a2atest.None) is the well-behaved agent; Faults lists the others. The
// agent's card can be renamed and re-described with options, so that tests
// can build fleets of similar or distinct agents.
package a2atest
