package atomicwrite

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Temp is a write under way whose content is streamed (made and written
// piece by piece, never held whole): a temporary file beside the target
// that Commit renames over it, as WriteFileIf does. Exactly one of Commit
// and Discard ends it; Close then releases the file.
type Temp struct {
	path, tmp string
	f         *os.File
	w         *bufio.Writer
	perm      os.FileMode
	n         int64
	committed bool
	closed    bool
}

// Create starts a streamed write of path (the mode of an existing file is
// kept, else perm).
func Create(path string, perm os.FileMode) (*Temp, error) {
	if st, err := os.Stat(path); err == nil {
		perm = st.Mode().Perm()
	}
	RemoveStaleTemps(path)
	f, tmp, err := createTemp(filepath.Dir(path), filepath.Base(path))
	if err != nil {
		return nil, err
	}
	return &Temp{path: path, tmp: tmp, f: f, w: bufio.NewWriterSize(f, 256<<10), perm: perm}, nil
}

// Write appends to the temporary file.
func (t *Temp) Write(p []byte) (int, error) {
	n, err := t.w.Write(p)
	t.n += int64(n)
	return n, err
}

// Size is how many bytes were written.
func (t *Temp) Size() int64 { return t.n }

// Reader reads back what was written (before Commit, and after it until
// Close: the file then is the target).
func (t *Temp) Reader() (io.Reader, error) {
	if err := t.w.Flush(); err != nil {
		return nil, err
	}
	return io.NewSectionReader(t.f, 0, t.n), nil
}

// Commit syncs the temporary file, calls check when set (the last look at
// what the content was made from) and renames it over the target, then
// syncs the directory. On an error the target is untouched and the
// temporary file removed.
func (t *Temp) Commit(check func() error) (err error) {
	defer func() {
		if err != nil {
			t.Discard()
		}
	}()
	if err = t.w.Flush(); err != nil {
		return err
	}
	if v := os.Getenv(PauseHookEnv); v != "" && hookNow(&pauseWrites, v) {
		// Streamed: the content is all written by now; the pause comes
		// before the sync and the rename.
		fmt.Fprintf(os.Stderr, "%s%s\n", PauseMarker, t.tmp)
		for {
			time.Sleep(time.Hour)
		}
	}
	if err = commitTemp(t.f, t.tmp, t.path, t.perm, check); err != nil {
		return err
	}
	t.committed = true
	return syncDir(filepath.Dir(t.path))
}

// Discard abandons an uncommitted write (its temporary file is removed)
// and closes the file; after Commit it only closes it.
func (t *Temp) Discard() {
	if !t.committed && !t.closed {
		tempMu.Lock()
		os.Remove(t.tmp)
		delete(temps, t.tmp)
		tempMu.Unlock()
	}
	t.Close()
}

// Close releases the file (the lock marking it live goes with it).
func (t *Temp) Close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	return t.f.Close()
}
