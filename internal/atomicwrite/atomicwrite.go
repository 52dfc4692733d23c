package atomicwrite

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// CrashHookEnv names the test hook that makes WriteFile kill its own
// process (as SIGKILL would: no deferred call, no handler runs) after the
// temporary file is written and synced, before the rename: crash-safety
// tests set it in a re-executed test binary and check CrashedByHook. A
// value N (a number) crashes at the Nth write, any other value the first.
const CrashHookEnv = "DSH_REPLAY_TEST_CRASH_BEFORE_RENAME"

// PauseHookEnv names the test hook that stops WriteFile half way
// through a temporary file: half the data is written and synced, PauseMarker
// and the temporary file's path are printed on stderr, and the write waits
// for ever, so that a test can signal the process at a known moment. A
// value N (a number) pauses the Nth write, any other value the first.
const PauseHookEnv = "DSH_REPLAY_TEST_PAUSE_WRITE"

// PauseMarker starts the line the pause hook prints.
const PauseMarker = "dsh-replay-test: paused writing "

// crashWrites and pauseWrites count WriteFile calls for the hooks.
var crashWrites, pauseWrites atomic.Int64

func hookNow(n *atomic.Int64, v string) bool {
	k := n.Add(1)
	if want, err := strconv.Atoi(v); err == nil && want > 0 {
		return k == int64(want)
	}
	return k == 1
}

// TempPrefix starts the name of every temporary file WriteFile makes
// (TempPrefix + the target's base name + "-" + digits), so that one left
// behind can be recognised.
const TempPrefix = ".dsh-replay-tmp-"

var (
	// tempMu guards temps and aborted; Abort takes it and never gives it
	// back, so no write starts or renames after it.
	tempMu sync.Mutex
	temps  = map[string]bool{} // temporary files being written
	// onAbort are what Abort runs too (letting go of lock files), by key.
	onAbort   = map[int]func(){}
	onAbortID int
)

// OnAbort has Abort run f too (a lock file to let go of) until forget is
// called. f must not wait for anything a write holds.
func OnAbort(f func()) (forget func()) {
	tempMu.Lock()
	onAbortID++
	id := onAbortID
	onAbort[id] = f
	tempMu.Unlock()
	return func() {
		tempMu.Lock()
		delete(onAbort, id)
		tempMu.Unlock()
	}
}

// Abort is for the command's signal handler: it removes the temporary file
// of every write under way, stops any other write from starting or
// renaming (they block), and returns how many files it removed. The caller
// then ends the process.
func Abort() (removed int) {
	tempMu.Lock()
	for _, f := range onAbort {
		f()
	}
	for t := range temps {
		if os.Remove(t) == nil {
			removed++
		}
	}
	return removed
}

// WriteFile replaces path with data: a temporary file in the same
// directory is written, synced and renamed over path, then the directory is
// synced. A reader sees the old file or the new one, never a mix; a crash
// or a signal leaves the old file in place. The mode of an existing file
// is kept. A command that writes installs its signal handler (which calls
// Abort) before its first write.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return WriteFileIf(path, data, perm, nil)
}

// WriteFileIf is WriteFile that, when check is set, calls it just before
// the rename (the data written and synced) and gives up with its error,
// path untouched, when it fails: the last look at what the data was made
// from, as close to the rename as it can be.
func WriteFileIf(path string, data []byte, perm os.FileMode, check func() error) (err error) {
	dir := filepath.Dir(path)
	if st, err := os.Stat(path); err == nil {
		perm = st.Mode().Perm()
	}
	RemoveStaleTemps(path)
	f, tmp, err := createTemp(dir, filepath.Base(path))
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			tempMu.Lock()
			os.Remove(tmp)
			delete(temps, tmp)
			tempMu.Unlock()
		}
	}()
	if v := os.Getenv(PauseHookEnv); v != "" && hookNow(&pauseWrites, v) {
		half := len(data) / 2
		if _, err = f.Write(data[:half]); err != nil {
			return err
		}
		f.Sync()
		fmt.Fprintf(os.Stderr, "%s%s\n", PauseMarker, tmp)
		for {
			time.Sleep(time.Hour)
		}
	}
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = commitTemp(f, tmp, path, perm, check); err != nil {
		return err
	}
	// Closed after the rename: the lock marks the file live until then.
	if err := f.Close(); err != nil {
		return err
	}
	return syncDir(dir)
}

// commitTemp makes the written temporary file tmp the file at path: mode,
// sync, the crash hook, check when set (an error leaves path untouched),
// then the rename, after which tmp is no longer a temporary file.
func commitTemp(f *os.File, tmp, path string, perm os.FileMode, check func() error) error {
	if err := f.Chmod(perm); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if v := os.Getenv(CrashHookEnv); v != "" && hookNow(&crashWrites, v) {
		crash()
	}
	if check != nil {
		if err := check(); err != nil {
			return err
		}
	}
	tempMu.Lock()
	defer tempMu.Unlock()
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	delete(temps, tmp)
	return nil
}

// createTemp makes, locks and registers a temporary file for base in dir.
func createTemp(dir, base string) (*os.File, string, error) {
	for range 100 {
		tempMu.Lock()
		f, err := os.CreateTemp(dir, TempPrefix+base+"-*")
		if err != nil {
			tempMu.Unlock()
			return nil, "", err
		}
		tmp := f.Name()
		temps[tmp] = true
		tempMu.Unlock()
		if err := lockFile(f); err != nil {
			f.Close()
			tempMu.Lock()
			os.Remove(tmp)
			delete(temps, tmp)
			tempMu.Unlock()
			return nil, "", err
		}
		// A stale-file sweep of another process may have removed the file
		// between its creation and the lock: then make another.
		fst, err1 := f.Stat()
		pst, err2 := os.Lstat(tmp)
		if err1 == nil && err2 == nil && os.SameFile(fst, pst) {
			return f, tmp, nil
		}
		f.Close()
		tempMu.Lock()
		delete(temps, tmp)
		tempMu.Unlock()
	}
	return nil, "", fmt.Errorf("%s: could not make a temporary file", filepath.Join(dir, base))
}

var (
	staleMu    sync.Mutex
	staleNames = map[string][]string{} // dir -> temporary-file names seen at its first listing
)

// RemoveStaleTemps removes the temporary files beside path that earlier
// writes of path left behind (their process is gone: no lock is held on
// them) and returns their paths. Each directory is listed once per process,
// so a run writing many files in one directory stays linear.
func RemoveStaleTemps(path string) []string {
	dir, base := filepath.Dir(path), filepath.Base(path)
	staleMu.Lock()
	names, ok := staleNames[dir]
	if !ok {
		if ents, err := os.ReadDir(dir); err == nil {
			for _, e := range ents {
				if strings.HasPrefix(e.Name(), TempPrefix) {
					names = append(names, e.Name())
				}
			}
		}
	}
	var mine []string
	kept := names[:0]
	for _, n := range names {
		if isTempOf(n, base) {
			mine = append(mine, n)
		} else {
			kept = append(kept, n)
		}
	}
	staleNames[dir] = kept
	staleMu.Unlock()
	var removed []string
	for _, n := range mine {
		p := filepath.Join(dir, n)
		if removeIfStale(p) {
			removed = append(removed, p)
		}
	}
	return removed
}

// isTempOf: name is a temporary file of a write of base.
func isTempOf(name, base string) bool {
	tail, ok := strings.CutPrefix(name, TempPrefix+base+"-")
	if !ok || tail == "" {
		return false
	}
	for _, c := range tail {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	// Some file systems cannot sync a directory; the rename is done anyway.
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOTSUP) {
		return err
	}
	return nil
}
