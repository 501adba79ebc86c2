package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/deploy/docker"
	"github.com/agentnet/agentnet/deploy/export"
	"github.com/agentnet/agentnet/deploy/swarm"
	"github.com/agentnet/agentnet/generation"
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
			return swarm.ServeGateway(cmd.Context(), addr)
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

// newFleetExportCmd writes a fleet as Kubernetes objects or a Compose file.
func newFleetExportCmd(env *Env) *cobra.Command {
	var (
		format, out, generator string
		o                      export.Options
		build                  bool
	)
	cmd := &cobra.Command{
		Use:   "export SUITE|BUNDLE...",
		Short: "Write the fleet of bundles (or a suite's repos) as Kubernetes objects or a Compose file",
		Long: `Export writes, for each agent, a ConfigMap, a Deployment and a Service
(--format k8s) or a Compose service (--format compose) running the image the
docker and swarm runtimes build, with their containment and limits and a
health check that fetches the card. The images it needs are listed at the top
of the file; --build makes them in the local Docker engine (load them into
the cluster, or push them to --image-registry). A suite's repos without a
bundle are generated as for fleet up. See docs/deploy.md.`,
		Example: `  agentnet fleet export --format k8s out/textkit out/htmltext > fleet.yaml
  agentnet fleet export --format compose --build tasks/demo/suite.yaml -o compose.yaml`,
		Args: minArgs(1, "SUITE|BUNDLE..."),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "k8s" && format != "compose" {
				return usageError("fleet export: unknown --format %q (want k8s or compose)", format)
			}
			ctx := cmd.Context()
			home := agentnetHomeDir(env)
			specs, err := fleetSpecs(ctx, env, args, fleetGen{generator: generator, dir: filepath.Join(home, "fleet", "bundles")})
			if err != nil {
				var ge *fleetGenError
				if errors.As(err, &ge) {
					return err
				}
				return invalidInput(err)
			}
			exe, err := env.executable()
			if err != nil {
				return err
			}
			cfg := deploy.Config{Self: exe, Env: env.childEnv()}
			var imgs []*docker.Image
			for _, s := range specs {
				var img *docker.Image
				if build {
					img, err = docker.BuildImage(ctx, cfg, s)
				} else {
					img, err = docker.PlanImage(cfg, s)
				}
				if err != nil {
					return err
				}
				imgs = append(imgs, img)
			}
			var data []byte
			if format == "k8s" {
				data, err = export.Kubernetes(imgs, o)
			} else {
				data, err = export.Compose(imgs, o)
			}
			if err != nil {
				return err
			}
			if out == "" || out == "-" {
				_, err = env.Stdout.Write(data)
				return err
			}
			return os.WriteFile(out, data, 0o644)
		},
	}
	f := cmd.Flags()
	f.StringVar(&format, "format", "k8s", "k8s (Deployments, Services, ConfigMaps) or compose")
	f.StringVarP(&out, "out", "o", "", "write the file here (default: standard output)")
	f.BoolVar(&build, "build", false, "build the images in the local Docker engine")
	f.StringVar(&o.Registry, "image-registry", "", "prefix the images with this registry (HOST:PORT) the cluster pulls from")
	f.StringVar(&o.Namespace, "namespace", "", "Kubernetes namespace of the objects (default: the current one)")
	f.IntVar(&o.BasePort, "base-port", 18080, "compose: the first loopback port an agent is published on, one per agent")
	f.StringVar(&generator, "generator", "static", "generator for a suite's repos without a bundle: "+strings.Join(generation.Generators(), ", "))
	return cmd
}
