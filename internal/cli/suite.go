package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentnet/agentnet/internal/yamlx"
	"github.com/agentnet/agentnet/tasks"
)

func newSuiteCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "suite",
		Short: "Check suite files",
	}
	cmd.AddCommand(newSuiteValidateCmd(env))
	return cmd
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
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the summary as JSON")
	return cmd
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
