//go:build unix

package logformat

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// walkTestTree builds a tree with deep chains, a directory with more
// subdirectories than a low descriptor limit allows open at once, links to
// directories (not followed), a dangling link, a FIFO named like a log,
// and sidecars.
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
	for i := range 300 {
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

const lowFDLimitEnv = "DSH_REPLAY_TEST_LOW_NOFILE"

// TestWalkUnderLowFDLimit: under RLIMIT_NOFILE 64 (ulimit -n 64) a walk
// finds every log every time and no directory is reported unreadable,
// while readers open logs beside it: the descriptors the walk and the
// small-file reads take follow the limit. Run in a child process that
// lowers its own limit.
func TestWalkUnderLowFDLimit(t *testing.T) {
	if root := os.Getenv(lowFDLimitEnv); root != "" {
		lowFDLimitChild(t, root)
		return
	}
	root := walkTestTree(t)
	want, err := Expand([]string{root}, PathFilter{})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestWalkUnderLowFDLimit$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), lowFDLimitEnv+"="+root)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("under the low limit: %v\n%s", err, out)
	}
	line := fmt.Sprintf("walk found %d logs, %d bad", len(want.Paths), len(want.Errs))
	if n := strings.Count(string(out), line); n != 5 {
		t.Fatalf("want 5 runs saying %q, got %d:\n%s", line, n, out)
	}
}

func lowFDLimitChild(t *testing.T, root string) {
	lim := syscall.Rlimit{Cur: 64, Max: 64}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Skip("cannot lower RLIMIT_NOFILE:", err)
	}
	for range 5 {
		var wg sync.WaitGroup
		var in Inputs
		var err error
		wg.Add(1)
		go func() {
			defer wg.Done()
			in, err = Expand([]string{root}, PathFilter{})
		}()
		// Readers of the same tree at the same time, as verify's are.
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, serr := ExpandStream(root, PathFilter{})
				if serr != nil {
					t.Error(serr)
					return
				}
				for i := 0; ; i++ {
					p, info, ok := s.Next()
					if !ok {
						return
					}
					if info.Err == nil && i%8 == g {
						if _, ok := ReadSmallFile(p); !ok {
							t.Errorf("%s: not read whole", p)
						}
					}
				}
			}()
		}
		wg.Wait()
		if err != nil {
			t.Fatal(err)
		}
		for p, e := range in.Errs {
			if e.Kind == Unreadable && !strings.HasSuffix(p, "dangling.jsonl") {
				t.Errorf("%s: %s", p, e.Msg)
			}
		}
		fmt.Printf("walk found %d logs, %d bad\n", len(in.Paths), len(in.Errs))
	}
}
