package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"github.com/agentnet/agentnet/bundle"
	"github.com/agentnet/agentnet/deploy"
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
	cmd.AddCommand(newFleetUpCmd(env), newFleetStatusCmd(env), newFleetDownCmd(env))
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
		runtimeName, registryURL string
		setup                    bool
		parallel                 int
	)
	cmd := &cobra.Command{
		Use:   "up SUITE|BUNDLE...",
		Short: "Deploy bundles (or the bundles of a suite's repos) and print each agent's URL",
		Long: `Up starts one agent per bundle directory, or, for a suite file, one per repo whose
directory holds an agent.yaml, and returns once every card answers. With
--registry it registers each agent's card there (with AGENTNET_REGISTRY_TOKEN
when set). If any agent fails to come up, the ones started are stopped again.`,
		Example: `  agentnet fleet up out/textkit out/htmltext
  agentnet fleet up out/textkit --registry http://127.0.0.1:7070`,
		Args: minArgs(1, "SUITE|BUNDLE..."),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			specs, err := fleetSpecs(args)
			if err != nil {
				return invalidInput(err)
			}
			home := agentnetHomeDir(env)
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
			rt, err := deploy.Open(runtimeName, deploy.Config{Self: exe, Env: env.childEnv(), LogDir: deploy.LogDir(home), Detach: true})
			if err != nil {
				return usageError("%v", err)
			}
			started, err := upAll(ctx, rt, specs, parallel)
			if err != nil {
				downAll(context.WithoutCancel(ctx), rt, started)
				return err
			}
			if registryURL != "" {
				rc := registry.NewClient(registryURL, registry.WithClientToken(env.getenv("AGENTNET_REGISTRY_TOKEN")))
				for _, a := range started {
					if _, _, err := rc.Register(ctx, a.URL); err != nil {
						downAll(context.WithoutCancel(ctx), rt, started)
						return fmt.Errorf("register %s at %s: %w", a.Name, registryURL, err)
					}
				}
				st.Registry = registryURL
			}
			st.Agents = append(st.Agents, started...)
			if err := st.Save(home); err != nil {
				downAll(context.WithoutCancel(ctx), rt, started)
				return err
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
	f.BoolVar(&setup, "setup", false, "run each bundle's setup commands before serving it")
	f.IntVar(&parallel, "parallel", 8, "agents started at once")
	return cmd
}

// fleetSpecs turns arguments into agents to start: bundle directories (or
// their agent.yaml), or suite files whose repos hold bundles.
func fleetSpecs(args []string) ([]deploy.Spec, error) {
	var specs []deploy.Spec
	seen := map[string]string{}
	add := func(dir string) error {
		b, err := bundle.Load(dir)
		if err != nil {
			return err
		}
		if prev, dup := seen[b.Name]; dup {
			return fmt.Errorf("two bundles are named %q: %s and %s", b.Name, prev, b.Dir)
		}
		seen[b.Name] = b.Dir
		specs = append(specs, deploy.Spec{Name: b.Name, Bundle: b.Dir})
		return nil
	}
	for _, arg := range args {
		fi, err := os.Stat(arg)
		if err != nil {
			return nil, err
		}
		if fi.IsDir() || filepath.Base(arg) == bundle.FileName {
			if err := add(arg); err != nil {
				return nil, err
			}
			continue
		}
		s, err := tasks.Load(arg)
		if err != nil {
			return nil, err
		}
		var missing []string
		for _, r := range s.Repos {
			dir := filepath.Join(s.Dir, r.Source)
			if tasks.IsGitURL(r.Source) || !bundle.Exists(dir) {
				missing = append(missing, r.ID)
				continue
			}
			if err := add(dir); err != nil {
				return nil, err
			}
		}
		if len(missing) > 0 {
			return nil, fmt.Errorf("%s: repos without an agent.yaml: %s (generate their bundles first: agentnet generate REPO --out DIR, then fleet up the bundle directories)", arg, strings.Join(missing, ", "))
		}
	}
	return specs, nil
}

func upAll(ctx context.Context, rt deploy.Runtime, specs []deploy.Spec, parallel int) ([]*deploy.Agent, error) {
	var mu sync.Mutex
	var started []*deploy.Agent
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(parallel, 1))
	for _, s := range specs {
		g.Go(func() error {
			a, err := rt.Up(gctx, s)
			if err != nil {
				return err
			}
			mu.Lock()
			started = append(started, a)
			mu.Unlock()
			return nil
		})
	}
	err := g.Wait()
	sort.Slice(started, func(i, j int) bool { return started[i].Name < started[j].Name })
	return started, err
}

func downAll(ctx context.Context, rt deploy.Runtime, agents []*deploy.Agent) error {
	var errs []error
	for _, a := range agents {
		if err := rt.Down(ctx, a); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
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

func newFleetDownCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "down",
		Short: "Stop every agent of the fleet and forget it",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := context.WithoutCancel(cmd.Context())
			home := agentnetHomeDir(env)
			st, err := deploy.LoadState(home)
			if err != nil {
				return err
			}
			var left []*deploy.Agent
			var errs []error
			for _, a := range st.Agents {
				rt, err := deploy.Open(a.Runtime, deploy.Config{Self: "agentnet", Env: env.childEnv()})
				if err == nil {
					err = rt.Down(ctx, a)
				}
				if err != nil {
					errs = append(errs, err)
					left = append(left, a)
					continue
				}
				fmt.Fprintf(env.Stdout, "stopped %s\n", a.Name)
			}
			st.Agents = left
			if err := st.Save(home); err != nil {
				errs = append(errs, err)
			}
			return errors.Join(errs...)
		},
	}
}
