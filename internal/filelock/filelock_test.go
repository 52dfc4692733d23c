package filelock

import (
	"os"
	"path/filepath"
	"runtime"
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
				l := New(path)
				if err := l.Acquire(); err != nil {
					t.Error(err)
					return
				}
				b, _ := os.ReadFile(path)
				n, _ := strconv.Atoi(string(b))
				os.WriteFile(path, []byte(strconv.Itoa(n+1)), 0o644)
				l.Release()
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
	if err := New(filepath.Join(t.TempDir(), "no", "such.jsonl")).Acquire(); err == nil {
		t.Error("a lock beside a file in a missing directory succeeded")
	}
}

// TestAbandon: a signal handler's Abandon removes the lock file this
// process holds, leaves one another holder has, and no Acquire succeeds
// after it.
func TestAbandon(t *testing.T) {
	if !removeOnUnlock {
		t.Skip("lock files stay on this system")
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	exists := func() bool { _, err := os.Stat(Name(path)); return err == nil }

	early := New(path)
	early.Abandon()
	if err := early.Acquire(); err != ErrAbandoned {
		t.Errorf("Acquire after Abandon: %v, want ErrAbandoned", err)
	}
	if exists() {
		t.Error("Acquire after Abandon made the lock file")
	}

	held := New(path)
	if err := held.Acquire(); err != nil {
		t.Fatal(err)
	}
	held.Abandon()
	if exists() {
		t.Error("Abandon left the lock file this process held")
	}
	held.Release()

	other := New(path) // another holder: flock is per open file
	if err := other.Acquire(); err != nil {
		t.Fatal(err)
	}
	waiter := New(path)
	done := make(chan error)
	go func() { done <- waiter.Acquire() }()
	for waiter.opened() == nil {
		runtime.Gosched()
	}
	waiter.Abandon()
	if !exists() {
		t.Error("Abandon removed a lock file another holder has")
	}
	other.Release()
	if err := <-done; err != ErrAbandoned {
		t.Errorf("waiting Acquire after Abandon: %v, want ErrAbandoned", err)
	}
	if exists() {
		t.Error("the lock file is left after its holder let go")
	}
}
