// Package cli wires agentnet's command line: the cobra command tree, the
// process state every command reads from (Env), configuration and the single
// place where errors become exit codes.
//
// Commands never touch os.Args, os.Getenv, os.Stdout or os.Exit directly; they
// read and write through the Env they are given, so tests run them in-process:
//
//	var out, errb bytes.Buffer
//	env := &cli.Env{Args: []string{"suite", "validate", "suite.yaml"}, Stdout: &out, Stderr: &errb,
//		Getenv: func(string) string { return "" }}
//	code := cli.Main(env)
//
// Exit codes follow the contract: 0 done, 1 the command ran and failed, 2 bad
// usage or invalid input.
package cli
