package binding

import "testing"

func TestParse(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Binding{"": JSONRPC, "jsonrpc": JSONRPC, "REST": REST, " grpc ": GRPC} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := Parse("soap"); err == nil {
		t.Error("Parse(soap) succeeded, want an error")
	}
}

func TestTarget(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in, target string
		secure     bool
	}{
		{"http://127.0.0.1:8080/", "127.0.0.1:8080", false},
		{"http://localhost:9/a2a/v1", "localhost:9", false},
		{"https://agent.example/", "agent.example:443", true},
		{"http://[::1]/", "[::1]:80", false},
		{"127.0.0.1:9000", "127.0.0.1:9000", false},
		{"dns:///agent.example:443", "dns:///agent.example:443", false},
	} {
		target, secure, err := Target(c.in)
		if err != nil || target != c.target || secure != c.secure {
			t.Errorf("Target(%q) = %q, %v, %v; want %q, %v", c.in, target, secure, err, c.target, c.secure)
		}
	}
	for _, bad := range []string{"", "http:///nohost"} {
		if _, _, err := Target(bad); err == nil {
			t.Errorf("Target(%q) succeeded, want an error", bad)
		}
	}
}
