// Package proc runs other people's programs — builds, help probes, clones,
// coding agents, skills — with no shell, in a Group of their own that is
// killed on timeout and cancellation, with bounded output.
//
// A Group holds every process its leader starts, daemonised or not: on
// Linux a cgroup v2 per group where this process may make one (killed whole
// with cgroup.kill), else a child subreaper that kills the processes
// carrying the group's mark; elsewhere the process group. When this process
// dies, SIGKILL included, a watcher it started kills what its groups still
// hold. Containment says which mechanism is in use. SetGroup, KillGroup and
// TermGroup are the bare process-group primitives.
//
//	res := proc.Run(ctx, proc.Spec{Argv: []string{"go", "build", "./..."}, Dir: repo, Env: env, Timeout: time.Minute})
//	if res.Err != nil { ... } // could not start, timed out, or exited non-zero
package proc
