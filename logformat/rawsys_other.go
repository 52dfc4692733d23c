//go:build unix && !(linux && (amd64 || arm64))

package logformat

import "syscall"

// Elsewhere the walk's and the small-file reader's calls go through the
// syscall package (see rawsys_raw.go for why they are raw where they can be).

func rawOpen(path string, flags int) (int, error) {
	for {
		fd, err := syscall.Open(path, flags, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

func rawClose(fd int) { syscall.Close(fd) }

func rawFstat(fd int, st *syscall.Stat_t) error { return syscall.Fstat(fd, st) }

func rawRead(fd int, b []byte) (int, error) {
	for {
		n, err := syscall.Read(fd, b)
		if err != syscall.EINTR {
			return n, err
		}
	}
}
