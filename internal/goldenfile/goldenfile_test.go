package goldenfile

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

type recorder struct {
	testing.TB
	failed []string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Errorf(format string, args ...any) { r.failed = append(r.failed, format) }
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = append(r.failed, format)
	runtime.Goexit()
}

// check runs Check where a Fatalf can end it.
func (r *recorder) check(path, got string) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		Check(r, path, got)
	}()
	<-done
}

func TestCheck(t *testing.T) {
	if Update() {
		t.Skip("-update rewrites instead of comparing")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "x.golden")
	if err := os.WriteFile(path, []byte("same\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	r.check(path, "same\n")
	if len(r.failed) != 0 {
		t.Errorf("an equal output failed: %v", r.failed)
	}
	r.check(path, "other\n")
	if len(r.failed) != 1 || !strings.Contains(r.failed[0], "differs") {
		t.Errorf("a different output: %v", r.failed)
	}
	r.check(filepath.Join(dir, "missing.golden"), "x")
	if len(r.failed) != 2 || !strings.Contains(r.failed[1], "regenerate") {
		t.Errorf("a missing golden: %v", r.failed)
	}
}
