package fetchpolicy

import (
	"errors"
	"net/http"
	"net/url"
	"testing"
)

func TestSameOrigin(t *testing.T) {
	t.Parallel()
	req := func(raw string) *http.Request {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		return &http.Request{URL: u}
	}
	first := []*http.Request{req("http://a.example:8080/x")}
	check := SameOrigin(MaxRedirects)
	for _, tc := range []struct {
		to   string
		via  []*http.Request
		want bool
	}{
		{"http://A.example:8080/y", first, true},
		{"http://a.example:8081/y", first, false},
		{"https://a.example:8080/y", first, false},
		{"file:///etc/passwd", first, false},
		{"http://a.example:8080/z", []*http.Request{first[0], first[0], first[0], first[0]}, false},
	} {
		err := check(req(tc.to), tc.via)
		var re *RedirectError
		if (err == nil) != tc.want || err != nil && !errors.As(err, &re) {
			t.Errorf("redirect to %s after %d: err = %v, want allowed %v", tc.to, len(tc.via), err, tc.want)
		}
	}
}
