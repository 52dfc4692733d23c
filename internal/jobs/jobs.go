// Package jobs is the worker-count policy every parallel stage shares
// (--jobs): decoding and verifying are bound by the CPU.
package jobs

import "runtime"

// Max bounds every worker count: more workers than a few per core add
// nothing but memory (a million asked for took 2.8 GB to verify seven
// calls).
func Max() int { return 4 * runtime.GOMAXPROCS(0) }

// Count is a --jobs value as a worker count: 0 or less is GOMAXPROCS, and
// never more than Max.
func Count(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return min(n, Max())
}
