package logformat

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Atomic writes. Every file dsh-replay writes for the user goes through
// WriteFileAtomic: a temporary file beside the target, written, synced and
// renamed over it. SIGINT and SIGTERM remove the temporary file of a write
// under way and exit 130 or 143; a temporary file left by a process that
// died harder (SIGKILL, a crash) is removed by the next write of the same
// file. A writer holds an advisory lock on its temporary file, so a live
// write is never mistaken for a stale one.

// CrashHookEnv names the test hook that makes WriteFileAtomic exit the
// process after the temporary file is written and synced, before the rename:
// crash-safety tests set it in a re-executed test binary.
const CrashHookEnv = "DSH_REPLAY_TEST_CRASH_BEFORE_RENAME"

// CrashHookExit is the exit code of the crash hook.
const CrashHookExit = 86

// PauseHookEnv names the test hook that stops WriteFileAtomic half way
// through a temporary file: half the data is written and synced, PauseMarker
// and the temporary file's path are printed on stderr, and the write waits
// for ever, so that a test can signal the process at a known moment. A
// value N (a number) pauses the Nth write, any other value the first.
const PauseHookEnv = "DSH_REPLAY_TEST_PAUSE_WRITE"

// PauseMarker starts the line the pause hook prints.
const PauseMarker = "dsh-replay-test: paused writing "

// crashWrites and pauseWrites count WriteFileAtomic calls for the hooks.
var crashWrites, pauseWrites atomic.Int64

func hookNow(n *atomic.Int64, v string) bool {
	k := n.Add(1)
	if want, err := strconv.Atoi(v); err == nil && want > 0 {
		return k == int64(want)
	}
	return k == 1
}

// TempPrefix starts the name of every temporary file WriteFileAtomic makes
// (TempPrefix + the target's base name + "-" + digits), so that one left
// behind can be recognised.
const TempPrefix = ".dsh-replay-tmp-"

var (
	// tempMu guards temps and deferred; the signal handler takes it and
	// never gives it back, so no write starts or renames after a signal.
	tempMu sync.Mutex
	temps  = map[string]bool{} // temporary files being written
	// alsoRemove are files the process made and removes when it ends
	// (lock files it holds)
	alsoRemove = map[string]bool{}
	deferred   int       // > 0: a caller shuts down on signals itself
	caught     os.Signal // the signal caught while deferred
	install    sync.Once
)

// InterruptExit is the exit code for a signal: 128 + its number (130 for
// SIGINT, 143 for SIGTERM), as a shell reports it.
func InterruptExit(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 130
}

// HandleInterrupts makes SIGINT and SIGTERM remove the temporary file of
// every write under way and exit with InterruptExit. Idempotent;
// WriteFileAtomic calls it, and commands that write call it first so that
// a signal at any moment ends them the same way.
func HandleInterrupts() {
	install.Do(func() {
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
		go func() {
			for s := range ch {
				tempMu.Lock()
				if deferred > 0 {
					caught = s
					tempMu.Unlock()
					continue
				}
				for l := range alsoRemove {
					os.Remove(l)
				}
				removed := 0
				for t := range temps {
					if os.Remove(t) == nil {
						removed++
					}
				}
				msg := ""
				if removed > 0 {
					msg = ": the file being written was left as it was"
				}
				fmt.Fprintf(os.Stderr, "dsh-replay: interrupted (%v)%s\n", s, msg)
				os.Exit(InterruptExit(s))
			}
		}()
	})
}

// RemoveOnInterrupt has SIGINT and SIGTERM remove path too (a lock file
// the process holds) until forget is called.
func RemoveOnInterrupt(path string) (forget func()) {
	HandleInterrupts()
	tempMu.Lock()
	alsoRemove[path] = true
	tempMu.Unlock()
	return func() {
		tempMu.Lock()
		delete(alsoRemove, path)
		tempMu.Unlock()
	}
}

// DeferInterrupts is for a caller that shuts down on SIGINT and SIGTERM by
// itself and writes only between its events (the interactive reviewer):
// until resume is called a signal is only noted, and resume returns it
// (nil when none came).
func DeferInterrupts() (resume func() os.Signal) {
	HandleInterrupts()
	tempMu.Lock()
	deferred++
	tempMu.Unlock()
	var once sync.Once
	return func() os.Signal {
		var s os.Signal
		once.Do(func() {
			tempMu.Lock()
			deferred--
			s, caught = caught, nil
			tempMu.Unlock()
		})
		return s
	}
}

// WriteFileAtomic replaces path with data: a temporary file in the same
// directory is written, synced and renamed over path, then the directory is
// synced. A reader sees the old file or the new one, never a mix; a crash
// or a signal leaves the old file in place. The mode of an existing file
// is kept.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	return WriteFileAtomicIf(path, data, perm, nil)
}

// WriteFileAtomicIf is WriteFileAtomic that, when check is set, calls it
// just before the rename (the data written and synced) and gives up with
// its error, path untouched, when it fails: the last look at what the data
// was made from, as close to the rename as it can be.
func WriteFileAtomicIf(path string, data []byte, perm os.FileMode, check func() error) (err error) {
	HandleInterrupts()
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
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if v := os.Getenv(CrashHookEnv); v != "" && hookNow(&crashWrites, v) {
		os.Exit(CrashHookExit)
	}
	if check != nil {
		if err = check(); err != nil {
			return err
		}
	}
	tempMu.Lock()
	err = os.Rename(tmp, path)
	if err == nil {
		delete(temps, tmp)
	}
	tempMu.Unlock()
	if err != nil {
		return err
	}
	// Closed after the rename: the lock marks the file live until then.
	if err := f.Close(); err != nil {
		return err
	}
	return syncDir(dir)
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
