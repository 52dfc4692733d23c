package filelock

import (
	"os"
	"path/filepath"
)

// Suffix ends the name of a lock file: ".<base of the file>" + Suffix, a
// hidden file that no walk takes for a log.
const Suffix = ".dsh-replay-lock"

// Name is the lock file of path.
func Name(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+Suffix)
}

// Lock blocks until this process holds the lock of path, and returns the
// function that releases it. The lock goes with the process however it
// ends, so a crashed holder never leaves it taken.
func Lock(path string) (unlock func(), err error) {
	name := Name(path)
	for {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		if err := lockFD(f); err != nil {
			f.Close()
			return nil, err
		}
		// The holder before us removes the file as it lets go; if we
		// locked a name it removed (or another made anew), try again.
		fst, err1 := f.Stat()
		pst, err2 := os.Stat(name)
		if err1 == nil && err2 == nil && os.SameFile(fst, pst) {
			return func() {
				if removeOnUnlock {
					os.Remove(name)
				}
				f.Close()
			}, nil
		}
		f.Close()
	}
}
