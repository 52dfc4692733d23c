package jsplugin

import (
	"errors"
	"io"
	"os"
)

var errNotRegular = errors.New("not a regular file")

// readRegular reads path only when it is a regular file: a FIFO (or a
// device) where a cache file or a plugin input should be is refused, never
// waited on. The non-blocking open keeps even a FIFO swapped in after the
// check from blocking.
func readRegular(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errNotRegular
	}
	f, err := os.OpenFile(path, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errNotRegular
	}
	return io.ReadAll(f)
}
