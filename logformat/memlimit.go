package logformat

import (
	"math"
	"os"
	"runtime/debug"
	"sync"
)

// The CLI runs under a soft memory limit sized for streaming
// (internal/gctune). A zstd frame with a large window keeps that window of
// plaintext live in its decoder; under a limit below the live heap the
// collector runs back to back (a 128 MiB window made reading 5-30 times
// slower). While such a decoder lives, the limit is raised by its window.
// A limit set by GOMEMLIMIT is the user's and is left alone.

var (
	memMu       sync.Mutex
	memReserved int64
	memBase     int64
)

// reserveMemory raises the soft memory limit by n until release is called;
// nil when there is no limit to raise.
func reserveMemory(n int64) (release func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
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
