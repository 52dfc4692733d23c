//go:build linux && (amd64 || arm64)

package logformat

import (
	"syscall"
	"unsafe"
)

// The walk and the small-file reader make tens of thousands of short system
// calls (open, getdents, fstat, read, close) on a local tree. Through
// syscall.Syscall each one enters and leaves the scheduler's syscall state,
// and one that spans a tick of the runtime's monitor has its P handed to
// another thread (a futex wake, a thread switch) and then has to win one
// back. These calls do not block on a local file system (a regular file or a
// directory, never a FIFO: the open is O_NONBLOCK and the type is checked
// before any read), so they are made raw, as the runtime makes its own.

func rawOpen(path string, flags int) (int, error) {
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return -1, err
	}
	for {
		fd, _, e := syscall.RawSyscall6(syscall.SYS_OPENAT, atFDCWD, uintptr(unsafe.Pointer(p)), uintptr(flags), 0, 0, 0)
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return -1, e
		}
		return int(fd), nil
	}
}

// rawOpenAt opens name relative to the directory open as dirfd.
func rawOpenAt(dirfd int, name string, flags int) (int, error) {
	p, err := syscall.BytePtrFromString(name)
	if err != nil {
		return -1, err
	}
	for {
		fd, _, e := syscall.RawSyscall6(syscall.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(flags), 0, 0, 0)
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return -1, e
		}
		return int(fd), nil
	}
}

// AT_FDCWD (-100) as the kernel reads the register.
var atFDCWD = ^uintptr(99)

func rawClose(fd int) {
	syscall.RawSyscall(syscall.SYS_CLOSE, uintptr(fd), 0, 0)
}

func rawFstat(fd int, st *syscall.Stat_t) error {
	if _, _, e := syscall.RawSyscall(syscall.SYS_FSTAT, uintptr(fd), uintptr(unsafe.Pointer(st)), 0); e != 0 {
		return e
	}
	return nil
}

// rawRead and rawGetdents retry EINTR themselves.
func rawRead(fd int, b []byte) (int, error) {
	return rawBuf(syscall.SYS_READ, fd, b)
}

func rawGetdents(fd int, b []byte) (int, error) {
	return rawBuf(syscall.SYS_GETDENTS64, fd, b)
}

func rawBuf(trap uintptr, fd int, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	for {
		n, _, e := syscall.RawSyscall(trap, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return 0, e
		}
		return int(n), nil
	}
}
