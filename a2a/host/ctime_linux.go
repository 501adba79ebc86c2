package host

import (
	"io/fs"
	"syscall"
)

// changeTime is the file's status change time in nanoseconds: set by every
// write, and by no call a program can make to set it back.
func changeTime(info fs.FileInfo) int64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return st.Ctim.Nano()
	}
	return 0
}
