package registry

import "github.com/agentnet/agentnet/internal/fetchpolicy"

// The registry's address policy under --deny-private is package
// fetchpolicy's, which a host's file fetches share.

// DeniedError is a fetch refused because the card's host resolved to an
// address the registry does not reach (it runs with --deny-private).
type DeniedError = fetchpolicy.DeniedError

var (
	deniedAddr   = fetchpolicy.Denied
	checkHost    = fetchpolicy.CheckHost
	newTransport = fetchpolicy.Transport
)
