package logformat

import "io"

// readSmallFile reads a regular file of at most max bytes whole. ok is
// false, and the caller reads the file the ordinary way (which also words
// any error), for anything else: missing, unreadable, not a regular file
// (refused before it is opened, see openRegular), larger, or not ending
// where its size says (a file still growing, or one of /proc and /sys,
// whose size is 0 or a page whatever they hold).
func readSmallFile(path string, max int64, buf []byte) (data []byte, ok bool) {
	release := fds().acquire()
	defer release()
	f, st, err := openRegular(path, "")
	if err != nil {
		return nil, false
	}
	defer f.Close()
	size := st.Size()
	if size > max {
		return nil, false
	}
	// One byte more than the size: a read that fills it finds the file
	// longer than it said.
	if int64(cap(buf)) < size+1 {
		buf = make([]byte, size+1)
	}
	buf = buf[:size+1]
	n := 0
	for int64(n) < size {
		m, err := f.Read(buf[n:])
		n += m
		if err != nil || m == 0 {
			break
		}
	}
	if int64(n) != size {
		return nil, false
	}
	if size == 0 {
		// Empty, or a kernel file that says so: only a read tells.
		if m, err := f.Read(buf[:1]); m != 0 || err != io.EOF {
			return nil, false
		}
	}
	return buf[:n], true
}
