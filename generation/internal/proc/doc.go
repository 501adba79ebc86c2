// Package proc runs the programs generation needs — builds, help probes,
// clones, coding agents — with no shell, in a process group of their own
// that is killed on timeout and cancellation, with bounded output.
//
//	res := proc.Run(ctx, proc.Spec{Argv: []string{"go", "build", "./..."}, Dir: repo, Env: env, Timeout: time.Minute})
//	if res.Err != nil { ... } // could not start, timed out, or exited non-zero
package proc
