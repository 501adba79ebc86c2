// Command agentnet turns code repositories into A2A agents, deploys them as a
// fleet, routes multi-repo chains through an orchestrator and scores the result.
//
// All wiring lives in internal/cli; main only hands it the process state.
package main

import (
	"os"

	"github.com/agentnet/agentnet/internal/cli"
)

func main() {
	os.Exit(cli.Main(cli.OSEnv()))
}
