//go:build unix

package logformat

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// readSmallFile (raw system calls where it can) reads a regular file whole
// and refuses everything else without blocking or erring loudly.
func TestReadSmallFileKinds(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.jsonl")
	want := bytes.Repeat([]byte("{\"type\":\"x\"}\n"), 100)
	if err := os.WriteFile(small, want, 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	unreadable := filepath.Join(dir, "unreadable.jsonl")
	if err := os.WriteFile(unreadable, want, 0o000); err != nil {
		t.Fatal(err)
	}
	root := os.Geteuid() == 0 // root reads a mode-0 file
	for _, tc := range []struct {
		name string
		path string
		max  int64
		ok   bool
		data []byte
	}{
		{"regular", small, 1 << 20, true, want},
		{"exactly max", small, int64(len(want)), true, want},
		{"over max", small, int64(len(want)) - 1, false, nil},
		{"empty", empty, 1 << 20, true, []byte{}},
		{"missing", filepath.Join(dir, "missing"), 1 << 20, false, nil},
		{"directory", dir, 1 << 20, false, nil},
		{"fifo without a writer", fifo, 1 << 20, false, nil},
		{"unreadable", unreadable, 1 << 20, root, want},
		{"NUL in the name", small + "\x00x", 1 << 20, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, buf := range [][]byte{nil, make([]byte, 0, 16), make([]byte, 0, 4096)} {
				data, ok := readSmallFile(tc.path, tc.max, buf)
				if ok != tc.ok || !bytes.Equal(data, tc.data) {
					t.Fatalf("readSmallFile(%q, %d, cap %d) = %d bytes, %v; want %d bytes, %v", tc.path, tc.max, cap(buf), len(data), ok, len(tc.data), tc.ok)
				}
			}
		})
	}
}

func TestRawCallErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := rawOpen(filepath.Join(dir, "missing"), syscall.O_RDONLY); err != syscall.ENOENT {
		t.Fatalf("open of a missing file: %v, want ENOENT", err)
	}
	fd, err := rawOpen(dir, syscall.O_RDONLY|syscall.O_DIRECTORY)
	if err != nil {
		t.Fatal(err)
	}
	defer rawClose(fd)
	if _, err := rawRead(fd, make([]byte, 8)); err != syscall.EISDIR {
		t.Fatalf("read of a directory: %v, want EISDIR", err)
	}
	var st syscall.Stat_t
	if err := rawFstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		t.Fatalf("fstat of a directory: mode %o, %v", st.Mode, err)
	}
	if err := rawFstat(-1, &st); err != syscall.EBADF {
		t.Fatalf("fstat of fd -1: %v, want EBADF", err)
	}
	if n, err := rawRead(fd, nil); n != 0 || err != nil {
		t.Fatalf("read into an empty buffer: %d, %v", n, err)
	}
}
