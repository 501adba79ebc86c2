// Package bench runs a suite end to end — generate every repo's agent,
// deploy the fleet, register its cards, run the single tasks against their
// own repo's agent, run the chains through the orchestrator and router,
// evaluate the commissions, score, report and tear down — into a run
// directory that can be resumed. It is the engine of `agentnet bench` and
// `agentnet demo`:
//
//	res, err := bench.Run(ctx, bench.Options{Suite: s, Out: dir, Self: exe})
//	eval.WriteTables(os.Stdout, res)
//
// With Options.Runtime "docker", what runs other people's code runs in
// containers: the agents, the command generator's coding agent and a
// commission's builder (each seeing only its attempt's bundle directory or
// its workspace, and reaching only its metering proxy), and the hidden
// tests (in a fresh container beside the delivery's). With "swarm", the
// agents are Swarm services and the hidden tests Swarm jobs on the agents'
// overlay network, with the same containment. Every child process,
// container and server a run starts is stopped before Run returns, on
// success, failure and cancellation alike.
package bench
