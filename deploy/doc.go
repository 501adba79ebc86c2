// Package deploy brings agent bundles up as running A2A endpoints behind one
// Runtime interface, and keeps the state of a fleet on disk so that another
// process (a second terminal's "agentnet fleet status") sees it.
//
// Runtimes register by name (Register); each lives in a package of its
// own, which imports deploy for its types, and deploy imports none of them
// (nor the Docker client):
//
//   - deploy/process, "process" (the default): each host ("agentnet
//     serve") a child process on a free loopback port;
//   - deploy/docker, "docker": each host in a container of its own, and
//     Jobs, one-off commands (coding agents, hidden tests) in containers of
//     the same make;
//   - deploy/swarm, "swarm": each agent a Docker Swarm service behind one
//     gateway service, and Swarm jobs;
//
// over deploy/image, the builder of the images the docker and swarm
// runtimes run. deploy/runtimes registers them all:
//
//	import _ "github.com/agentnet/agentnet/deploy/runtimes"
//
//	rt, err := deploy.Open("process", deploy.Config{Self: exe, LogDir: dir, Env: env})
//	a, err := rt.Up(ctx, deploy.Spec{Name: "textkit", Bundle: "out/textkit"})
//	fmt.Println(a.URL) // http://127.0.0.1:40123/ — its card answers
//	defer rt.Down(ctx, a)
//
// UpAll and DownAll bring a fleet up and down on one runtime; State
// records it (LoadState, State.Save) under the agentnet home directory.
// Config.SignKey signs each agent's card here, so that the key never
// reaches the agent (Config.CardSignaturesVar). deploy/export writes a
// fleet's images as Kubernetes or Docker Compose manifests.
package deploy
