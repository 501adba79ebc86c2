package fetchpolicy

import (
	"bytes"
	"encoding/hex"
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

func TestVouch(t *testing.T) {
	t.Parallel()
	key, err := NewKey()
	if err != nil {
		t.Fatal(err)
	}
	other, _ := NewKey()
	const u = "http://127.0.0.1:9001/files/abc/out.bin"
	v := Vouch(key, u)
	switch {
	case !Vouched(key, u, v):
		t.Error("a URL's own vouch is refused")
	case Vouched(key, u+"x", v):
		t.Error("the vouch of one URL passes for another")
	case Vouched(other, u, v):
		t.Error("a vouch under another key passes")
	case Vouched(nil, u, Vouch(nil, u)):
		t.Error("with no key, a vouch passes")
	case Vouched(key, u, ""), Vouched(key, u, "zz"):
		t.Error("an empty or malformed vouch passes")
	}
	if k, err := ParseKey(hex.EncodeToString(key)); err != nil || !bytes.Equal(k, key) {
		t.Errorf("ParseKey(hex of the key) = %x, %v", k, err)
	}
	if _, err := ParseKey("abcd"); err == nil {
		t.Error("ParseKey of a 2-byte key: no error")
	}
}
