package cli

import (
	"github.com/spf13/cobra"

	"github.com/agentnet/agentnet/deploy"
)

// newFleetGatewayCmd is the swarm runtime's gateway, run in its service's
// container: it routes /NAME/... to the agent service NAME.
func newFleetGatewayCmd(env *Env) *cobra.Command {
	var addr string
	cmd := &cobra.Command{
		Use:    "gateway",
		Short:  "Route /NAME/... to the swarm agent service NAME (run by --runtime swarm in its gateway service)",
		Hidden: true,
		Args:   exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return deploy.ServeGateway(cmd.Context(), addr)
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "0.0.0.0:8080", "address to listen on")
	return cmd
}

// newFleetProbeCmd is the swarm services' health check: it exits 0 when the
// agent's card answers at URL.
func newFleetProbeCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:    "probe URL",
		Short:  "Exit 0 when the agent card at URL answers (the swarm services' health check)",
		Hidden: true,
		Args:   exactArgs(1, "URL"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return deploy.CardAnswers(cmd.Context(), args[0])
		},
	}
}
