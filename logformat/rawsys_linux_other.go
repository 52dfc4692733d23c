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
