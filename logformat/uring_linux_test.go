//go:build linux && (amd64 || arm64)

package logformat

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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

// The chain itself: a regular file is read whole with one io_uring_enter,
// and every other kind is refused (for readSmallFile to look at again).
func TestURingReadWhole(t *testing.T) {
	u, err := newURing()
	if err != nil {
		t.Skipf("no io_uring here (%v): the walked-file path is readSmallFile", err)
	}
	defer syscall.Close(u.fd)
	const max = 64 << 10
	files := uringFiles(t, max)
	wantOK := map[string]bool{"one-byte": true, "small": true, "page": true, "max-1": true, "max": true, "link to a file": true}
	buf := make([]byte, max+1)
	for round := 0; round < 3; round++ { // the ring and its slot are reused
		for name, p := range files {
			n, ok, tainted := u.readWhole(p, buf)
			if tainted {
				t.Fatalf("%s: the ring failed", name)
			}
			if ok != wantOK[name] {
				t.Fatalf("%s: ok %v, want %v", name, ok, wantOK[name])
			}
			if ok {
				want, _ := os.ReadFile(p)
				if !bytes.Equal(buf[:n], want) {
					t.Fatalf("%s: %d bytes differ from the file's %d", name, n, len(want))
				}
			}
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
				data, ok := ReadWalkedFileInto(paths[i], buf)
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
