//go:build linux && !(amd64 || arm64)

package logformat

import "syscall"

func rawGetdents(fd int, b []byte) (int, error) {
	for {
		n, err := syscall.Getdents(fd, b)
		if err != syscall.EINTR {
			return n, err
		}
	}
}

func rawOpenAt(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := syscall.Openat(dirfd, name, flags, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}
