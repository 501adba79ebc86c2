// Package orchestrator runs chains: for each step of a suite's oracle
// decomposition it asks a Router to choose an agent from the registry's
// cards alone, sends the step to that agent over A2A through a recording
// proxy (package a2a/proxy), and passes the step's output — its text and
// file artifacts — on as the next step's only input.
//
// Routers are registered by name (RegisterRouter) and built from a spec by
// NewRouter: "bm25" (the default, BM25 over the cards' text), "llm" (an
// OpenAI-compatible model reading the cards as untrusted data, answering in
// validated JSON) and "a2a=URL" (the user's own orchestrator agent, which
// gets the whole chain and a view of the registry, and whose routing is
// observed through the proxies). The orchestrator knows the registry only
// through Directory, which the caller adapts its registry client to.
// Before any router ranks, the candidates are filtered by what the step
// carries: only agents one of whose skills takes the media types of the
// step's files (the card's inputModes) remain, and when none does the step
// fails as "no suitable agent" rather than going to a wrong one.
//
//	router, err := orchestrator.NewRouter("bm25", orchestrator.RouterConfig{})
//	r := orchestrator.New(dir, router, orchestrator.WithStepTimeout(time.Minute))
//	defer r.Close()
//	res, err := r.Run(ctx, orchestrator.Chain{
//		ID:    "page-top-words",
//		Input: orchestrator.Input{Files: []orchestrator.File{{Name: "page.html", Data: html}}},
//		Steps: []orchestrator.Step{
//			{Repo: "htmltext", Instruction: "Extract the readable text of this web page."},
//			{Repo: "textstats", Instruction: "List the five most frequent words."},
//		},
//	}, traceFile)
//	for _, st := range res.Steps {
//		fmt.Println(st.Step, st.Routed.Name, st.Expected, st.Outcome, st.TotalMS)
//	}
//	fmt.Println(res.OrchestrationOK, res.Output.Text)
//
// Each step records the router's ranking of the agents it found fit, best
// first (StepRecord.Ranking): the expected agent's place in it gives
// Recall@k; a router that does not rank records its choice alone.
//
// Every message to an agent passes a recording proxy, over the binding
// WithBinding chooses (JSON-RPC by default, HTTP+JSON or gRPC). The runner
// keeps one proxy per agent and tags each chain's requests (TagHeader, as
// gRPC metadata too), so each chain's trace (every request, response and
// streamed event or gRPC message, as JSON lines) holds its own traffic
// only; a delegated chain gets proxies of its own. Orchestration success — every step's message reached the agent
// of the step's repo — is read from that trace (Sends, Attribute), never
// from a router's report. A step's text output reaches the next step as the
// file input.txt — input.csv, input.json or input.html when it is a table,
// JSON or a page — after the step's file artifacts; every step of a chain is
// sent in one A2A context, whose id is the chain's tag.
//
// Faults end a step with an Outcome and a reason, and the chain with it:
// calls that fail in transport (no connection, a gateway status, an answer
// cut off) are retried with doubling backoff a bounded number of times;
// failed tasks, JSON-RPC errors and malformed answers are not; a step that
// passes its timeout is canceled at the agent. A task that completes with
// no text and no file is not a success: the step ends empty_answer. Agents the registry reports
// down are never offered to the router. Run never panics on an agent's or a
// router's account; RunAll runs chains in parallel, and one chain's failure
// never stops another.
package orchestrator
