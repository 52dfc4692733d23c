//go:build windows

package filelock

import (
	"os"

	"golang.org/x/sys/windows"
)

// Windows cannot remove a file another process holds open: the lock file
// stays.
const removeOnUnlock = false

func lockFD(f *os.File) error {
	ol := new(windows.Overlapped)
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, ol)
}

// tryLockFD is never called here (the lock file stays).
func tryLockFD(*os.File) bool { return false }
