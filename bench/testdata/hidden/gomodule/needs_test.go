// Package needsmodule holds hidden tests that import a module that is
// neither vendored nor in a job's empty module cache.
package needsmodule

import (
	"testing"

	"example.com/absent"
)

func TestAbsent(t *testing.T) {
	absent.Do()
}
