package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/agentnet/agentnet/bench"
	"github.com/agentnet/agentnet/deploy"
	"github.com/agentnet/agentnet/eval"
	"github.com/agentnet/agentnet/internal/llm"
	"github.com/agentnet/agentnet/internal/yamlx"
	"github.com/agentnet/agentnet/tasks"
)

func newSuiteCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "suite",
		Short: "Check suite files",
	}
	cmd.AddCommand(newSuiteValidateCmd(env), newSuiteVerifyCmd(env))
	return cmd
}

func newSuiteVerifyCmd(env *Env) *cobra.Command {
	var (
		asJSON   bool
		judge    string
		runtime  string
		parallel int
	)
	cmd := &cobra.Command{
		Use:   "verify SUITE",
		Short: "Run each commission's reference and controls: the reference must pass, each control must fail",
		Long: `Verify checks that the suite's commission tasks are sound (Zero2Repo's
adversarial check). For each commission that names a reference delivery or
controls, it deploys each of them (as a local process, or in a container with
--runtime docker) and runs it on every development and held-out case and on
the hidden tests (with --runtime docker, in a fresh container beside it).
The reference must pass every case and test; each control (a deliberately
wrong delivery: a hollow one, an overfitted one) must fail at least one
held-out case or hidden test. It prints one row per delivery and exits with
1 when a reference fails or a control passes, 2 when the suite is invalid.`,
		Example: "  agentnet suite verify tasks/demo/suite.yaml\n  agentnet suite verify tasks/demo/suite.yaml --runtime docker",
		Args:    exactArgs(1, "SUITE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := loadSuite(args[0])
			if err != nil {
				return err
			}
			if abs, err := filepath.Abs(s.Path); err == nil {
				s.Path, s.Dir = abs, filepath.Dir(abs)
			}
			if !contains(eval.JudgeNames(), judge) {
				return usageError("unknown judge %q (want one of %s)", judge, strings.Join(eval.JudgeNames(), ", "))
			}
			if !contains(deploy.Runtimes(), runtime) {
				return usageError("unknown runtime %q (want one of %s)", runtime, strings.Join(deploy.Runtimes(), ", "))
			}
			if parallel < 1 {
				return usageError("--parallel must be at least 1, got %d", parallel)
			}
			var model *llm.Config
			if cfg, ok := llm.ConfigFrom(env.getenv); ok {
				model = &cfg
			} else if judge == "llm" {
				return usageError("--judge llm needs a model: set AGENTNET_LLM_BASE_URL, AGENTNET_LLM_MODEL (and AGENTNET_LLM_API_KEY)")
			}
			self, err := env.executable()
			if err != nil {
				return err
			}
			o := bench.VerifyOptions{Suite: s, Self: self, Env: env.childEnv(), Runtime: runtime, Judge: judge, LLM: model,
				Parallel: parallel, Logger: env.logger()}
			if env.IsTerminal {
				o.Progress = env.Stderr
			}
			res, err := bench.Verify(cmd.Context(), o)
			if err != nil {
				return fmt.Errorf("verify %s: %w", s.Name, err)
			}
			if asJSON {
				if err := writeJSON(env.Stdout, res); err != nil {
					return err
				}
			} else {
				writeVerifyTable(env.Stdout, s.Name, res)
			}
			for _, v := range res {
				if !v.Validation.Sound {
					return silentFailure{code: ExitFailed}
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the validations as JSON")
	cmd.Flags().StringVar(&judge, "judge", "rules", "judge: "+strings.Join(eval.JudgeNames(), ", "))
	cmd.Flags().StringVar(&runtime, "runtime", "process", "where the deliveries and hidden tests run: "+strings.Join(deploy.Runtimes(), ", "))
	cmd.Flags().IntVar(&parallel, "parallel", 2, "commissions verified at once at most")
	return cmd
}

// writeVerifyTable prints one row per verified delivery.
func writeVerifyTable(w io.Writer, suite string, res []bench.Verified) {
	if len(res) == 0 {
		fmt.Fprintf(w, "suite %s has no commission with a reference or controls\n", suite)
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "commission\trole\tdelivery\tdev\theld-out\ttests\tverdict\twhy")
	unsound := 0
	for _, v := range res {
		for _, d := range v.Validation.Deliveries {
			tests := "–"
			if d.Tests != nil {
				tests = fmt.Sprintf("%d/%d %s", d.Tests.Passed, d.Tests.Total, d.Tests.Outcome)
			}
			verdict := "ok"
			if !d.OK {
				verdict = "WRONG"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d/%d\t%d/%d\t%s\t%s\t%s\n", v.ID, d.Role, d.Path, d.DevPassed, d.DevTotal,
				d.HeldPassed, d.HeldTotal, tests, verdict, oneLine(d.Reason, 100))
		}
		if !v.Validation.Sound {
			unsound++
		}
	}
	tw.Flush()
	if unsound == 0 {
		fmt.Fprintf(w, "\nsuite %s: %d commission(s) verified: every reference passes, every control fails\n", suite, len(res))
		return
	}
	fmt.Fprintf(w, "\nsuite %s: %d of %d commission(s) unsound\n", suite, unsound, len(res))
}

func newSuiteValidateCmd(env *Env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "validate SUITE",
		Short: "Check a suite file and print every problem with file:line:column",
		Long: `Validate loads a suite (YAML or JSON) and reports every problem at once, each
with its file, line, column and field. On success it prints a one-line
summary: repos, ground-truth skills, and tasks by type and tier.`,
		Example: "  agentnet suite validate tasks/demo/suite.yaml",
		Args:    exactArgs(1, "SUITE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := loadSuite(args[0])
			if err != nil {
				if asJSON {
					return writeProblems(env, args[0], err)
				}
				return err
			}
			sum := summarize(s)
			if asJSON {
				return writeJSON(env.Stdout, sum)
			}
			fmt.Fprintln(env.Stdout, sum.String())
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print the summary as JSON, or the problems as {"valid": false, "problems": [{"file", "line", "column", "field", "message"}]}`)
	return cmd
}

// writeProblems prints a suite's problems as JSON on stdout and exits 2 with
// nothing on stderr; an error that is not a list of problems (a file that
// cannot be read) becomes one problem naming the file.
func writeProblems(env *Env, path string, err error) error {
	ps, ok := yamlx.AsProblems(err)
	if !ok {
		ps = yamlx.Problems{{File: path, Msg: err.Error()}}
	}
	out := struct {
		Valid    bool            `json:"valid"`
		Problems []yamlx.Problem `json:"problems"`
	}{Problems: ps}
	if werr := writeJSON(env.Stdout, out); werr != nil {
		return werr
	}
	return silentFailure{code: exitCode(err)}
}

// loadSuite loads a suite, turning problems with the file into exit code 2.
func loadSuite(path string) (*tasks.Suite, error) {
	s, err := tasks.Load(path)
	if err != nil {
		if _, ok := yamlx.AsProblems(err); ok {
			return nil, invalidInput(err)
		}
		return nil, invalidInput(err)
	}
	return s, nil
}

type suiteSummary struct {
	Name   string                    `json:"name"`
	Repos  int                       `json:"repos"`
	Skills int                       `json:"skills"`
	Tasks  map[string]map[string]int `json:"tasks"` // type → tier → count
}

func summarize(s *tasks.Suite) suiteSummary {
	sum := suiteSummary{Name: s.Name, Repos: len(s.Repos), Tasks: map[string]map[string]int{}}
	for _, r := range s.Repos {
		sum.Skills += len(r.Skills)
	}
	for _, c := range s.Cases {
		m := sum.Tasks[string(c.Type)]
		if m == nil {
			m = map[string]int{}
			sum.Tasks[string(c.Type)] = m
		}
		m[string(c.Tier())]++
	}
	return sum
}

func (s suiteSummary) String() string {
	var parts []string
	for _, typ := range []tasks.CaseType{tasks.Single, tasks.Chain, tasks.Commission} {
		m := s.Tasks[string(typ)]
		total := 0
		var tiers []string
		for _, t := range tasks.Tiers {
			total += m[string(t)]
			if typ != tasks.Commission {
				tiers = append(tiers, fmt.Sprintf("%s %d", t, m[string(t)]))
			}
		}
		if typ == tasks.Commission {
			parts = append(parts, fmt.Sprintf("%d %s", total, typ))
			continue
		}
		parts = append(parts, fmt.Sprintf("%d %s (%s)", total, typ, strings.Join(tiers, ", ")))
	}
	return fmt.Sprintf("suite %s is valid: %d repos, %d skills; tasks: %s", s.Name, s.Repos, s.Skills, strings.Join(parts, "; "))
}
