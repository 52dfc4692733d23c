//go:build unix

package logformat

import "syscall"

// readSmallFile reads a regular file of at most max bytes whole, with the
// fewest system calls (open, fstat, one read, close: os.Open would add four
// fcntl calls and a failed epoll registration, and reading to EOF a read). ok is false for anything
// else (missing, unreadable, not regular, larger, still growing): the
// caller then reads it the ordinary way, which also reports any error.
func readSmallFile(path string, max int64, buf []byte) (data []byte, ok bool) {
	// O_NONBLOCK: opening a FIFO must not wait for a writer (regular
	// files ignore the flag).
	fd, err := rawOpen(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK)
	if err != nil {
		return nil, false
	}
	defer rawClose(fd)
	var st syscall.Stat_t
	if err := rawFstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Size > max {
		return nil, false
	}
	// One byte more than the size: a file that grew since fstat fills it.
	if int64(cap(buf)) < st.Size+1 {
		buf = make([]byte, st.Size+1)
	}
	buf = buf[:st.Size+1]
	n := 0
	for int64(n) < st.Size {
		m, err := rawRead(fd, buf[n:])
		if err != nil || m == 0 {
			return nil, false
		}
		n += m
	}
	if int64(n) != st.Size {
		return nil, false
	}
	return buf[:n], true
}
