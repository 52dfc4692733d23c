package gctune

import (
	"os"
	"runtime/debug"
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
