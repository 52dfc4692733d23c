package logformat

import (
	"errors"
	"runtime"
	"sync"
	"syscall"
	"time"
)

// The descriptors this package opens for a moment (a directory being
// listed, a small log read whole) are drawn from a budget sized by the
// process's descriptor limit (RLIMIT_NOFILE where there is one): the walk's
// goroutines and the readers then never run the process out of them, which
// made directories spuriously unreadable and the log count vary from run
// to run under a low limit. A file held open while it is streamed is not
// counted: those are bounded by the worker counts.
type fdBudget chan struct{}

// fds is the budget, sized when it is first used (a process may lower its
// limit after start-up).
var fds = sync.OnceValue(func() fdBudget { return newFDBudget(openFileLimit()) })

// fdReserve is left to everything else: the runtime's own descriptors, the
// standard streams, the logs and sidecars being streamed, report files.
const fdReserve = 24

// newFDBudget is the budget under a limit of n open files (n <= 0: none
// known).
func newFDBudget(n int) fdBudget {
	size := 4 * runtime.GOMAXPROCS(0)
	if n > 0 {
		size = min(size, max((n-fdReserve)/2, 1))
	}
	return make(fdBudget, size)
}

// acquire takes a descriptor from the budget, waiting for one, and returns
// the func that gives it back.
func (b fdBudget) acquire() (release func()) {
	b <- struct{}{}
	return func() { <-b }
}

// retryOpen runs open again while it fails for want of descriptors (a
// limit shared with the rest of the process): a short wait, never a
// spurious "unreadable".
func retryOpen[T any](open func() (T, error)) (T, error) {
	wait := time.Millisecond
	for i := 0; ; i++ {
		v, err := open()
		if err == nil || i == 10 || !(errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE)) {
			return v, err
		}
		time.Sleep(wait)
		wait *= 2
	}
}
