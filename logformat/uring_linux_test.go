//go:build linux && (amd64 || arm64)

package logformat

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// uringFiles makes one of each kind of path a walk can hand the reader,
// around a limit of max bytes.
func uringFiles(t *testing.T, max int) map[string]string {
	t.Helper()
	dir := t.TempDir()
	paths := map[string]string{}
	write := func(name string, n int) {
		p := filepath.Join(dir, name)
		b := bytes.Repeat([]byte("{\"type\":\"x\"}\n"), n/13+1)[:n]
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	write("one-byte", 1)
	write("small", 1000)
	write("page", 4096)
	write("max-1", max-1)
	write("max", max)
	write("max+1", max+1)
	write("far over", 3*max)
	write("empty", 0)
	paths["missing"] = filepath.Join(dir, "missing")
	paths["directory"] = dir
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err == nil {
		paths["fifo without a writer"] = filepath.Join(dir, "fifo")
	}
	if err := os.Symlink(paths["small"], filepath.Join(dir, "link")); err == nil {
		paths["link to a file"] = filepath.Join(dir, "link")
	}
	if err := os.Symlink("/dev/null", filepath.Join(dir, "null")); err == nil {
		paths["link to /dev/null"] = filepath.Join(dir, "null")
	}
	paths["NUL in the name"] = paths["small"] + "\x00"
	return paths
}

// readWalkedFile reads one walked path as the verify pool does: through
// io_uring, and the ordinary way where that gave nothing.
func readWalkedFile(path string, max int64, buf []byte) ([]byte, bool) {
	bufs, data := [][]byte{buf}, [][]byte{nil}
	if int64(cap(buf)) >= max+1 {
		readWalkedFiles([]string{path}, max, bufs, data)
	}
	if data[0] == nil {
		return readSmallFile(path, max, bufs[0])
	}
	return data[0], true
}

// Through io_uring or not, a walked path reads exactly as readSmallFile
// reads it: the same bytes, the same refusals.
func TestReadWalkedMatchesReadSmall(t *testing.T) {
	const max = 64 << 10
	for name, p := range uringFiles(t, max) {
		t.Run(name, func(t *testing.T) {
			want, wantOK := readSmallFile(p, max, nil)
			for _, buf := range [][]byte{nil, make([]byte, 0, max+1), make([]byte, 0, 2*max)} {
				got, ok := readWalkedFile(p, max, buf)
				if ok != wantOK || !bytes.Equal(got, want) {
					t.Fatalf("cap %d: %d bytes, %v; readSmallFile %d bytes, %v", cap(buf), len(got), ok, len(want), wantOK)
				}
			}
		})
	}
}

// The chains themselves: regular files are read whole, up to uringSlots
// with one io_uring_enter, and every other kind is refused (for
// readSmallFile to look at again).
func TestURingReadWhole(t *testing.T) {
	u, err := newURing()
	if err != nil {
		t.Skipf("no io_uring here (%v): the walked-file path is readSmallFile", err)
	}
	defer syscall.Close(u.fd)
	const max = 64 << 10
	files := uringFiles(t, max)
	wantOK := map[string]bool{"one-byte": true, "small": true, "page": true, "max-1": true, "max": true, "link to a file": true}
	var names []string
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for round := 0; round < 3; round++ { // the ring and its slots are reused
		for size := 1; size <= uringSlots; size++ {
			for i := 0; i < len(names); i += size {
				batch := names[i:min(i+size, len(names))]
				paths := make([]string, len(batch))
				bufs := make([][]byte, len(batch))
				n := make([]int, len(batch))
				for k, name := range batch {
					paths[k] = files[name]
					bufs[k] = make([]byte, max+1)
				}
				if u.readWhole(paths, bufs, n) {
					t.Fatalf("%v: the ring failed", batch)
				}
				for k, name := range batch {
					if (n[k] >= 0) != wantOK[name] {
						t.Fatalf("%s (batch of %d): read %d, want whole: %v", name, len(batch), n[k], wantOK[name])
					}
					if n[k] >= 0 {
						want, _ := os.ReadFile(paths[k])
						if !bytes.Equal(bufs[k][:n[k]], want) {
							t.Fatalf("%s: %d bytes differ from the file's %d", name, n[k], len(want))
						}
					}
				}
			}
		}
	}
}

// A batch of walked files, more than a submission holds, reads as each
// file alone would.
func TestReadWalkedFilesBatch(t *testing.T) {
	const max = 64 << 10
	files := uringFiles(t, max)
	var paths []string
	for _, p := range files {
		paths = append(paths, p, p) // each twice, more than uringSlots in all
	}
	sort.Strings(paths)
	bufs := make([][]byte, len(paths))
	for k := range bufs {
		bufs[k] = make([]byte, 0, max+1)
	}
	data := make([][]byte, len(paths))
	readWalkedFiles(paths, max, bufs, data)
	whole := 0
	for k, p := range paths {
		want, ok := readSmallFile(p, max, nil)
		if data[k] != nil && (!ok || !bytes.Equal(data[k], want)) {
			t.Fatalf("%s: io_uring read %d bytes, readSmallFile %d, %v", p, len(data[k]), len(want), ok)
		}
		if data[k] != nil {
			whole++
		}
	}
	if u := getURing(); u != nil {
		putURing(u)
		if whole != 12 { // six kinds read whole, each twice
			t.Fatalf("%d read whole through io_uring, want 12", whole)
		}
	}
}

// Readers on several goroutines share the rings (run with -race).
func TestReadWalkedConcurrent(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i := range 64 {
		p := filepath.Join(dir, fmt.Sprintf("log-%02d.jsonl", i))
		if err := os.WriteFile(p, []byte(strings.Repeat(fmt.Sprintf("{\"n\":%d}\n", i), i+1)), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 0, WalkedBufferBytes())
			for k := range 200 {
				i := (g*31 + k) % len(paths)
				data, ok := readWalkedFile(paths[i], smallFileBytes, buf)
				want := strings.Repeat(fmt.Sprintf("{\"n\":%d}\n", i), i+1)
				if !ok || string(data) != want {
					errs <- fmt.Errorf("goroutine %d, %s: %q, %v", g, paths[i], data, ok)
					return
				}
				buf = data[:cap(data)]
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n := uringMade.Load(); n > maxURings {
		t.Fatalf("%d rings made, at most %d", n, maxURings)
	}
}

// DSH_REPLAY_IO_URING=0 keeps every read on the syscall path (checked in a
// fresh process: the setting is read once).
func TestURingOffByEnv(t *testing.T) {
	if os.Getenv("DSH_REPLAY_URING_PROBE") != "" {
		if u := getURing(); u != nil {
			t.Fatal("a ring was handed out with DSH_REPLAY_IO_URING=0")
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestURingOffByEnv$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "DSH_REPLAY_URING_PROBE=1", "DSH_REPLAY_IO_URING=0")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestURingOffByEnv") {
		t.Fatalf("%v\n%s", err, out)
	}
}

// A buffer smaller than the limit reads whole only what fits in it with
// the byte that proves the end; a file that fills it is left to the
// ordinary read, with the buffer still the caller's.
func TestReadWalkedFilesSmallBuffer(t *testing.T) {
	if !uringReads() {
		t.Skip("no io_uring here: nothing is read through it")
	}
	const bufCap = 4 << 10
	dir := t.TempDir()
	sizes := []int{1, bufCap - 1, bufCap, 3 * bufCap}
	var paths []string
	for _, n := range sizes {
		p := filepath.Join(dir, fmt.Sprintf("f%d.jsonl", n))
		if err := os.WriteFile(p, bytes.Repeat([]byte{'x'}, n), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	bufs := make([][]byte, len(paths))
	for k := range bufs {
		bufs[k] = make([]byte, 0, bufCap)
	}
	data := make([][]byte, len(paths))
	readWalkedFiles(paths, smallFileBytes, bufs, data)
	for k, n := range sizes {
		whole := n < bufCap
		if (data[k] != nil) != whole {
			t.Errorf("%d bytes into a %d-byte buffer: read whole %v, want %v", n, bufCap, data[k] != nil, whole)
		}
		if data[k] != nil && len(data[k]) != n {
			t.Errorf("%d bytes: read %d", n, len(data[k]))
		}
		if bufs[k] == nil {
			t.Errorf("%d bytes: the buffer was taken back (the ring did not fail)", n)
		}
	}
}
