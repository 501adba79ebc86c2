package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentnet/agentnet/bench"
	"github.com/agentnet/agentnet/internal/llm"
	"github.com/agentnet/agentnet/orchestrator"
	"github.com/agentnet/agentnet/registry"
	"github.com/agentnet/agentnet/tasks"
)

func newRunCmd(env *Env) *cobra.Command {
	var (
		suitePath, registryURL, routerSpec, outDir string
		stepTimeout                                time.Duration
		asJSON                                     bool
	)
	cmd := &cobra.Command{
		Use:   "run CASE_ID --suite SUITE --registry URL",
		Short: "Run one chain or single case against a deployed fleet; print each step",
		Long: `Run routes each step of a chain case (or the one step of a single case) to an
agent chosen from the registry's cards by the router, sends it through a
recording proxy, and passes its output (text and files) on to the next step.
It prints each step: the agent routed to, the repo expected, the outcome and
the time; then whether every step reached its repo's agent (orchestration)
and the case's checks on the last step's output.

Routers: bm25 (default), llm (needs AGENTNET_LLM_BASE_URL and
AGENTNET_LLM_MODEL), a2a=URL (your own orchestrator agent gets the whole
chain and a view of the registry; which agent did each step is observed).

With --out DIR it writes DIR/trace.jsonl (every A2A request, response and
streamed event), DIR/result.json and each step's output files under
DIR/steps/N/. The exit code is 0 when the chain ran, every step reached its
repo's agent and the checks passed; 1 otherwise.`,
		Example: `  agentnet run chain-backtest-chart --suite tasks/demo/suite.yaml --registry http://127.0.0.1:8700
  agentnet run textstats-top-words --suite suite.yaml --registry http://127.0.0.1:8700 --router llm
  agentnet run html-to-top-words --suite suite.yaml --router a2a=http://127.0.0.1:9900 --out runs/one`,
		Args: exactArgs(1, "CASE_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if suitePath == "" {
				return usageError("run: --suite is required (see 'agentnet run --help')")
			}
			if stepTimeout < 0 {
				return usageError("run: --timeout must be positive, got %s", stepTimeout)
			}
			s, err := loadSuite(suitePath)
			if err != nil {
				return err
			}
			c, chain, err := chainOf(s, args[0])
			if err != nil {
				return err
			}
			rcfg := orchestrator.RouterConfig{Logger: env.logger()}
			if cfg, ok := llm.ConfigFrom(env.Getenv); ok {
				rcfg.LLM = llm.New(cfg)
			}
			router, err := orchestrator.NewRouter(routerSpec, rcfg)
			if err != nil {
				return usageError("run: --router: %v", err)
			}
			opts := []orchestrator.Option{
				orchestrator.WithLogger(env.logger()),
				orchestrator.WithRegistryURL(registryURL),
				orchestrator.WithRouterName(routerSpec),
			}
			if stepTimeout > 0 {
				opts = append(opts, orchestrator.WithStepTimeout(stepTimeout))
			}
			r := orchestrator.New(bench.RegistryDirectory{C: registry.NewClient(registryURL)}, router, opts...)
			defer r.Close()
			return runCase(cmd.Context(), env, r, c, chain, outDir, asJSON)
		},
	}
	f := cmd.Flags()
	f.StringVar(&suitePath, "suite", "", "the suite file holding the case (required)")
	f.StringVar(&registryURL, "registry", defaultRegistryURL, "the registry of the deployed fleet")
	f.StringVar(&routerSpec, "router", "bm25", "how steps are routed: "+strings.Join(orchestrator.Routers(), ", ")+" (a2a=URL)")
	f.DurationVar(&stepTimeout, "timeout", 0, "timeout of each step without one in the suite (default 2m)")
	f.StringVar(&outDir, "out", "", "write the trace, the result and the step outputs to this directory")
	f.BoolVar(&asJSON, "json", false, "print the result as JSON")
	return cmd
}

// chainOf turns a suite's case into a chain: a chain case's steps, or a
// single case as one step.
func chainOf(s *tasks.Suite, id string) (*tasks.Case, orchestrator.Chain, error) {
	var c *tasks.Case
	var ids []string
	for i := range s.Cases {
		if s.Cases[i].ID == id {
			c = &s.Cases[i]
		}
		if s.Cases[i].Type != tasks.Commission {
			ids = append(ids, s.Cases[i].ID)
		}
	}
	if c == nil {
		return nil, orchestrator.Chain{}, invalidInput(fmt.Errorf("%s: no case %q (cases: %s)", s.Path, id, strings.Join(ids, ", ")))
	}
	if c.Type == tasks.Commission {
		return nil, orchestrator.Chain{}, invalidInput(fmt.Errorf("%s: case %q is a %s; run takes single and chain cases", s.Path, id, c.Type))
	}
	ch, err := orchestrator.FromCase(c, s.Dir)
	if err != nil {
		return nil, ch, invalidInput(fmt.Errorf("%s: %w", s.Path, err))
	}
	return c, ch, nil
}

// runResult is what `run --json` prints and --out keeps.
type runResult struct {
	*orchestrator.Result
	Case   string         `json:"case"`
	Type   string         `json:"type"`
	Passed *bool          `json:"checks_passed,omitempty"`
	Checks []tasks.Result `json:"checks,omitempty"`
	Trace  string         `json:"trace,omitempty"`
}

func runCase(ctx context.Context, env *Env, r *orchestrator.Runner, c *tasks.Case, ch orchestrator.Chain, outDir string, asJSON bool) error {
	var trace io.Writer
	var traceFile *os.File
	if outDir != "" {
		if err := os.MkdirAll(outDir, 0o755); err != nil {
			return fmt.Errorf("run: %w", err)
		}
		f, err := os.Create(filepath.Join(outDir, "trace.jsonl"))
		if err != nil {
			return fmt.Errorf("run: %w", err)
		}
		traceFile, trace = f, f
	}
	res, err := r.Run(ctx, ch, trace)
	if traceFile != nil {
		if cerr := traceFile.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("run: write trace: %w", cerr)
		}
	}
	if err != nil {
		return err
	}
	out := runResult{Result: res, Case: c.ID, Type: string(c.Type)}
	if len(c.Expect) > 0 && res.Outcome == orchestrator.OK {
		passed, checks := tasks.Eval(c.Expect, res.Output.ForChecks())
		out.Passed, out.Checks = &passed, checks
	} else if len(c.Expect) > 0 {
		failed := false
		out.Passed = &failed
	}
	if outDir != "" {
		out.Trace = filepath.Join(outDir, "trace.jsonl")
		if err := writeRunDir(outDir, &out); err != nil {
			return err
		}
	}
	if asJSON {
		if err := writeJSON(env.Stdout, out); err != nil {
			return err
		}
	} else {
		printRun(env.Stdout, &out)
	}
	if res.Outcome != orchestrator.OK || !res.OrchestrationOK || (out.Passed != nil && !*out.Passed) {
		return silentFailure{code: ExitFailed}
	}
	return nil
}

func writeRunDir(dir string, out *runResult) error {
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "result.json"), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("run: %w", err)
	}
	for _, st := range out.Steps {
		if st.Output == nil {
			continue
		}
		sd := filepath.Join(dir, "steps", fmt.Sprint(st.Step))
		if err := os.MkdirAll(sd, 0o755); err != nil {
			return fmt.Errorf("run: %w", err)
		}
		if st.Output.Text != "" {
			if err := os.WriteFile(filepath.Join(sd, "output.txt"), []byte(st.Output.Text), 0o644); err != nil {
				return fmt.Errorf("run: %w", err)
			}
		}
		for _, f := range st.Output.Files {
			// Names come from agents: keep the base name only.
			name := filepath.Base(filepath.Clean("/" + f.Name))
			if name == "/" || name == "." {
				continue
			}
			if err := os.WriteFile(filepath.Join(sd, name), f.Data, 0o644); err != nil {
				return fmt.Errorf("run: %w", err)
			}
		}
	}
	return nil
}

func printRun(w io.Writer, out *runResult) {
	res := out.Result
	fmt.Fprintf(w, "case %s (%s) · router %s · context %s\n", out.Case, out.Type, res.Router, res.ContextID)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "STEP\tROUTED\tEXPECTED\tOUTCOME\tTIME")
	for _, st := range res.Steps {
		routed := "-"
		if st.Observed != nil {
			routed = st.Observed.Name
		} else if st.Routed != nil {
			routed = st.Routed.Name
		}
		mark := ""
		if st.Observed != nil && !st.Correct {
			mark = " (wrong agent)"
		}
		fmt.Fprintf(tw, "%d\t%s%s\t%s\t%s\t%s\n", st.Step, routed, mark, st.Expected, st.Outcome, time.Duration(st.TotalMS*float64(time.Millisecond)).Round(time.Millisecond))
	}
	tw.Flush()
	for _, st := range res.Steps {
		if st.Outcome != orchestrator.OK && st.Outcome != orchestrator.Skipped {
			fmt.Fprintf(w, "step %d: %s: %s\n", st.Step, st.Outcome, st.Detail)
		}
	}
	if res.OrchestrationOK {
		fmt.Fprintln(w, "orchestration: ok (every step reached its repo's agent)")
	} else {
		fmt.Fprintln(w, "orchestration: failed")
	}
	if out.Passed != nil {
		n := 0
		for _, c := range out.Checks {
			if c.Pass {
				n++
			}
		}
		if len(out.Checks) == 0 {
			fmt.Fprintln(w, "checks: not run (the chain did not finish)")
		} else {
			fmt.Fprintf(w, "checks: %d/%d passed\n", n, len(out.Checks))
		}
		for _, c := range out.Checks {
			if c.Pass {
				fmt.Fprintf(w, "  ok    %s\n", c.Check)
			} else {
				fmt.Fprintf(w, "  FAIL  %s: %s\n", c.Check, c.Reason)
			}
		}
	}
	if res.Tokens > 0 {
		fmt.Fprintf(w, "tokens: %d\n", res.Tokens)
	}
	if out.Trace != "" {
		fmt.Fprintf(w, "trace: %s\n", out.Trace)
	}
	fmt.Fprintf(w, "time: %s\n", time.Duration(res.ElapsedMS*float64(time.Millisecond)).Round(time.Millisecond))
}
