// Package runtimes registers every runtime agentnet has with deploy, so
// that deploy.Open finds them by name: import it for its side effect.
//
//	import _ "github.com/agentnet/agentnet/deploy/runtimes"
//
//	rt, err := deploy.Open("docker", cfg)
//
// deploy itself imports no runtime (each runtime package imports deploy
// for its types); a program that wants only some of them imports those
// packages instead.
package runtimes

import (
	_ "github.com/agentnet/agentnet/deploy/docker"
	_ "github.com/agentnet/agentnet/deploy/process"
	_ "github.com/agentnet/agentnet/deploy/swarm"
)
