//go:build amd64 || arm64

package deploy_test

import (
	"os"
	"syscall"
	"testing"
)

// dropPageCache writes out the file at path and drops its pages from the
// page cache (posix_fadvise POSIX_FADV_DONTNEED), so that the processes
// started next read it from the disk.
func dropPageCache(tb testing.TB, path string) {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		tb.Fatalf("sync %s: %v", path, err)
	}
	const dontNeed = 4 // POSIX_FADV_DONTNEED
	if _, _, errno := syscall.Syscall6(syscall.SYS_FADVISE64, f.Fd(), 0, 0, dontNeed, 0, 0); errno != 0 {
		tb.Fatalf("drop the page cache of %s: %v", path, errno)
	}
}
