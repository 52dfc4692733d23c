package logformat

import (
	"encoding/binary"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
)

// readDir is os.ReadDir without what a walk of thousands of small
// directories does not use: no *os.File (and its cleanup registration),
// no 8 KB buffer allocated per directory, no fs.DirEntry per entry, and no
// sort (Expand sorts what it found); the kernel's entries are read with
// syscall.ReadDirent, as charlievieth/fastwalk does. Like os.ReadDir it
// returns what it read before an error, and looks up the type of an entry
// whose d_type the file system leaves unknown.
func readDir(dir string) ([]dirEntry, error) {
	release := fds().acquire()
	defer release()
	fd, err := retryOpen(func() (int, error) {
		return ignoringEINTR(func() (int, error) {
			return syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		})
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	defer syscall.Close(fd)
	bp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bp)
	buf := *bp
	var ents []dirEntry
	for {
		n, err := ignoringEINTR(func() (int, error) { return syscall.ReadDirent(fd, buf) })
		if err != nil {
			return ents, &fs.PathError{Op: "readdirent", Path: dir, Err: err}
		}
		if n <= 0 {
			break
		}
		ents = parseDirents(buf[:n], ents)
	}
	for i := range ents {
		if ents[i].typ == modeUnknown {
			ents[i].typ = 0
			if st, err := os.Lstat(filepath.Join(dir, ents[i].name)); err == nil {
				ents[i].typ = st.Mode().Type()
			}
		}
	}
	return ents, nil
}

func ignoringEINTR[T any](call func() (T, error)) (T, error) {
	for {
		v, err := call()
		if err != syscall.EINTR {
			return v, err
		}
	}
}

var direntBufs = sync.Pool{New: func() any { b := make([]byte, 8<<10); return &b }}

// modeUnknown marks DT_UNKNOWN until the type is looked up (no real type
// has every bit set).
const modeUnknown = ^fs.FileMode(0)

// parseDirents appends the entries of a getdents64 buffer, skipping "."
// and "..": struct linux_dirent64 {u64 ino; s64 off; u16 reclen; u8 type;
// char name[];}, in the machine's byte order.
func parseDirents(b []byte, ents []dirEntry) []dirEntry {
	for len(b) >= 19 {
		reclen := int(binary.NativeEndian.Uint16(b[16:18]))
		if reclen < 19 || reclen > len(b) {
			break // not a record: the kernel never writes one
		}
		name := b[19:reclen]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		typ := b[18]
		b = b[reclen:]
		if len(name) == 0 || name[0] == '.' && (len(name) == 1 || len(name) == 2 && name[1] == '.') {
			continue
		}
		ents = append(ents, dirEntry{name: string(name), typ: direntType(typ)})
	}
	return ents
}

func direntType(t byte) fs.FileMode {
	switch t {
	case syscall.DT_REG:
		return 0
	case syscall.DT_DIR:
		return fs.ModeDir
	case syscall.DT_LNK:
		return fs.ModeSymlink
	case syscall.DT_FIFO:
		return fs.ModeNamedPipe
	case syscall.DT_SOCK:
		return fs.ModeSocket
	case syscall.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.DT_BLK:
		return fs.ModeDevice
	}
	return modeUnknown
}
