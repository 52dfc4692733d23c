package filelock

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
)

// Suffix ends the name of a lock file: ".<base of the file>" + Suffix, a
// hidden file that no walk takes for a log.
const Suffix = ".dsh-replay-lock"

// Name is the lock file of path.
func Name(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+Suffix)
}

// ErrAbandoned is what Acquire returns once Abandon has been called.
var ErrAbandoned = errors.New("lock abandoned: the process is ending")

// A Lock is the lock of one file. Acquire, Release and Abandon may be
// called from different goroutines (Abandon from a signal handler).
type Lock struct {
	name      string
	mu        sync.Mutex
	f         *os.File // the lock file opened, held or being waited for
	held      bool
	abandoned bool
}

// New is the lock of path; it takes nothing until Acquire.
func New(path string) *Lock { return &Lock{name: Name(path)} }

// Acquire blocks until this process holds the lock. The lock goes with the
// process however it ends, so a crashed holder never leaves it taken.
func (l *Lock) Acquire() error {
	for {
		// The file is created under mu, so that Abandon either sees it
		// or stops it from being made.
		l.mu.Lock()
		if l.abandoned {
			l.mu.Unlock()
			return ErrAbandoned
		}
		f, err := os.OpenFile(l.name, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			l.mu.Unlock()
			return err
		}
		l.f = f
		l.mu.Unlock()

		err = lockFD(f)

		l.mu.Lock()
		if err != nil {
			f.Close()
			l.f = nil
			l.mu.Unlock()
			return err
		}
		// The holder before us removes the file as it lets go; if we
		// locked a name it removed (or another made anew), try again.
		fst, err1 := f.Stat()
		pst, err2 := os.Stat(l.name)
		if !l.abandoned && err1 == nil && err2 == nil && os.SameFile(fst, pst) {
			l.held = true
			l.mu.Unlock()
			return nil
		}
		f.Close()
		l.f = nil
		l.mu.Unlock()
	}
}

// Release lets the lock go (removing the lock file where the system
// allows); it does nothing if the lock is not held.
func (l *Lock) Release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.held {
		return
	}
	if removeOnUnlock {
		os.Remove(l.name)
	}
	l.f.Close()
	l.f, l.held = nil, false
}

// Abandon is for a signal handler about to end the process: no Acquire
// succeeds after it, and the lock file this process opened is removed if
// no other process holds it (it is then ours or nobody's; removing it is
// what a holder does as it lets go). A file another process holds stays:
// that holder removes it.
func (l *Lock) Abandon() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.abandoned = true
	if l.f == nil || !removeOnUnlock {
		return
	}
	if l.held || tryLockFD(l.f) {
		fst, err1 := l.f.Stat()
		pst, err2 := os.Stat(l.name)
		if err1 == nil && err2 == nil && os.SameFile(fst, pst) {
			os.Remove(l.name)
		}
	}
}
