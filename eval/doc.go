// Package eval scores agentnet runs: the SW-A²-Bench metrics (pass@k of
// generation, tries, tokens per repo, single-repo success rate by tier, skill
// precision and recall, orchestration and execution success of chains, and
// per chain step routing accuracy and Recall@1/@3 of the expected agent), the
// skill matcher behind precision and recall, and the judges that decide
// whether an output passes.
//
// The metric functions are pure and take plain values, so they can be checked
// against hand-computed numbers:
//
//	eval.PassAtK(5, 2, 3)            // 1 − C(3,3)/C(5,3) = 0.9
//	m := eval.MatchSkills(generated, truth, eval.DefaultMatchThreshold)
//	m.Precision, m.Recall            // shares in 0–1
//
// Percentages in results are 0–100; the functions here return shares in 0–1
// and the results layer scales them.
//
// Runs are reported as text tables (WriteTables), as JUnit XML for a CI
// (JUnit), and as a self-contained HTML page whose trace viewer reads the run
// directory: each task's steps, inputs, outputs and A2A messages, each repo's
// generation record (NewView, WriteRunHTML). Every rate carries its 95 %
// Wilson score interval (Wilson, Count). Several runs are compared side by
// side with the paper's tables, one column per run:
//
//	a, _ := eval.LoadRun("runs/demo-static")
//	b, _ := eval.LoadRun("runs/demo-llm")
//	eval.WriteComparison(os.Stdout, eval.Compare(a, b))
package eval
