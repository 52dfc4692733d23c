package gctune

import (
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
