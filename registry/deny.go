package registry

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// deniedPrefixes are the addresses a registry started with --deny-private
// never fetches from: this host, private networks, link-local (where cloud
// metadata services answer) and the rest that is not the public internet.
// Each entry says why.
var deniedPrefixes = []struct {
	prefix netip.Prefix
	why    string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "this network"},
	{netip.MustParsePrefix("10.0.0.0/8"), "private network"},
	{netip.MustParsePrefix("100.64.0.0/10"), "carrier-grade NAT (cloud metadata on some providers)"},
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local (cloud metadata)"},
	{netip.MustParsePrefix("172.16.0.0/12"), "private network"},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol assignments"},
	{netip.MustParsePrefix("192.168.0.0/16"), "private network"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking network"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},
	{netip.MustParsePrefix("::/128"), "unspecified"},
	{netip.MustParsePrefix("::1/128"), "loopback"},
	{netip.MustParsePrefix("fc00::/7"), "unique local (private network, cloud metadata)"},
	{netip.MustParsePrefix("fe80::/10"), "link-local"},
	{netip.MustParsePrefix("ff00::/8"), "multicast"},
}

// DeniedError is a fetch refused because the card's host resolved to an
// address the registry does not reach (it runs with --deny-private).
type DeniedError struct {
	Host string
	Addr netip.Addr
	Why  string
}

func (e *DeniedError) Error() string {
	if e.Host != "" && e.Host != e.Addr.String() {
		return fmt.Sprintf("%s resolves to %s (%s), which this registry does not fetch from", e.Host, e.Addr, e.Why)
	}
	return fmt.Sprintf("%s is a %s address, which this registry does not fetch from", e.Addr, e.Why)
}

// deniedAddr returns why addr is refused, or "" for a public address. An
// IPv4 address written in IPv6 (::ffff:a.b.c.d, 64:ff9b::a.b.c.d, 2002:
// a.b.c.d::) is judged by the IPv4 address it carries.
func deniedAddr(addr netip.Addr) string {
	addr = addr.Unmap()
	if addr.Is6() {
		b := addr.As16()
		switch {
		case netip.MustParsePrefix("64:ff9b::/96").Contains(addr):
			addr = netip.AddrFrom4([4]byte(b[12:16]))
		case netip.MustParsePrefix("2002::/16").Contains(addr):
			addr = netip.AddrFrom4([4]byte(b[2:6]))
		}
	}
	for _, d := range deniedPrefixes {
		if d.prefix.Contains(addr) {
			return d.why
		}
	}
	return ""
}

// checkHost resolves host and refuses it when any of its addresses is
// denied.
func checkHost(ctx context.Context, r *net.Resolver, host string) error {
	if a, err := netip.ParseAddr(host); err == nil {
		if why := deniedAddr(a); why != "" {
			return &DeniedError{Host: host, Addr: a, Why: why}
		}
		return nil
	}
	addrs, err := r.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return err
	}
	for _, a := range addrs {
		if why := deniedAddr(a); why != "" {
			return &DeniedError{Host: host, Addr: a, Why: why}
		}
	}
	return nil
}

// denyControl is a net.Dialer Control function: it refuses a connection to
// a denied address at the moment of connecting, so a name that resolved to
// a public address a moment before (DNS rebinding) cannot lead inside.
func denyControl(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("connect to %q: not an IP address", address)
	}
	if why := deniedAddr(ap.Addr()); why != "" {
		return &DeniedError{Addr: ap.Addr().Unmap(), Why: why}
	}
	return nil
}

// newTransport returns the card fetcher's transport: the default one's
// settings, and under denyPrivate a dialer that checks every address it
// connects to, and no proxy.
func newTransport(denyPrivate bool) *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	if denyPrivate {
		d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: denyControl}
		t.DialContext = d.DialContext
		t.Proxy = nil
	}
	return t
}
