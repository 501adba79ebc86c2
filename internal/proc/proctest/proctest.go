// Package proctest helps tests watch processes end.
package proctest

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Gone reports whether process pid has ended — exited, or a zombie no one
// has reaped yet — within wait. A process group killed a moment ago ends
// asynchronously: the kernel delivers the signal after kill returns.
func Gone(pid int, wait time.Duration) bool {
	deadline := time.Now().Add(wait)
	for {
		if syscall.Kill(pid, 0) != nil || zombie(pid) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func zombie(pid int) bool {
	st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return err != nil || strings.Contains(string(st), ") Z ")
}
