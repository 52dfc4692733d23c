//go:build linux && (amd64 || arm64)

package logformat

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// walkTestTree builds a tree with what a walk by descriptors must treat as
// a walk by paths does: deep chains, a directory with more subdirectories
// than the walk holds descriptors for, links to directories (not
// followed), a dangling link, a FIFO named like a log, and sidecars.
func walkTestTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string) {
		must(os.MkdirAll(filepath.Dir(p), 0o755))
		must(os.WriteFile(p, []byte("{}\n"), 0o644))
	}
	deep := root
	for i := range 14 {
		deep = filepath.Join(deep, fmt.Sprintf("level-%02d", i))
		write(filepath.Join(deep, "s.jsonl"))
	}
	for i := range walkFDLimit + 40 {
		write(filepath.Join(root, "wide", fmt.Sprintf("d%04d", i), "x", "s.jsonl"))
	}
	write(filepath.Join(root, "side", "a.jsonl"))
	write(filepath.Join(root, "side", "a.values.jsonl"))
	must(os.Symlink(filepath.Join(root, "side"), filepath.Join(root, "link-to-dir")))
	must(os.Symlink("missing", filepath.Join(root, "side", "dangling.jsonl")))
	if err := syscall.Mkfifo(filepath.Join(root, "side", "fifo.jsonl"), 0o644); err != nil {
		t.Log("no FIFO:", err)
	}
	return root
}

// TestWalkByDescriptorMatchesByPath: the walk that opens subdirectories
// relative to their parents (through io_uring, or plain openat without a
// ring) finds what the walk by paths finds, and leaves no descriptor open.
func TestWalkByDescriptorMatchesByPath(t *testing.T) {
	root := walkTestTree(t)
	byPath := walkFS{stat: os.Stat, readDir: readDir}
	want, err := expand([]string{root}, PathFilter{}, byPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Paths) < walkFDLimit+50 {
		t.Fatalf("only %d paths in the test tree", len(want.Paths))
	}
	fdsBefore := openFDs(t)
	for _, ring := range []bool{true, false} {
		t.Run(fmt.Sprintf("ring=%v", ring), func(t *testing.T) {
			if !ring {
				withoutRings(t)
			}
			for range 3 {
				got, err := expand([]string{root}, PathFilter{}, osFS)
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Fatalf("walk by descriptors differs (-by path +by descriptors):\n%s", d)
				}
				s, err := ExpandStream(root, PathFilter{})
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(want, s.Inputs()); d != "" {
					t.Fatalf("stream differs (-by path +stream):\n%s", d)
				}
			}
			if n := walkFDs.Load(); n != 0 {
				t.Errorf("the walks count %d descriptors still open", n)
			}
			// The stream's walks end before Inputs returns; the rings kept
			// for later are the only descriptors added.
			if after := openFDs(t); after > fdsBefore+maxURings {
				t.Errorf("%d descriptors open after the walks, %d before", after, fdsBefore)
			}
		})
	}
}

// TestDirWalkOpenAt: subdirectories opened relative to their parent are
// those directories (same inode as by path), a name that is not one gets
// -1, and closing them all brings the count back.
func TestDirWalkOpenAt(t *testing.T) {
	root := t.TempDir()
	var names []string
	for i := range dirBatch + 3 { // two submissions
		n := fmt.Sprintf("sub-%02d", i)
		if err := os.Mkdir(filepath.Join(root, n), 0o755); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	if err := os.WriteFile(filepath.Join(root, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	names = append(names, "file", "missing")
	for _, ring := range []bool{true, false} {
		t.Run(fmt.Sprintf("ring=%v", ring), func(t *testing.T) {
			if !ring {
				withoutRings(t)
			}
			parent, err := rawOpen(root, dirFlags)
			if err != nil {
				t.Fatal(err)
			}
			walkFDs.Add(1)
			dw := newDirWalk()
			if ring && dw.u == nil && !uringOff.Load() {
				t.Fatal("no ring where io_uring is on")
			}
			fds := make([]int, len(names))
			dw.openAt(parent, names, fds)
			dw.close(parent)
			for k, n := range names {
				if n == "file" || n == "missing" {
					if fds[k] != -1 {
						t.Errorf("%s: opened as %d, want -1", n, fds[k])
					}
					continue
				}
				if fds[k] < 0 {
					t.Fatalf("%s: not opened", n)
				}
				var a syscall.Stat_t
				var b syscall.Stat_t
				if err := syscall.Fstat(fds[k], &a); err != nil {
					t.Fatal(err)
				}
				if err := syscall.Stat(filepath.Join(root, n), &b); err != nil {
					t.Fatal(err)
				}
				if a.Ino != b.Ino {
					t.Errorf("%s: descriptor is inode %d, the path %d", n, a.Ino, b.Ino)
				}
				dw.close(fds[k])
			}
			dw.done()
			if n := walkFDs.Load(); n != 0 {
				t.Errorf("%d descriptors counted open after done", n)
			}
		})
	}
}

func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	n := 0
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), ".") {
			n++
		}
	}
	return n
}

// withoutRings turns io_uring off until the test ends.
func withoutRings(t *testing.T) {
	saved := uringOff.Load()
	uringOff.Store(true)
	t.Cleanup(func() { uringOff.Store(saved) })
}
