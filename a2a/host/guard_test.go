package host

import (
	"strings"
	"testing"
)

func TestJSONDepth(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		json string
		want int
	}{
		{`{}`, 1},
		{`{"a":[1,{"b":[]}]}`, 4},
		{`"[[[["`, 0},
		{`{"a":"[\"[[{"}`, 1},
		{`{"a":"\\\\"}` + `[[`, 2},
		{`{"a":"x\\"}`, 1},
		{`["\\\"[", [["\\"]]]`, 3},
		{`{"unterminated": "[[[`, 1},
		{strings.Repeat("[", 100) + strings.Repeat("]", 100), 65}, // counting stops past the limit
	} {
		if got := jsonDepth([]byte(tc.json), 64); got != tc.want {
			t.Errorf("jsonDepth(%s) = %d, want %d", tc.json, got, tc.want)
		}
	}
}
