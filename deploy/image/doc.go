// Package image builds the Docker images the docker and swarm runtimes
// and their jobs run, from this machine's own files: nothing is pulled and
// no registry is needed.
//
// A Toolchain finds a program and what running it takes (the shared
// libraries ldd lists, the interpreter of a shebang line, a Python's
// standard library and the site packages a bundle's code imports, a
// shell's usual tools, the installed files of a Debian package); a Rootfs
// collects them, is keyed by its contents and is written as a tar archive.
// A Builder makes of a bundle a base image (agentnet-base:KEY: agentnet,
// the programs the bundle runs and its system packages) and an agent image
// on top of it (agentnet-agent-NAME:KEY: the bundle and its local repo),
// each built once per key, and removes them; NewPlanner computes the same
// references without an engine (deploy/export).
//
// Everything it makes carries the agentnet.* labels (LabelManaged, ...);
// Remove touches nothing without them.
package image
