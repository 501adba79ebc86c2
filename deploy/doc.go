// Package deploy brings agent bundles up as running A2A endpoints behind one
// Runtime interface, and keeps the state of a fleet on disk so that another
// process (a second terminal's "agentnet fleet status") sees it.
//
// Runtimes register by name; "process" (the default) and "docker" are built
// in:
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
//
// The docker runtime runs each host in a container of its own through the
// Docker Engine API (DOCKER_HOST in Config.Env, else the local socket). The
// engine needs no image and no registry: nothing is pulled. Images are
// assembled from this machine's own files:
//
//   - a base image, imported from a tarball: the agentnet executable (with
//     its shared libraries when it is not static) and every program the
//     bundle's skills and checks run, each at its host path with what it
//     needs — the shared libraries ldd lists, the interpreter of a shebang
//     line, a Python's standard library (without site-packages, tests and
//     GUI modules), and for a POSIX shell the usual tools (awk, sed, sort,
//     ...); a bare program name gets a link in /usr/local/bin;
//   - an agent image on top of it: the bundle directory and its local repo,
//     committed from one container.
//
// Both are tagged by a key of their contents (agentnet-base:KEY,
// agentnet-agent-NAME:KEY), so an unchanged bundle is not rebuilt. Setup
// (Spec.Setup) runs on this machine before the image is made, since the
// container's file system is read-only.
//
// Each container runs as nobody with a read-only root file system, a tmpfs
// at /tmp for the tasks' work directories, 512 MiB of memory, one CPU, 256
// processes, no capabilities and no-new-privileges. It is attached to the
// "agentnet" bridge network, which has neither masquerading (no route out
// of the machine) nor traffic between containers, and its port is published
// on 127.0.0.1 only; the card advertises that published URL (serve --url).
// Containers, images and the network carry agentnet.* labels; Down removes
// the agent's container and image, and the base image and network once
// nothing uses them, and refuses to touch what has no agentnet label.
//
// Limits of the docker runtime: programs that a skill's program starts in
// turn (other than a shell's usual tools) and Python packages outside the
// standard library are not copied; the host's own listeners on all
// interfaces stay reachable from a container through the bridge's gateway
// address; bundles that bring their own server (serve:) are not supported;
// containers do not die with an attached parent (Config.Detach false), so
// callers must call Down; the agent's log is the container's (docker logs),
// not a file in Config.LogDir.
package deploy
