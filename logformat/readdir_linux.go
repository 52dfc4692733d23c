package logformat

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// readDir is os.ReadDir without what a walk of thousands of small
// directories does not use: no *os.File (and its cleanup registration),
// no 8 KB buffer allocated per directory, no fs.DirEntry per entry, and no
// sort (Expand sorts what it found). A tree of 5,700
// directories is listed in two thirds of the CPU time. Like os.ReadDir it
// returns what it read before an error, and looks up the type of an entry
// whose d_type the file system leaves unknown.
func readDir(dir string) ([]dirEntry, error) {
	ents, fd, err := readDirAt(dir, -1)
	if fd >= 0 {
		rawClose(fd)
		walkFDs.Add(-1)
	}
	return ents, err
}

var listAtOS = readDirAt

// dirFlags open a directory to list it.
const dirFlags = syscall.O_RDONLY | syscall.O_DIRECTORY | syscall.O_CLOEXEC

// readDirAt is readDir of the directory open as fd, or opened by its path
// when fd is negative; it returns the descriptor still open (-1 when the
// open failed), for the caller to open subdirectories relative to it and
// close it.
func readDirAt(dir string, fd int) ([]dirEntry, int, error) {
	if fd < 0 {
		var err error
		if fd, err = rawOpen(dir, dirFlags); err != nil {
			return nil, -1, &fs.PathError{Op: "open", Path: dir, Err: err}
		}
		walkFDs.Add(1)
	}
	ents, err := listOpen(dir, fd)
	return ents, fd, err
}

func listOpen(dir string, fd int) ([]dirEntry, error) {
	bp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bp)
	buf := *bp
	var ents []dirEntry
	for {
		n, err := rawGetdents(fd, buf)
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

var direntBufs = sync.Pool{New: func() any { b := make([]byte, 8<<10); return &b }}

// modeUnknown marks DT_UNKNOWN until the type is looked up (no real type
// has every bit set).
const modeUnknown = ^fs.FileMode(0)

// parseDirents appends the entries of a getdents64 buffer, skipping "."
// and "..": struct linux_dirent64 {u64 ino; s64 off; u16 reclen; u8 type;
// char name[];}.
func parseDirents(b []byte, ents []dirEntry) []dirEntry {
	for len(b) >= 19 {
		reclen := int(*(*uint16)(unsafe.Pointer(&b[16])))
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

// A walk opens each subdirectory relative to its parent's descriptor, the
// siblings together: through io_uring, up to dirBatch opens and the closes
// of the directories listed before them go in with one system call, where
// opening by path took an open and a close a directory and the kernel
// looked up every component of the path again (a tree of 5,700
// directories: 11,000 system calls and a path walk of ten components each).
// What cannot be opened that way is opened by its path when it is listed,
// which words any error as before.

// dirBatch is the most subdirectory opens (and, apart, pending closes) one
// submission carries: the two together fill the ring's uringEntries.
const dirBatch = uringEntries / 2

// walkFDLimit bounds the descriptors a walk holds open at once (siblings
// opened before they are listed, closes not yet submitted); beyond it
// subdirectories are opened by their paths. A file-descriptor limit is
// 1,024 at the least.
const walkFDLimit = 256

// walkFDs counts the descriptors the walks hold open.
var walkFDs atomic.Int64

// dirWalk is what one goroutine of a walk keeps between directories: a
// ring (nil: plain system calls) and the descriptors waiting to be closed.
type dirWalk struct {
	u      *uring
	closes []int
	names  []*byte
	res    []int32
}

func newDirWalk() *dirWalk { return &dirWalk{u: getURing()} }

// close closes fd, with the next submission where there is a ring (none
// on a nil dirWalk).
func (d *dirWalk) close(fd int) {
	if d == nil || d.u == nil {
		rawClose(fd)
		walkFDs.Add(-1)
		return
	}
	d.closes = append(d.closes, fd)
	if len(d.closes) >= dirBatch {
		d.submit(-1, nil)
	}
}

// done closes what is pending and gives the ring back.
func (d *dirWalk) done() {
	if d.u != nil {
		d.submit(-1, nil)
		if d.u != nil {
			putURing(d.u)
			d.u = nil
		}
	}
}

// openAt opens the subdirectories names of the directory open as parent:
// fds[k] is a descriptor, or -1 where the subdirectory is to be opened by
// its path (an error, or too many descriptors open).
func (d *dirWalk) openAt(parent int, names []string, fds []int) {
	for i := 0; i < len(names); i += dirBatch {
		j := min(i+dirBatch, len(names))
		if walkFDs.Load()+int64(j-i) > walkFDLimit {
			for k := i; k < len(names); k++ {
				fds[k] = -1
			}
			return
		}
		if d.u == nil {
			for k := i; k < j; k++ {
				fds[k] = -1
				if fd, err := rawOpenAt(parent, names[k], dirFlags); err == nil {
					fds[k] = fd
					walkFDs.Add(1)
				}
			}
			continue
		}
		d.submit(parent, names[i:j])
		for k := i; k < j; k++ {
			fds[k] = -1
			if r := d.res[k-i]; r >= 0 {
				fds[k] = int(r)
				walkFDs.Add(1)
			}
		}
	}
}

// submit closes the pending descriptors and opens names relative to
// parent (results in d.res) with one system call. A ring that fails leaves
// every open to be made by path and the closes unknown: they are not made
// again (the descriptor may be another file's by then).
func (d *dirWalk) submit(parent int, names []string) {
	d.res = d.res[:0]
	for range names {
		d.res = append(d.res, -1)
	}
	if len(names) == 0 && len(d.closes) == 0 {
		return
	}
	d.names = d.names[:0]
	for _, n := range names {
		p, err := syscall.BytePtrFromString(n)
		if err != nil {
			p = nil
		}
		d.names = append(d.names, p)
	}
	closed := len(d.closes)
	if d.u.openDirs(parent, d.names, d.res, d.closes) {
		putURing(d.u) // a failed ring is dropped, not pooled
		d.u = nil
	}
	walkFDs.Add(-int64(closed))
	d.closes = d.closes[:0]
}
