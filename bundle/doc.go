// Package bundle defines the agent bundle: the agent.yaml file
// (docs/bundle.md) that says how a repository becomes an agent — its setup
// and check commands, its skills with their parameter schemas and argv
// templates, or a server of its own.
//
// Load reads a bundle directory (or its agent.yaml) strictly and reports every
// problem at once, each with file:line:column and field:
//
//	b, err := bundle.Load("out/textkit")
//	if ps, ok := yamlx.AsProblems(err); ok {
//		for _, p := range ps {
//			fmt.Println(p) // out/textkit/agent.yaml:14:9: skills[0].run[3]: {{count}} is not a declared parameter
//		}
//	}
//
// A loaded bundle's skills carry their compiled params schema: Skill.Check
// validates arguments, Skill.Argv expands the run template into the argv of a
// process (never a shell command line):
//
//	sk := b.Skill("word-frequency")
//	args := sk.WithDefaults(map[string]any{"file": "alice.txt"})
//	if issues := sk.Check(args); issues != nil { ... }
//	argv, err := sk.Argv(bundle.Vars{Repo: b.RepoDir(), Bundle: b.AbsDir(), Workdir: dir}, args)
//
// A parameter that names a file says so in its schema: format: path for a
// file the run reads, format: output-path for one it writes; the host keeps
// both inside the task's work directory. Load refuses a parameter that the
// template passes to an output-file option (-o, --output, ...) without
// saying it names a file (see OutputFlag).
//
// The built-in template variables are {{repo}} (the repo's directory),
// {{bundle}} (the bundle's directory, where generated wrappers live beside
// agent.yaml), {{workdir}} (the task's work directory) and {{port}} (a free
// port, for serve). Setup and check commands know {{repo}} and {{bundle}}
// only; no parameter may take a built-in's name.
//
// The package is a leaf: generation, the host and deployment import it; it
// imports no server, client or runtime.
package bundle
