// Package process is the "process" runtime of deploy, the default: each
// agent's host ("agentnet serve BUNDLE") runs as a child process of this
// machine on a free loopback port, ready once its card answers, with its
// output in a log file per agent (deploy.Config.LogDir). Down kills its
// process group; an attached agent (Config.Detach false) runs in a
// proc.Group of its own and dies with its parent too.
//
// It registers itself with deploy under "process" when imported
// (deploy/runtimes imports every runtime).
package process
