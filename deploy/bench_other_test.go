//go:build !linux || !(amd64 || arm64)

package deploy_test

import "testing"

// dropPageCache is a no-op where posix_fadvise is not wired up; the RSS
// figures of BenchmarkFleetUp are read from Linux's /proc anyway.
func dropPageCache(tb testing.TB, path string) {
	tb.Logf("the page cache of %s is not dropped on this platform", path)
}
