// Package tasks defines agentnet's suite format — the repos of a benchmark,
// their ground-truth skills and the cases to run (single, chain, commission) —
// with strict loading, validation, tiers, the check vocabulary and the
// embedded demo suite.
//
// A suite is loaded from a YAML or JSON file; every problem is reported at
// once with file:line:column and field:
//
//	s, err := tasks.Load("suite.yaml")
//	if ps, ok := yamlx.AsProblems(err); ok {
//		for _, p := range ps {
//			fmt.Println(p) // suite.yaml:12:7: tasks[3].repo: unknown repo "textkit"
//		}
//	}
//	for _, c := range s.Cases {
//		fmt.Println(c.ID, c.Type, c.Tier())
//	}
//
// The package never names a case "Task": a2a.Task is the protocol's. A case's
// checks are evaluated against an Output (text and files) with Check.Eval.
package tasks
