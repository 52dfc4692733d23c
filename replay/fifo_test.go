//go:build unix

package replay

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/dsh-replay/dsh-replay/logformat"
)

// A run over a directory holding a FIFO named like a log, whose writer is
// blocked in open(), reports it as not a session log without opening it
// (the writer stays blocked) and does not hang; alone and among others,
// from a finished walk and from a walk still going on.
func TestRunNeverOpensFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "x.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	released := make(chan struct{})
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		close(released)
		if err == nil {
			f.Close()
		}
	}()
	defer func() {
		select {
		case <-released:
		default:
			if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
				<-released
				r.Close()
			}
		}
	}()
	example, err := os.ReadFile("../testdata/example/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(testRegistry(t), Options{})
	for _, others := range []int{0, 3} {
		for i := range others {
			os.WriteFile(filepath.Join(dir, "s"+string(rune('a'+i))+".jsonl"), example, 0o644)
		}
		for _, stream := range []bool{false, true} {
			s := &logSink{}
			done := make(chan struct{})
			go func() {
				defer close(done)
				if stream {
					st, err := logformat.ExpandStream(dir, logformat.PathFilter{})
					if err != nil {
						t.Error(err)
						return
					}
					RunFrom(e, st.Next, RunOptions{Jobs: 2}, s)
					return
				}
				in, err := logformat.Expand([]string{dir}, logformat.PathFilter{})
				if err != nil {
					t.Error(err)
					return
				}
				Run(e, in.Paths, RunOptions{Jobs: 2, Walked: in.Walked, Errs: in.Errs, NoSidecar: in.NoSidecar}, s)
			}()
			select {
			case <-done:
			case <-time.After(time.Minute):
				t.Fatalf("%d other logs, stream %v: the run still goes on after a minute", others, stream)
			}
			var found bool
			for _, l := range s.logs {
				if l.File == fifo {
					found = l.NotALog
				}
			}
			if !found || len(s.logs) != others+1 {
				t.Errorf("%d other logs, stream %v: %d logs, the FIFO reported as not a log: %v", others, stream, len(s.logs), found)
			}
			select {
			case <-released:
				t.Fatalf("%d other logs, stream %v: the FIFO was opened (its writer was released)", others, stream)
			case <-time.After(200 * time.Millisecond):
			}
		}
	}
}
