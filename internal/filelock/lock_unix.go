//go:build unix

package filelock

import (
	"os"
	"syscall"
)

// On unix the holder removes the lock file before it unlocks: a waiter that
// then wins the old, unlinked file sees it is gone and opens the name
// again.
const removeOnUnlock = true

func lockFD(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			return err
		}
	}
}

// tryLockFD takes the lock without waiting; it reports whether it did.
func tryLockFD(f *os.File) bool {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err != syscall.EINTR {
			return err == nil
		}
	}
}
