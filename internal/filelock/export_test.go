package filelock

import "os"

// opened is the lock file Acquire has open (tests wait on it).
func (l *Lock) opened() *os.File {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f
}
