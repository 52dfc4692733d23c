//go:build unix

package logformat

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// readSmallFile reads a regular file whole and refuses everything else
// without blocking or erring loudly.
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
	fifoLink := filepath.Join(dir, "fifo-link.jsonl")
	if err := os.Symlink(fifo, fifoLink); err != nil {
		t.Fatal(err)
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
		{"link to a FIFO", fifoLink, 1 << 20, false, nil},
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

// A kernel file says its size is 0 (/proc) or a page (/sys) whatever it
// holds: it is not read whole, so it reads as the ordinary reader reads it.
func TestReadSmallFileKernelFiles(t *testing.T) {
	checked := 0
	for _, p := range []string{"/proc/self/status", "/proc/self/cmdline", "/sys/kernel/mm/transparent_hugepage/enabled", "/sys/devices/system/cpu/online"} {
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		full, err := os.ReadFile(p)
		if err != nil || int64(len(full)) == st.Size() {
			continue // its size is right: nothing to check
		}
		checked++
		if data, ok := readSmallFile(p, 1<<20, nil); ok {
			t.Errorf("%s (size %d, %d bytes read): read whole as %d bytes", p, st.Size(), len(full), len(data))
		}
		a := readRendered(t, p, smallFileBytes, Options{})
		b := readRendered(t, p, 0, Options{})
		if a != b {
			t.Errorf("%s: read whole and streamed differ:\n%s\n---\n%s", p, a, b)
		}
		if strings.Contains(a, "empty file") {
			t.Errorf("%s: read as empty: %s", p, a)
		}
	}
	if checked == 0 {
		t.Skip("no /proc or /sys file whose size is not its length here")
	}
}
