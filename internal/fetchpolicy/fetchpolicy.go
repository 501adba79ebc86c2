// Package fetchpolicy is the one address and redirect policy of every
// fetch agentnet makes on another party's word: the registry fetching a
// card it was told of, and a host fetching a file a message points at.
//
// Under deny-private, a fetch never reaches this host, a private network,
// link-local addresses (where cloud metadata answers) or the rest that is
// not the public internet: the name is resolved and checked before the
// request (CheckHost), and the dialer checks again the address it connects
// to (Control), so that DNS rebinding cannot lead inside. Redirects stay on
// the first request's origin, at most MaxRedirects of them (SameOrigin).
//
//	client := &http.Client{Transport: fetchpolicy.Transport(true), CheckRedirect: fetchpolicy.SameOrigin(fetchpolicy.MaxRedirects)}
package fetchpolicy

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"syscall"
	"time"
)

// MaxRedirects is how many redirects a fetch follows at most.
const MaxRedirects = 3

// deniedPrefixes are the addresses a fetch under deny-private never
// reaches. Each entry says why.
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

// DeniedError is a fetch refused because the host resolved to an address
// that is not fetched from under deny-private.
type DeniedError struct {
	Host string
	Addr netip.Addr
	Why  string
}

func (e *DeniedError) Error() string {
	if e.Host != "" && e.Host != e.Addr.String() {
		return fmt.Sprintf("%s resolves to %s (%s), which is not fetched from under deny-private", e.Host, e.Addr, e.Why)
	}
	return fmt.Sprintf("%s is a %s address, which is not fetched from under deny-private", e.Addr, e.Why)
}

// Denied returns why addr is refused, or "" for a public address. An IPv4
// address written in IPv6 (::ffff:a.b.c.d, 64:ff9b::a.b.c.d, 2002:
// a.b.c.d::) is judged by the IPv4 address it carries.
func Denied(addr netip.Addr) string {
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

// CheckHost resolves host and refuses it when any of its addresses is
// denied.
func CheckHost(ctx context.Context, r *net.Resolver, host string) error {
	if a, err := netip.ParseAddr(host); err == nil {
		if why := Denied(a); why != "" {
			return &DeniedError{Host: host, Addr: a, Why: why}
		}
		return nil
	}
	addrs, err := r.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return err
	}
	for _, a := range addrs {
		if why := Denied(a); why != "" {
			return &DeniedError{Host: host, Addr: a, Why: why}
		}
	}
	return nil
}

// Control is a net.Dialer Control function: it refuses a connection to a
// denied address at the moment of connecting, so a name that resolved to a
// public address a moment before (DNS rebinding) cannot lead inside.
func Control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("connect to %q: not an IP address", address)
	}
	if why := Denied(ap.Addr()); why != "" {
		return &DeniedError{Addr: ap.Addr().Unmap(), Why: why}
	}
	return nil
}

// Transport returns a fetcher's transport: the default one's settings, and
// under denyPrivate a dialer that checks every address it connects to, and
// no proxy (a proxy's address is not the fetched one's).
func Transport(denyPrivate bool) *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	if denyPrivate {
		d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: Control}
		t.DialContext = d.DialContext
		t.Proxy = nil
	}
	return t
}

// RedirectError is a redirect a fetch refuses to follow.
type RedirectError struct{ Msg string }

func (e *RedirectError) Error() string { return e.Msg }

// SameOrigin is an http.Client CheckRedirect function: a redirect stays on
// the first request's origin (scheme and host), over http or https, at most
// max times. Following one to another host would let whoever names the
// URL make the fetcher reach wherever it can.
func SameOrigin(max int) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) > max {
			return &RedirectError{fmt.Sprintf("more than %d redirects", max)}
		}
		if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
			return &RedirectError{fmt.Sprintf("redirect to a %s URL", req.URL.Scheme)}
		}
		if o := via[0].URL; req.URL.Scheme != o.Scheme || !strings.EqualFold(req.URL.Host, o.Host) {
			return &RedirectError{fmt.Sprintf("redirect to another origin (%s://%s)", req.URL.Scheme, req.URL.Host)}
		}
		return nil
	}
}
