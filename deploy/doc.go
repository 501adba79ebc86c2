// Package deploy brings agent bundles up as running A2A endpoints behind one
// Runtime interface, and keeps the state of a fleet on disk so that another
// process (a second terminal's "agentnet fleet status") sees it.
//
// Runtimes register by name; "process" (the default, in deploy/process),
// "docker" and "swarm" are built in, and deploy/runtimes registers them
// all:
//
//	import _ "github.com/agentnet/agentnet/deploy/runtimes"
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
// assembled from this machine's own files by deploy/image:
//
//   - a base image, imported from a tarball: the agentnet executable (with
//     its shared libraries when it is not static) and every program the
//     bundle's skills and checks run, each at its host path with what it
//     needs — the shared libraries ldd lists, the interpreter of a shebang
//     line, a Python's standard library (without tests and GUI modules),
//     and for a POSIX shell the usual tools (awk, sed, sort, ...); a bare
//     program name gets a link in /usr/local/bin. The interpreter of each
//     virtual environment in the bundle's trees comes too (what its
//     bin/python links to, and pyvenv.cfg's home), and of the site
//     directories of the Pythons in the image (Debian's dist-packages, say)
//     the packages the bundle's Python files import, directly or through
//     each other, read from their source without running it — with their
//     metadata and the libraries of their extension modules;
//   - an agent image on top of it: the bundle directory (with the wrappers
//     beside agent.yaml that {{bundle}} names) and its local repo (with its
//     venv and the repo installed into it), committed from one container.
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
// Jobs runs one-off commands in containers of the same make: a coding
// agent (generation's command generator, a commission's builder) or a
// commission's hidden tests, with --runtime docker:
//
//	jobs, err := deploy.NewJobs(deploy.Config{Env: env})
//	defer jobs.Close(ctx)
//	res := jobs.Run(ctx, deploy.JobSpec{Name: "tests-slug", Argv: []string{"python3", "-m", "unittest"},
//		Dir: testsDir, Mounts: []deploy.Mount{{Host: testsDir}, {Host: deliveryCopy}}, Timeout: time.Minute, Beside: agent})
//	// res is a *proc.Result: output, exit status, timed out, why not 0
//
// A job's image (agentnet-job:KEY) holds the programs it runs, found and
// copied as for the base image; a job sees only its mounts of this
// machine's files, runs as an unprivileged user with a read-only root
// file system, a 1 GiB tmpfs at /tmp, no capabilities, 2 GiB of memory,
// one CPU and 512 processes, and its container is removed when it ends, is killed
// at its timeout, or its context ends. Its network is none, an internal
// bridge network of its own (nothing leaves its subnet) on whose gateway a
// listener from Jobs.Listen serves it (the coding agents' metering proxy), or that of a docker runtime
// agent's container (hidden tests, which reach the agent at BesideURL).
// Limits of jobs: as for agents, only the programs named (and a shell's
// tools) come with what they need, so a coding agent installed as a
// package (a Node CLI and its node_modules, a Python tool and its
// site-packages) does not run in a job unless it is one self-contained
// program; when agentnet runs as root, a job runs as nobody and its
// read-only mounts must be readable by everyone.
//
// The swarm runtime runs each agent as a Docker Swarm service
// (agentnet-a-NAME) from the docker runtime's images, with the same
// containment as service limits, restart policy any and a health check that
// runs "agentnet fleet probe" on the card; the services resolve by DNS
// round robin on the internal overlay network SwarmNetwork. One gateway
// service (SwarmGateway, GatewayHandler), pinned to this manager node with
// its port published in host mode, routes /NAME/... to the service NAME;
// cards advertise http://127.0.0.1:PORT/NAME/. Images reach the other
// nodes through their Docker APIs (EnvSwarmNodes) or Config.ImageRegistry.
// Down removes the service and its image, and the gateway and networks with
// the last agent service. PlanImage and BuildImage name and build the images
// alone, for deploy/export.
//
// Limits of the docker runtime: programs that a skill's program starts in
// turn (other than a shell's usual tools and a venv's interpreter) are not
// copied, nor Python packages imported only by a computed name or brought
// in by a .pth file of the host's site directories; the host's own
// listeners on all interfaces stay reachable from a container through the
// bridge's gateway address; bundles that bring their own server (serve:)
// are not supported; containers do not die with an attached parent
// (Config.Detach false), so callers must call Down; the agent's log is the
// container's (docker logs), not a file in Config.LogDir.
package deploy
