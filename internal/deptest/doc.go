// Package deptest holds no code, only a test that keeps the import graph of
// agentnet's packages flowing one way: nothing imports cmd; the format and
// scoring packages (tasks, cards, bundle, eval) import no HTTP server
// framework and no Docker client; gin is imported by the registry alone and
// the Docker client by deploy alone.
package deptest
