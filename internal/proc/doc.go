// Package proc runs other people's programs — builds, help probes, clones,
// coding agents, skills — with no shell, in a process group of their own
// that is killed on timeout and cancellation, with bounded output. SetGroup,
// KillGroup and TermGroup are the process-group primitives every part of
// agentnet that starts processes uses.
//
//	res := proc.Run(ctx, proc.Spec{Argv: []string{"go", "build", "./..."}, Dir: repo, Env: env, Timeout: time.Minute})
//	if res.Err != nil { ... } // could not start, timed out, or exited non-zero
package proc
