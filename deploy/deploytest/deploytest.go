// Package deploytest gives tests the machine's Docker daemon: a
// deploy.Jobs on it, or a skipped test when none answers — a failed one
// when AGENTNET_REQUIRE_DOCKER=1, as CI sets it, so that Docker tests never
// pass by skipping there.
package deploytest

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/agentnet/agentnet/deploy"
)

// Required reports whether a test that needs Docker must fail, not skip,
// when it has none.
func Required() bool { return os.Getenv("AGENTNET_REQUIRE_DOCKER") == "1" }

// Jobs returns a deploy.Jobs on the machine's Docker daemon, closed when
// the test ends; without a daemon it skips the test (fails it when
// Required).
func Jobs(t testing.TB) *deploy.Jobs {
	t.Helper()
	skip := t.Skipf
	if Required() {
		skip = t.Fatalf
	}
	jobs, err := deploy.NewJobs(deploy.Config{Env: os.Environ()})
	if err != nil {
		skip("no Docker client: %v", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if err := jobs.Ping(ctx); err != nil {
		jobs.Close(context.Background())
		skip("no Docker daemon answers: %v", err)
	}
	t.Cleanup(func() { jobs.Close(context.Background()) })
	return jobs
}
