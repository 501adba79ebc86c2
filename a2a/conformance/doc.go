// Package conformance holds the protocol checks behind `agentnet audit`: an
// interoperability audit of A2A endpoints that agentnet did not necessarily
// build, and of a fleet of them.
//
// Every check has an id, a level (MUST, SHOULD or MAY, as in the A2A
// compatibility kit, whose requirement id it cites where there is one) and,
// when it fails or is skipped, a one-line reason. The checks cover discovery
// (the card at /.well-known/agent-card.json), the card's signature, schema
// and lint (through package cards), each binding the card's
// supportedInterfaces declare — the JSON-RPC envelope and core methods, the
// HTTP+JSON paths, status codes and error bodies, the gRPC status codes and
// ErrorInfo details, ListTasks with cursors, SubscribeToTask, the
// A2A-Version header, and whether the bindings answer one message alike —
// the capabilities the card declares (streaming, push notifications) and, with
// several endpoints, the fleet: cards too alike to route between, cards whose
// skills cover another's, duplicate names.
//
//	rep, err := conformance.Audit(ctx, []string{"http://127.0.0.1:8080/"},
//		conformance.WithTimeout(30*time.Second))
//	if err != nil { ... }            // a URL that is not an absolute http(s) URL
//	rep.WriteText(os.Stdout)         // a table grouped by level, and a summary line
//	if rep.Summary.MustFailed > 0 { ... }
//
// Every request is bounded in time (WithTimeout) and size (WithMaxBody), and
// the audit contacts only the origins (scheme, host and port) of the URLs it
// is given and those of WithAllowedOrigins: a card that names another host is
// reported, never followed, redirects elsewhere are refused, and a gRPC
// interface elsewhere is not dialled. WithBindings limits the binding checks;
// Report.WriteHTML, JUnit and WriteText render the result.
//
// Audit is safe for concurrent use; it audits endpoints in parallel.
package conformance
