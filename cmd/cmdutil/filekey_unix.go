//go:build unix

package cmdutil

import (
	"os"
	"syscall"
)

type devIno struct{ dev, ino uint64 }

// fileKey identifies a file by device and inode, so that two names of one
// file (a link) compare equal.
func fileKey(name string, fi os.FileInfo) any {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return devIno{uint64(st.Dev), uint64(st.Ino)}
	}
	return realPath(name)
}
