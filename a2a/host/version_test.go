package host

import "testing"

// TestVersionSetCheck: versions compare by major.minor; anything that is
// not MAJOR[.MINOR[.PATCH]] in digits is refused; an empty header takes
// the set's default.
func TestVersionSetCheck(t *testing.T) {
	for _, tc := range []struct {
		set       versionSet
		requested string
		ok        bool
	}{
		{jsonrpcVersions, "1.0", true},
		{jsonrpcVersions, "1.0.7", true},
		{jsonrpcVersions, " 0.3 ", true},
		{jsonrpcVersions, "", true},
		{jsonrpcVersions, "1", true},
		{jsonrpcVersions, "1.1", false},
		{jsonrpcVersions, "0.2", false},
		{jsonrpcVersions, "+1.0", false},
		{jsonrpcVersions, "-1.0", false},
		{jsonrpcVersions, "1..0", false},
		{jsonrpcVersions, "1.0.0.0", false},
		{jsonrpcVersions, "v1.0", false},
		{jsonrpcVersions, "99999999999999999999.0", false},
		{bindingVersions, "1.0", true},
		{bindingVersions, "", true},
		{bindingVersions, "0.3", false},
		{bindingVersions, "2.0", false},
	} {
		if why := tc.set.check(tc.requested); (why == "") != tc.ok {
			t.Errorf("%v.check(%q) = %q, want ok=%v", tc.set.served, tc.requested, why, tc.ok)
		}
	}
}
