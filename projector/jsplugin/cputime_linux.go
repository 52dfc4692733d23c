//go:build linux

package jsplugin

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU pins the calling goroutine to its thread and returns a reader
// of the CPU time that thread has used, which another goroutine may call
// (Linux's per-thread CPU clock); release undoes the pinning.
func threadCPU() (read func() time.Duration, release func()) {
	runtime.LockOSThread()
	// MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED): ~tid << 3 | per-thread | sched.
	id := (^int32(unix.Gettid()))<<3 | 6
	var ts unix.Timespec
	if unix.ClockGettime(id, &ts) != nil {
		runtime.UnlockOSThread()
		return nil, func() {}
	}
	return func() time.Duration {
		var ts unix.Timespec
		if unix.ClockGettime(id, &ts) != nil {
			return 0
		}
		return time.Duration(ts.Nano())
	}, runtime.UnlockOSThread
}
