// Package generation turns a repository into an agent bundle (docs/bundle.md)
// with a pluggable Generator, and measures every attempt the same way: the
// generation gate deploys the bundle through the host, fetches its card over
// HTTP, validates and lints it, and requires at least one skill and a passing
// check.
//
// The static generator turns command lines into skills, and libraries too:
// a Python package without entry points gets one skill per core capability
// of its public API (functions, classes built from simple values and their
// methods and properties), a Go module without a main package one per
// exported function or method with simple types, each run by a wrapper
// generated into the bundle beside agent.yaml (wrapper/, named {{bundle}}
// in the templates), never into the repository.
// Python repositories get an environment that installs offline: the
// interpreter that sees most of their imports, a venv with the system's site
// packages, the repository installed with pip (or run from source, with the
// reason), the Debian packages of missing modules reported — and installed
// with apt-get when Config.InstallSystemDeps is set. The environment is
// recorded in the bundle (EnvironmentFile).
//
// Generators register by name (RegisterGenerator; a duplicate panics); the
// built-ins are "static" (analysis of the repository, no model), "llm" (an
// OpenAI-compatible model given a digest of the repository) and "command"
// (an external coding agent whose model traffic goes through a metering
// proxy; a local process group, or contained by Config.Sandbox — with
// docker.Jobs.Sandbox (deploy/docker), a Docker container that sees only
// the attempt's bundle directory and reaches only the proxy). Run drives
// the attempts:
//
//	rep, err := generation.Run(ctx, generation.Config{
//		Repo:      "https://github.com/owner/tool.git", // or a local path
//		Out:       "out/tool",
//		Generator: "static",
//		Attempts:  3,
//		Env:       os.Environ(),
//	})
//	for _, a := range rep.Attempts { fmt.Println(a.N, a.OK, a.Reason, a.Tokens) }
//	if rep.OK() { ... } // out/tool holds the first bundle that passed the gate
//
// The repository is cloned with the system git (so the user's credentials,
// mirrors and proxies apply) or copied, never modified in place: nothing is
// written outside Out. Each attempt works in Out/.agentnet/attempts/N and
// leaves its record (attempt.json) and log (generate.log) there; the first
// attempt that passes the gate becomes the bundle in Out.
package generation
