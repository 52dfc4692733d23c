package gctune

import (
	"math"
	"os"
	"runtime/debug"
	"sync"
)

// GCPercent and MemoryLimit are the CLI's collector settings: the live
// heap of a streaming run is small (15-20 MB) and churns fast (verify
// allocates about three bytes per byte of log), so the default GOGC
// collects every few milliseconds. A higher GOGC under a soft memory limit
// keeps peak RSS under 80 MB whatever the log size; 72 MiB rather than 56
// gives the collector half again as much headroom (a third fewer
// collections, about 6% of verify's CPU).
const (
	GCPercent   = 400
	MemoryLimit = 72 << 20
)

// Apply sets them, except where GOGC or GOMEMLIMIT in the environment say
// otherwise (those win), and returns a func restoring what was before.
func Apply() (restore func()) {
	gc, limit := -2, int64(-1)
	if os.Getenv("GOGC") == "" {
		gc = debug.SetGCPercent(GCPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		limit = debug.SetMemoryLimit(MemoryLimit)
	}
	return func() {
		if gc != -2 {
			debug.SetGCPercent(gc)
		}
		if limit >= 0 {
			debug.SetMemoryLimit(limit)
		}
	}
}

// The soft limit bounds streaming. Memory that stays live by design on top
// of it (a zstd frame's large window in its decoder, a loaded plugin's
// compiled program and runtimes) is reserved: the limit is raised by it.
// Under a limit below the live heap the collector runs back to back (a
// 128 MiB window made reading 5-30 times slower; 23 plugins loaded at once
// took 245 s instead of 4). A limit set by GOMEMLIMIT is the user's and is
// left alone.

var (
	memMu       sync.Mutex
	memReserved int64
	memBase     int64
)

// Reserve raises the soft memory limit by n bytes until release is called;
// nil when there is no limit to raise.
func Reserve(n int64) (release func()) {
	if os.Getenv("GOMEMLIMIT") != "" || n <= 0 {
		return nil
	}
	memMu.Lock()
	defer memMu.Unlock()
	if memReserved == 0 {
		memBase = debug.SetMemoryLimit(-1)
	}
	if memBase == math.MaxInt64 {
		return nil
	}
	memReserved += n
	debug.SetMemoryLimit(memBase + memReserved)
	var once sync.Once
	return func() {
		once.Do(func() {
			memMu.Lock()
			defer memMu.Unlock()
			memReserved -= n
			debug.SetMemoryLimit(memBase + memReserved)
		})
	}
}
