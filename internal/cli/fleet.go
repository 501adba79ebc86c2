package cli

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/deploy"
	_ "github.com/agentnet/agentnet/deploy/runtimes" // every runtime, for deploy.Open
	"github.com/agentnet/agentnet/generation"
	"github.com/agentnet/agentnet/internal/fetchpolicy"
	"github.com/agentnet/agentnet/registry"
	"github.com/agentnet/agentnet/tasks"
)

func newFleetCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "fleet",
		Short: "Deploy agent bundles as a fleet, show its health, tear it down",
		Long: `A fleet is a set of running agents. Its state is kept under $AGENTNET_HOME/fleet
(AGENTNET_HOME defaults to ~/.agentnet), so "fleet status" and "fleet down" work
from any terminal. Each agent's log is $AGENTNET_HOME/fleet/logs/NAME.log
(on --runtime docker, the container's: docker logs ID, the id in "fleet status --json").`,
	}
	cmd.AddCommand(newFleetUpCmd(env), newFleetStatusCmd(env), newFleetDownCmd(env), newFleetGatewayCmd(env), newFleetProbeCmd(env), newFleetExportCmd(env))
	return cmd
}

func (e *Env) executable() (string, error) {
	if e.Executable != "" {
		return e.Executable, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find the agentnet executable: %w", err)
	}
	return exe, nil
}

func newFleetUpCmd(env *Env) *cobra.Command {
	var (
		runtimeName, registryURL, generator string
		imageRegistry                       string
		signKey                             string
		setup, regenerate, asJSON           bool
		parallel                            int
	)
	cmd := &cobra.Command{
		Use:   "up SUITE|BUNDLE...",
		Short: "Deploy bundles (or the bundles of a suite's repos) and print each agent's URL",
		Long: `Up starts one agent per bundle directory, or, for a suite file, one per repo, and
returns once every card answers. A suite's repo whose directory holds an
agent.yaml is served as it is; any other repo (a path or a git URL) is first
made into a bundle by --generator, kept under $AGENTNET_HOME/fleet/bundles/ID
and reused on the next up (--regenerate makes it again). With --registry it
registers each agent's card there (with AGENTNET_REGISTRY_TOKEN when set). If
any agent fails to come up, the ones started are stopped again. With
--sign-key each agent's card is signed here and the agent is handed only the
signatures (a bundle with its own server cannot be signed so: use serve
--sign-key for it).`,
		Example: `  agentnet fleet up out/textkit out/htmltext
  agentnet fleet up suite.yaml --registry http://127.0.0.1:8700`,
		Args: minArgs(1, "SUITE|BUNDLE..."),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			home := agentnetHomeDir(env)
			specs, err := fleetSpecs(ctx, env, args, fleetGen{generator: generator, regenerate: regenerate, dir: filepath.Join(home, "fleet", "bundles")})
			if err != nil {
				var ge *fleetGenError
				if errors.As(err, &ge) {
					return err
				}
				return invalidInput(err)
			}
			st, err := deploy.LoadState(home)
			if err != nil {
				return err
			}
			running := map[string]bool{}
			for _, a := range st.Agents {
				running[a.Name] = true
			}
			for _, s := range specs {
				s.Setup = setup
				if running[s.Name] {
					return invalidInput(fmt.Errorf("agent %q is already up (see 'agentnet fleet status'; 'agentnet fleet down' stops the fleet)", s.Name))
				}
			}
			exe, err := env.executable()
			if err != nil {
				return err
			}
			key, err := loadSignKey(env, signKey)
			if err != nil {
				return err
			}
			fkey, err := fileKey(env)
			if err != nil {
				return fmt.Errorf("fleet up: the file key: %w", err)
			}
			hostEnv := append(env.childEnv(), fetchpolicy.KeyEnv+"="+hex.EncodeToString(fkey))
			rt, err := deploy.Open(runtimeName, deploy.Config{Self: exe, Env: hostEnv, LogDir: deploy.LogDir(home), Detach: true, SignKey: key, ImageRegistry: imageRegistry})
			if err != nil {
				return usageError("%v", err)
			}
			started, err := deploy.UpAll(ctx, rt, specs, parallel)
			if err != nil {
				deploy.DownAll(context.WithoutCancel(ctx), rt, started)
				return err
			}
			lines := make([]fleetUpLine, len(started))
			for i, a := range started {
				lines[i] = fleetUpLine{Agent: a}
			}
			if registryURL != "" {
				rc := registryClient(env, registryURL)
				for i, a := range started {
					rec, _, err := rc.Register(ctx, a.URL)
					if err != nil {
						deploy.DownAll(context.WithoutCancel(ctx), rt, started)
						return fmt.Errorf("register %s at %s: %w", a.Name, registryURL, registryErr(err))
					}
					lines[i].RegistryID = rec.ID
				}
				st.Registry = registryURL
			}
			st.Agents = append(st.Agents, started...)
			if err := st.Save(home); err != nil {
				deploy.DownAll(context.WithoutCancel(ctx), rt, started)
				return err
			}
			if asJSON {
				return writeJSON(env.Stdout, lines)
			}
			for _, a := range started {
				fmt.Fprintf(env.Stdout, "%s\t%s\n", a.Name, a.URL)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&runtimeName, "runtime", "process", "where agents run: "+strings.Join(deploy.Runtimes(), ", "))
	f.StringVar(&registryURL, "registry", "", "register each agent's card at this registry URL")
	f.StringVar(&imageRegistry, "image-registry", "", "with --runtime swarm: push the agents' images to this registry (HOST:PORT) for the nodes to pull (default: load them onto each node through its Docker API; AGENTNET_IMAGE_REGISTRY)")
	f.StringVar(&signKey, "sign-key", "", signKeyFlagHelp+"; the key stays in this process, agents get only their cards' signatures")
	f.BoolVar(&setup, "setup", false, "run each bundle's setup commands before serving it")
	f.IntVar(&parallel, "parallel", 8, "agents started at once")
	f.StringVar(&generator, "generator", "static", "generator for a suite's repos without a bundle: "+strings.Join(generation.Generators(), ", "))
	f.BoolVar(&regenerate, "regenerate", false, "make the bundles of a suite's repos again instead of reusing them")
	f.BoolVar(&asJSON, "json", false, "print the agents started as JSON (with their registry ids when registered)")
	return cmd
}

// fleetUpLine is one agent fleet up started, as --json prints it.
type fleetUpLine struct {
	*deploy.Agent
	RegistryID string `json:"registry_id,omitempty"`
}

// fleetGen says how a suite's repos without a bundle get one.
type fleetGen struct {
	generator  string
	regenerate bool
	dir        string // where generated bundles are kept, one directory per repo id
}

// fleetGenError is a repo that could not be made into a bundle: the command
// ran and failed (exit 1), unlike a bad argument.
type fleetGenError struct {
	repo string
	why  string
}

func (e *fleetGenError) Error() string {
	return fmt.Sprintf("repo %s: no agent could be generated: %s", e.repo, e.why)
}

// fleetSpecs turns arguments into agents to start: bundle directories (or
// their agent.yaml), or suite files, whose repos are served from their own
// bundle or from one generated for them.
func fleetSpecs(ctx context.Context, env *Env, args []string, gen fleetGen) ([]deploy.Spec, error) {
	var specs []deploy.Spec
	seen := map[string]string{}
	add := func(name, dir string) error {
		b, err := bundle.Load(dir)
		if err != nil {
			return err
		}
		if name == "" {
			name = b.Name
		}
		if prev, dup := seen[name]; dup {
			return fmt.Errorf("two bundles are named %q: %s and %s", name, prev, b.Dir)
		}
		seen[name] = b.Dir
		specs = append(specs, deploy.Spec{Name: name, Bundle: b.Dir})
		return nil
	}
	for _, arg := range args {
		fi, err := os.Stat(arg)
		if err != nil {
			return nil, err
		}
		if fi.IsDir() || filepath.Base(arg) == bundle.FileName {
			if err := add("", arg); err != nil {
				return nil, err
			}
			continue
		}
		s, err := tasks.Load(arg)
		if err != nil {
			return nil, err
		}
		for _, r := range s.Repos {
			source := s.SourceOf(r)
			if !tasks.IsGitURL(r.Source) && bundle.Exists(source) {
				if err := add(r.ID, source); err != nil {
					return nil, err
				}
				continue
			}
			out := filepath.Join(gen.dir, r.ID)
			if gen.regenerate || !bundle.Exists(out) {
				if err := os.RemoveAll(out); err != nil {
					return nil, err
				}
				rep, err := generation.Run(ctx, generation.Config{
					Repo: source, Ref: r.Ref, Out: out, Generator: gen.generator, Env: env.childEnv(), Logger: env.logger(),
				})
				if err != nil {
					return nil, &fleetGenError{repo: r.ID, why: err.Error()}
				}
				if !rep.OK() {
					return nil, &fleetGenError{repo: r.ID, why: rep.Why()}
				}
			}
			if err := add(r.ID, out); err != nil {
				return nil, err
			}
		}
	}
	return specs, nil
}

type agentStatus struct {
	*deploy.Agent
	Health deploy.Health `json:"health"`
	Uptime string        `json:"uptime"`
}

func newFleetStatusCmd(env *Env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show each agent of the fleet: name, URL, runtime, health, uptime",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			st, err := deploy.LoadState(agentnetHomeDir(env))
			if err != nil {
				return err
			}
			rows := make([]agentStatus, len(st.Agents))
			var g errgroup.Group
			g.SetLimit(16)
			for i, a := range st.Agents {
				g.Go(func() error {
					rows[i] = agentStatus{Agent: a, Uptime: time.Since(a.Started).Round(time.Second).String()}
					if rt, err := deploy.Open(a.Runtime, deploy.Config{Self: "agentnet", Env: env.childEnv()}); err == nil {
						rows[i].Health = rt.Health(ctx, a)
					} else {
						rows[i].Health = deploy.Health{Detail: err.Error()}
					}
					return nil
				})
			}
			g.Wait()
			if asJSON {
				if rows == nil {
					rows = []agentStatus{}
				}
				return writeJSON(env.Stdout, rows)
			}
			if len(rows) == 0 {
				fmt.Fprintln(env.Stdout, "no fleet is up")
				return nil
			}
			tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "AGENT\tURL\tRUNTIME\tHEALTH\tUPTIME")
			down := 0
			for _, r := range rows {
				h := "up"
				if !r.Health.Up {
					h = "down: " + r.Health.Detail
					down++
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Name, r.URL, r.Runtime, h, r.Uptime)
			}
			tw.Flush()
			if down > 0 {
				return silentFailure{code: ExitFailed}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the status as JSON")
	return cmd
}

// fleetDownLine is what fleet down did to one agent, as --json prints it.
type fleetDownLine struct {
	Name         string `json:"name"`
	URL          string `json:"url"`
	Stopped      bool   `json:"stopped"`
	Deregistered bool   `json:"deregistered"`
	Error        string `json:"error,omitempty"`
}

func newFleetDownCmd(env *Env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "down",
		Short: "Stop every agent of the fleet, remove it from the registry it was registered in, and forget it",
		Long: `Down stops every agent of the fleet. When 'fleet up --registry' registered
them, their records are deleted from that registry (with AGENTNET_REGISTRY_TOKEN
when set), so they are no longer listed; a registry that cannot be reached
leaves them there, and down says so and exits 1 once every agent is stopped.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := context.WithoutCancel(cmd.Context())
			home := agentnetHomeDir(env)
			st, err := deploy.LoadState(home)
			if err != nil {
				return err
			}
			lines, stopped, left, errs := stopAgents(ctx, env, st.Agents)
			regURL := st.Registry
			if regURL != "" && len(stopped) > 0 {
				gone, err := deregister(ctx, env, regURL, stopped)
				for i := range lines {
					lines[i].Deregistered = gone[lines[i].URL]
				}
				if err != nil {
					errs = append(errs, err)
				}
			}
			if len(left) == 0 {
				st.Registry = ""
			}
			st.Agents = left
			if err := st.Save(home); err != nil {
				errs = append(errs, err)
			}
			if asJSON {
				if err := writeJSON(env.Stdout, lines); err != nil {
					return err
				}
			} else {
				for _, l := range lines {
					if l.Stopped {
						msg := "stopped " + l.Name
						if l.Deregistered {
							msg += ", removed from " + regURL
						}
						fmt.Fprintln(env.Stdout, msg)
					}
				}
			}
			return errors.Join(errs...)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print what was done to each agent as JSON")
	return cmd
}

// stopAgents stops each agent, and returns what happened to each, the
// agents stopped, those left running and why.
func stopAgents(ctx context.Context, env *Env, agents []*deploy.Agent) (lines []fleetDownLine, stopped, left []*deploy.Agent, errs []error) {
	lines = []fleetDownLine{}
	for _, a := range agents {
		line := fleetDownLine{Name: a.Name, URL: a.URL}
		rt, err := deploy.Open(a.Runtime, deploy.Config{Self: "agentnet", Env: env.childEnv()})
		if err == nil {
			err = rt.Down(ctx, a)
		}
		if err != nil {
			errs = append(errs, err)
			left = append(left, a)
			line.Error = err.Error()
		} else {
			line.Stopped = true
			stopped = append(stopped, a)
		}
		lines = append(lines, line)
	}
	return lines, stopped, left, errs
}

// deregister deletes from the registry at regURL every record whose URL is
// one of agents', and reports which agent URLs lost their record.
func deregister(ctx context.Context, env *Env, regURL string, agents []*deploy.Agent) (map[string]bool, error) {
	gone := map[string]bool{}
	want := map[string]string{} // normalised URL → agent URL
	for _, a := range agents {
		want[strings.TrimSuffix(a.URL, "/")] = a.URL
	}
	c := registryClient(env, regURL)
	hits, err := collect(ctx, registry.Query{Statuses: registry.Statuses}, 0, c.List)
	if err != nil {
		return gone, fmt.Errorf("remove the fleet from %s: %w", regURL, err)
	}
	var errs []error
	for _, h := range hits {
		u, ok := want[strings.TrimSuffix(h.URL, "/")]
		if !ok {
			continue
		}
		if err := c.Delete(ctx, h.ID); err != nil {
			errs = append(errs, fmt.Errorf("remove %s from %s: %w", h.Name, regURL, registryErr(err)))
			continue
		}
		gone[u] = true
	}
	return gone, errors.Join(errs...)
}
