// Package answerkey runs a suite's answer key: for every single task and
// every chain, the real call that solves it, run against the real tool and
// checked with the task's own checks. It is how a suite is verified before
// agentnet ever runs on it.
//
// An answer key is a YAML file beside its suite (tasks/demo/solutions.yaml,
// tasks/realdev/<half>/answers.yaml):
//
//	repos:
//	  <repo-id>:
//	    debian: [python3-lxml]     # Debian packages the tool needs (provisioning installs them)
//	    setup: [[go, build, -o, '{{bin}}/tool', .]]   # run in the repo directory
//	    env: {PYTHONPATH: '{{repo}}'}
//	    prefix: ['{{bin}}/tool']   # the command every task of the repo starts with
//	tasks:
//	  <single-id>: [args...]                 # appended to the prefix
//	  <chain-id>: [[args...], [args...]]     # one argv per step
//	commissions:
//	  <commission-id>: {prefix: [...], cases: {<case-id>: [args...]}}
//
// {{repo}} expands to the repo's directory and {{bin}} to a directory for
// built programs. A task runs in a fresh work directory holding its input
// files; a chain's step i+1 runs in one holding step i's standard output as
// input.txt and the files step i wrote.
//
// Use:
//
//	key, err := answerkey.Load("tasks/demo/solutions.yaml")
//	r := &answerkey.Runner{Key: key, Suite: suite, Dirs: dirs, Bin: bin}
//	err = r.Setup(ctx)
//	out, err := r.Run(ctx, &suite.Cases[0], t.TempDir)
//	for _, f := range answerkey.Failures(suite.Cases[0].Expect, out) { ... }
package answerkey
