//go:build unix

package atomicwrite

import (
	"os"
	"syscall"
)

// lockFile takes the lock that marks a temporary file as being written; it
// goes with the process, however the process ends.
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			return err
		}
	}
}

// removeIfStale removes a temporary file whose writer is gone: nobody holds
// its lock.
func removeIfStale(p string) bool {
	if st, err := os.Lstat(p); err != nil || !st.Mode().IsRegular() {
		return false
	}
	// Non-blocking: a FIFO put in the file's place between the two calls
	// must not hang the sweep.
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return false // being written, or the lock cannot be taken here
	}
	fst, err1 := f.Stat()
	pst, err2 := os.Lstat(p)
	if err1 != nil || err2 != nil || !os.SameFile(fst, pst) {
		return false
	}
	return os.Remove(p) == nil
}

// CrashedByHook reports whether a process ended as the crash hook ends it.
func CrashedByHook(ps *os.ProcessState) bool {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}
