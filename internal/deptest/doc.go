// Package deptest holds no code, only a test that keeps the import graph of
// agentnet's packages flowing one way: nothing imports cmd, and nothing but
// cmd imports internal/cli (the command tree wires packages, it holds no
// logic they need); the A2A layer (a2a/...) imports neither the suite format
// (tasks) nor scoring (eval); the format and
// scoring packages (tasks, cards, bundle, eval) import no HTTP server
// framework and no Docker client; gin is imported by the registry alone and
// the Docker client by deploy alone.
package deptest
