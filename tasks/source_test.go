package tasks

import (
	"path/filepath"
	"testing"
)

func TestSourceOf(t *testing.T) {
	t.Parallel()
	s := &Suite{Dir: "/suites/x"}
	for _, tc := range []struct{ source, want string }{
		{"repos/a", filepath.Join("/suites/x", "repos/a")},
		{"/abs/b", "/abs/b"},
		{"https://github.com/o/n", "https://github.com/o/n"},
		{"git@host:o/n.git", "git@host:o/n.git"},
	} {
		if got := s.SourceOf(Repo{Source: tc.source}); got != tc.want {
			t.Errorf("SourceOf(%q) = %q, want %q", tc.source, got, tc.want)
		}
	}
}
