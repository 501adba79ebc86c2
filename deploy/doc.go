// Package deploy brings agent bundles up as running A2A endpoints behind one
// Runtime interface, and keeps the state of a fleet on disk so that another
// process (a second terminal's "agentnet fleet status") sees it.
//
// Runtimes register by name; "process" is built in and the default:
//
//	rt, err := deploy.Open("process", deploy.Config{Self: exe, LogDir: dir, Env: env})
//	a, err := rt.Up(ctx, deploy.Spec{Name: "textkit", Bundle: "out/textkit"})
//	fmt.Println(a.URL) // http://127.0.0.1:40123/ — its card answers
//	defer rt.Down(ctx, a)
//
// The process runtime starts each bundle's host ("agentnet serve") as a
// child process on a free loopback port, ready once its card answers, with
// its output in a log file per agent. Its process group is killed by Down;
// an attached agent (Config.Detach false) also dies with its parent.
package deploy
