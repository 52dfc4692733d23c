//go:build unix

package logformat

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// On the real file system: a FIFO and a socket are never opened by the
// walk nor by the reader (opening a FIFO would block until a writer comes).
func TestIrregularFilesOnDisk(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "a.jsonl")
	if err := os.WriteFile(log, []byte(`{"type":"session","version":0,"id":"s","createdAt":0}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "b.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	sock := filepath.Join(dir, "c.jsonl")
	if l, err := net.Listen("unix", sock); err == nil {
		defer l.Close()
	} else {
		sock = ""
	}
	var in Inputs
	var err error
	done(t, "Expand", func() { in, err = Expand([]string{dir}, PathFilter{}) })
	if err != nil {
		t.Fatal(err)
	}
	if e := in.Errs[fifo]; e == nil || e.Kind != NotASessionLog || !strings.Contains(e.Msg, "named pipe") {
		t.Errorf("FIFO: %+v", e)
	}
	if e := in.Errs[sock]; sock != "" && (e == nil || e.Kind != NotASessionLog || !strings.Contains(e.Msg, "socket")) {
		t.Errorf("socket: %+v", e)
	}
	if in.Errs[log] != nil {
		t.Errorf("regular log: %+v", in.Errs[log])
	}
	for _, p := range []string{fifo, sock} {
		if p == "" {
			continue
		}
		var rerr error
		done(t, "ReadCalls on "+p, func() { _, rerr = ReadCalls(p, Options{}, func(*Call) error { return nil }) })
		var e *Error
		if !errors.As(rerr, &e) || e.Kind != Unreadable || !strings.Contains(e.Msg, "not a regular file") {
			t.Errorf("ReadCalls %s: %v", p, rerr)
		}
		done(t, "Classify on "+p, func() { rerr = Classify(p) })
		if rerr == nil || IsNotASessionLog(rerr) {
			t.Errorf("Classify %s: %v", p, rerr)
		}
	}
	// A FIFO as a log's values sidecar: the log is unreadable, not a hang.
	side := filepath.Join(dir, "a.values.jsonl")
	if err := syscall.Mkfifo(side, 0o644); err != nil {
		t.Fatal(err)
	}
	var rerr error
	done(t, "ReadCalls with a FIFO sidecar", func() { _, rerr = ReadCalls(log, Options{}, func(*Call) error { return nil }) })
	var e *Error
	if !errors.As(rerr, &e) || e.Kind != Unreadable || e.File != side || !strings.Contains(e.Msg, "values sidecar: a named pipe (FIFO), not a regular file") {
		t.Errorf("FIFO sidecar: %v", rerr)
	}
}
