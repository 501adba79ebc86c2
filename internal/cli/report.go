package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/agentnet/agentnet/eval"
)

func newReportCmd(env *Env) *cobra.Command {
	var htmlOut string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "report RUN_DIR",
		Short: "Re-print a finished run's tables, or write its HTML report",
		Long: `Report reads RUN_DIR/results.json and prints the paper-style tables:
generation (Pass@1, Pass@k, tries, tokens), single-repo SR by tier, skill
precision and recall, chain orchestration and execution SR by tier, and
commission results. --html writes the self-contained HTML report to a file.`,
		Example: "  agentnet report ~/.agentnet/runs/demo-20261129-101500\n  agentnet report RUN_DIR --html report.html",
		Args:    exactArgs(1, "RUN_DIR"),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := eval.LoadResults(args[0])
			if err != nil {
				return invalidInput(err)
			}
			if asJSON {
				return writeJSON(env.Stdout, r)
			}
			if htmlOut != "" {
				f, err := os.Create(htmlOut)
				if err != nil {
					return fmt.Errorf("write HTML report: %w", err)
				}
				v := eval.NewView(r, args[0])
				if abs, err := filepath.Abs(htmlOut); err == nil {
					if runAbs, err := filepath.Abs(args[0]); err == nil {
						v.LinkBase, _ = filepath.Rel(filepath.Dir(abs), runAbs)
					}
				}
				if err := v.WriteHTML(f); err != nil {
					f.Close()
					return err
				}
				if err := f.Close(); err != nil {
					return fmt.Errorf("write HTML report: %w", err)
				}
				fmt.Fprintf(env.Stdout, "wrote %s\n", htmlOut)
				return nil
			}
			return eval.WriteTables(env.Stdout, r)
		},
	}
	cmd.Flags().StringVar(&htmlOut, "html", "", "write the HTML report to `FILE` instead of printing tables")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print results.json")
	return cmd
}
