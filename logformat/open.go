package logformat

import (
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Unreadable is the Error kind of a log, sidecar or directory that could
// not be opened or listed (permission denied, a dangling or looping link):
// that one input is not verified, the others are.
const Unreadable = "unreadable"

// openRegular opens path for reading only when it is a regular file. A FIFO
// is refused before it is opened (opening one blocks until a writer comes),
// as are devices and sockets (reading one may never end). O_NONBLOCK keeps
// even a FIFO swapped in after the check from blocking the open; it has no
// effect on reads of a regular file. what prefixes the messages.
func openRegular(path, what string) (*os.File, fs.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, &Error{File: path, Kind: Unreadable, Msg: what + openMsg(err)}
	}
	if !st.Mode().IsRegular() {
		return nil, st, notRegular(path, what, st.Mode())
	}
	f, err := retryOpen(func() (*os.File, error) { return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0) })
	if err != nil {
		return nil, nil, &Error{File: path, Kind: Unreadable, Msg: what + openMsg(err)}
	}
	if st, err = f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err != nil {
			return nil, nil, &Error{File: path, Kind: Unreadable, Msg: what + openMsg(err)}
		}
		return nil, st, notRegular(path, what, st.Mode())
	}
	return f, st, nil
}

func notRegular(path, what string, m fs.FileMode) *Error {
	msg := what + FileKind(m) + ", not a regular file"
	if what == "" {
		msg += " (to read a stream, pipe it to stdin and pass -)"
	}
	return &Error{File: path, Kind: Unreadable, Msg: msg}
}

// FileKind names what a non-regular file is, for messages.
func FileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "an irregular file"
}

// ReadRegularFile is os.ReadFile for a file the user names or a walk finds:
// it refuses, without blocking, what is not a regular file (a FIFO named
// like a golden would otherwise hang the run).
func ReadRegularFile(path string) ([]byte, error) {
	f, _, err := openRegular(path, "")
	if err != nil {
		if _, serr := os.Stat(path); os.IsNotExist(serr) {
			return nil, serr
		}
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// OpenRegularFile is ReadRegularFile's open, for a reader that streams the
// file rather than holding it: the file and what it was when opened.
func OpenRegularFile(path string) (*os.File, fs.FileInfo, error) {
	f, st, err := openRegular(path, "")
	if err != nil {
		if _, serr := os.Stat(path); os.IsNotExist(serr) {
			return nil, nil, serr
		}
		return nil, nil, err
	}
	return f, st, nil
}
