// Package docker is the "docker" runtime of deploy: it runs each agent's
// host in a container of its own through the Docker Engine API
// (DOCKER_HOST in deploy.Config.Env, else the local socket), and Jobs,
// one-off commands in containers of the same make. It registers itself
// with deploy under "docker" when imported (deploy/runtimes imports every
// runtime):
//
//	rt, err := deploy.Open("docker", deploy.Config{Self: exe, Env: env})
//	a, err := rt.Up(ctx, deploy.Spec{Name: "textkit", Bundle: "out/textkit"})
//	defer rt.Down(ctx, a)
//
// The engine needs no image and no registry: nothing is pulled. Images are
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
//     metadata and the libraries of their extension modules; and the
//     files of the bundle's system_packages as dpkg lists them on this
//     machine, with the shared libraries they load;
//   - an agent image on top of it: the bundle directory (with the wrappers
//     beside agent.yaml that {{bundle}} names) and its local repo (with its
//     venv and the repo installed into it), committed from one container.
//
// Both are tagged by a key of their contents (agentnet-base:KEY,
// agentnet-agent-NAME:KEY), so an unchanged bundle is not rebuilt. Setup
// (Spec.Setup) runs on this machine before the image is made, since the
// container's file system is read-only. PlanImage and BuildImage name and
// build the images alone, for deploy/export.
//
// Each container runs as nobody with a read-only root file system, a tmpfs
// at /tmp for the tasks' work directories, 512 MiB of memory, one CPU, 256
// processes, no capabilities and no-new-privileges. It is attached to the
// "agentnet" bridge network (Network), which has neither masquerading (no
// route out of the machine) nor traffic between containers, and its port
// is published on 127.0.0.1 only; the card advertises that published URL
// (serve --url). Containers, images and the network carry agentnet.*
// labels; Down removes the agent's container and image, and the base image
// and network once nothing uses them, and refuses to touch what has no
// agentnet label.
//
// Jobs runs one-off commands in containers of the same make: a coding
// agent (generation's command generator, a commission's builder) or a
// commission's hidden tests, with --runtime docker:
//
//	jobs, err := docker.NewJobs(deploy.Config{Env: env})
//	defer jobs.Close(ctx)
//	res := jobs.Run(ctx, docker.JobSpec{Name: "tests-slug", Argv: []string{"python3", "-m", "unittest"},
//		Dir: testsDir, Mounts: []docker.Mount{{Host: testsDir}, {Host: deliveryCopy}}, Timeout: time.Minute, Beside: agent})
//	// res is a *proc.Result: output, exit status, timed out, why not 0
//
// A job's image (agentnet-job:KEY) holds the programs it runs, found and
// copied as for the base image; a job sees only its mounts of this
// machine's files, runs as an unprivileged user with a read-only root file
// system, a 1 GiB tmpfs at /tmp, no capabilities, 2 GiB of memory, one CPU
// and 512 processes, and its container is removed when it ends, is killed
// at its timeout, or its context ends. Its network is none, an internal
// bridge network of its own (nothing leaves its subnet) on whose gateway a
// listener from Jobs.Listen serves it (the coding agents' metering proxy),
// or that of a docker runtime agent's container (hidden tests, which reach
// the agent at BesideURL). Another runtime tells how a job reaches its
// agents (RegisterBeside), and may run the jobs itself (NewJobsWith, a
// JobRunner): deploy/swarm does both.
//
// Limits: programs that a skill's program starts in turn (other than a
// shell's usual tools and a venv's interpreter) are not copied, nor Python
// packages imported only by a computed name or brought in by a .pth file
// of the host's site directories; the host's own listeners on all
// interfaces stay reachable from a container through the bridge's gateway
// address; bundles that bring their own server (serve:) are not supported;
// containers do not die with an attached parent (Config.Detach false), so
// callers must call Down; the agent's log is the container's (docker
// logs), not a file in Config.LogDir. As for agents, only the programs a
// job names (and a shell's tools) come with what they need, so a coding
// agent installed as a package (a Node CLI and its node_modules, a Python
// tool and its site-packages) does not run in a job unless it is one
// self-contained program; when agentnet runs as root, a job runs as nobody
// and its read-only mounts must be readable by everyone.
package docker
