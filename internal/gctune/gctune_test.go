package gctune

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestApply: Apply sets the CLI's settings and restore puts back what was
// there; GOGC and GOMEMLIMIT in the environment keep theirs.
func TestApply(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetGCPercent(debug.SetGCPercent(123))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 40))
	restore := Apply()
	if got := debug.SetGCPercent(-1); got != GCPercent {
		t.Errorf("GOGC %d, want %d", got, GCPercent)
	}
	debug.SetGCPercent(GCPercent)
	if got := debug.SetMemoryLimit(-1); got != MemoryLimit {
		t.Errorf("memory limit %d, want %d", got, MemoryLimit)
	}
	restore()
	if got := debug.SetGCPercent(-1); got != 123 {
		t.Errorf("after restore GOGC %d, want 123", got)
	}
	debug.SetGCPercent(123)
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("after restore memory limit %d, want %d", got, int64(1<<40))
	}

	t.Setenv("GOGC", "50")
	t.Setenv("GOMEMLIMIT", "1GiB")
	restore = Apply()
	if got := debug.SetGCPercent(-1); got != 123 {
		t.Errorf("with GOGC set: %d, want it left at 123", got)
	}
	debug.SetGCPercent(123)
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("with GOMEMLIMIT set: %d, want it left alone", got)
	}
	restore()
}

// TestReserve: a reservation raises the soft limit by its size until it is
// released (twice is once); none is made under the user's GOMEMLIMIT, or
// when there is no limit.
func TestReserve(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(MemoryLimit))
	limit := func() int64 { return debug.SetMemoryLimit(-1) }
	a := Reserve(10 << 20)
	b := Reserve(5 << 20)
	if a == nil || b == nil || limit() != MemoryLimit+15<<20 {
		t.Fatalf("limit %d, want %d", limit(), MemoryLimit+15<<20)
	}
	a()
	a()
	if limit() != MemoryLimit+5<<20 {
		t.Errorf("after one release: %d, want %d", limit(), MemoryLimit+5<<20)
	}
	b()
	if limit() != MemoryLimit {
		t.Errorf("after both: %d, want %d", limit(), int64(MemoryLimit))
	}
	if Reserve(0) != nil {
		t.Error("a reservation of nothing was made")
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	if Reserve(1<<20) != nil {
		t.Error("a reservation was made under the user's GOMEMLIMIT")
	}
	t.Setenv("GOMEMLIMIT", "")
	debug.SetMemoryLimit(math.MaxInt64)
	if Reserve(1<<20) != nil {
		t.Error("a reservation was made with no limit to raise")
	}
}
