package filelock

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

// TestLockSerialises: writers doing read-modify-write of one file under the
// lock lose no increment, and the lock file is gone afterwards (unix).
func TestLockSerialises(t *testing.T) {
	path := filepath.Join(t.TempDir(), "counter.jsonl")
	if err := os.WriteFile(path, []byte("0"), 0o644); err != nil {
		t.Fatal(err)
	}
	const workers, each = 8, 50
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range each {
				unlock, err := Lock(path)
				if err != nil {
					t.Error(err)
					return
				}
				b, _ := os.ReadFile(path)
				n, _ := strconv.Atoi(string(b))
				os.WriteFile(path, []byte(strconv.Itoa(n+1)), 0o644)
				unlock()
			}
		})
	}
	wg.Wait()
	b, _ := os.ReadFile(path)
	if string(b) != strconv.Itoa(workers*each) {
		t.Errorf("counter %s, want %d: an increment was lost", b, workers*each)
	}
	if _, err := os.Stat(Name(path)); removeOnUnlock && err == nil {
		t.Errorf("the lock file %s is left behind", Name(path))
	}
}

func TestLockInMissingDirectory(t *testing.T) {
	if _, err := Lock(filepath.Join(t.TempDir(), "no", "such.jsonl")); err == nil {
		t.Error("a lock beside a file in a missing directory succeeded")
	}
}
