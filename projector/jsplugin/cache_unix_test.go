//go:build unix

package jsplugin

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestBundleCacheFIFO: a FIFO where the manifest (or the bundle) should be
// is passed over, never waited on.
func TestBundleCacheFIFO(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("DSH_REPLAY_CACHE_DIR", cache)
	dir, _, load := cacheFixture(t)
	load("one")
	ents, _ := os.ReadDir(cache)
	for _, e := range ents {
		p := filepath.Join(cache, e.Name())
		os.Remove(p)
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skipf("no FIFOs here: %v", err)
		}
	}
	done := make(chan int64, 1)
	go func() { done <- load("one") }()
	select {
	case n := <-done:
		if n != 1 {
			t.Errorf("%d builds, want 1", n)
		}
	case <-time.After(time.Minute):
		t.Fatalf("Load(%s) blocked on a FIFO in the cache", dir) // a hang guard
	}
}
