package cli

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/agentnet/agentnet/eval"
)

func newCompareCmd(env *Env) *cobra.Command {
	var (
		htmlOut string
		asJSON  bool
	)
	cmd := &cobra.Command{
		Use:   "compare RUN_DIR RUN_DIR...",
		Short: "Put finished runs side by side: the paper's tables with one column per run",
		Long: `Compare reads the results of two or more run directories and prints the
paper's four tables (generation, single-repo SR by tier, skill precision and
recall, chain orchestration and execution SR by tier) with one column per run,
labelled generator × router × judge from the run's config.json, and one column
per difference to the first run. Every rate carries its 95 % Wilson score
interval, so a difference can be read against the noise of the task counts.
--html writes the same as a self-contained HTML page.`,
		Example: `  agentnet compare ~/.agentnet/runs/demo-20261129-101500 ~/.agentnet/runs/demo-20261130-090000
  agentnet compare RUN_A RUN_B RUN_C --html compare.html`,
		Args: minArgs(2, "RUN_DIR", "RUN_DIR..."),
		RunE: func(cmd *cobra.Command, args []string) error {
			var runs []*eval.Run
			for _, dir := range args {
				r, err := eval.LoadRun(dir)
				if err != nil {
					return invalidInput(err)
				}
				runs = append(runs, r)
			}
			c := eval.Compare(runs...)
			switch {
			case asJSON:
				return writeJSON(env.Stdout, c)
			case htmlOut != "":
				if err := writeFileWith(htmlOut, func(f *os.File) error { return eval.WriteComparisonHTML(f, c) }); err != nil {
					return fmt.Errorf("compare: %w", err)
				}
				fmt.Fprintf(env.Stdout, "wrote %s\n", htmlOut)
				return nil
			}
			return eval.WriteComparison(env.Stdout, c)
		},
	}
	cmd.Flags().StringVar(&htmlOut, "html", "", "write the comparison as HTML to `FILE` instead of printing it")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the comparison as JSON")
	return cmd
}

// writeFileWith creates path (0644) and fills it with write.
func writeFileWith(path string, write func(*os.File) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
