//go:build unix

package logformat

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// blockedWriter makes a FIFO at p and a writer blocked in open() on it
// until a reader opens it; released is closed when that happens. The
// writer is let go when the test ends.
func blockedWriter(t *testing.T, p string) (released <-chan struct{}) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan struct{})
	go func() {
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		close(done)
		if err == nil {
			f.Close()
		}
	}()
	t.Cleanup(func() {
		select {
		case <-done:
			return
		default:
		}
		if r, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			<-done
			r.Close()
		}
	})
	return done
}

// notReleased fails the test when the writer blocked on a FIFO was let go
// (something opened it), allowing it a moment to come out of open().
func notReleased(t *testing.T, released <-chan struct{}) {
	t.Helper()
	select {
	case <-released:
		t.Fatal("the FIFO was opened: its blocked writer was released")
	case <-time.After(200 * time.Millisecond):
	}
}

// watchdog runs f and fails the test if it has not returned within a
// minute (a read blocked on a FIFO or a terminal never would).
func watchdog(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s: still running after a minute", what)
	}
}

// TestFIFOsNeverOpened: a FIFO named like a log, held by a writer blocked
// in open(), and a link named like a log to /dev/ptmx, are found by a walk
// and refused by every reader without being opened: the writer stays
// blocked, nothing hangs.
func TestFIFOsNeverOpened(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.jsonl"), []byte("{\"type\":\"session\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "x.jsonl")
	released := blockedWriter(t, fifo)
	ptmx := filepath.Join(dir, "t.jsonl")
	if _, err := os.Stat("/dev/ptmx"); err == nil {
		if err := os.Symlink("/dev/ptmx", ptmx); err != nil {
			t.Fatal(err)
		}
	}
	// The FIFO through a link, and a link swapped to the FIFO after the walk.
	if err := os.Symlink(fifo, filepath.Join(dir, "l.jsonl")); err != nil {
		t.Fatal(err)
	}
	watchdog(t, "walk and reads", func() {
		in, err := Expand([]string{dir}, PathFilter{})
		if err != nil {
			t.Error(err)
			return
		}
		for _, p := range []string{fifo, filepath.Join(dir, "l.jsonl"), ptmx} {
			if _, err := os.Lstat(p); err != nil {
				continue
			}
			if e := in.Errs[p]; e == nil || e.Kind != NotASessionLog {
				t.Errorf("%s: walk error %v, want a not-a-session-log notice", p, e)
			}
			if _, ok := ReadSmallFile(p); ok {
				t.Errorf("%s: read whole", p)
			}
			if _, err := ReadCalls(p, Options{}, func(*Call) error { return nil }); err == nil {
				t.Errorf("%s: ReadCalls read it", p)
			}
			if err := Classify(p); err == nil {
				t.Errorf("%s: Classify read it", p)
			}
			if _, err := ReadRegularFile(p); err == nil {
				t.Errorf("%s: ReadRegularFile read it", p)
			}
		}
		// A log whose sidecar is the FIFO: refused, not opened.
		if err := os.Symlink(fifo, filepath.Join(dir, "a.values.jsonl")); err != nil {
			t.Error(err)
			return
		}
		if _, err := ReadCalls(filepath.Join(dir, "a.jsonl"), Options{}, func(*Call) error { return nil }); err == nil {
			t.Error("a log whose sidecar is a FIFO: no error")
		}
	})
	notReleased(t, released)
}
