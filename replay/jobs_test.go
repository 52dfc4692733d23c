package replay

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"testing"

	"github.com/dsh-replay/dsh-replay/logformat"
)

type logSinkNop struct{}

func (logSinkNop) BeginLog(string)   {}
func (logSinkNop) Call(*CallResult)  {}
func (logSinkNop) EndLog(*LogResult) {}

// --jobs is bounded by the work there is and by MaxJobs, never by the
// flag alone (a million workers took 2.8 GB to verify seven calls).
func TestRunWorkersBounded(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(64))
	if got, want := logformat.Jobs(1_000_000), 4*64; got != want {
		t.Errorf("Jobs(1e6) = %d, want %d", got, want)
	}
	if got := logformat.Jobs(0); got != 64 {
		t.Errorf("Jobs(0) = %d, want GOMAXPROCS", got)
	}
	// The example log has 7 calls: 9 items with its begin and end, so at
	// most 9 verifying workers, plus the producer and the reader's own.
	// Counted as created, not as alive: the workers may all be done
	// before the sink sees the first result.
	created := func() uint64 {
		m := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
		metrics.Read(m)
		return m[0].Value.Uint64()
	}
	runtime.GC() // the collector starts its workers for the 64 Ps now, not during the run
	before := created()
	Run(NewEngine(testRegistry(t), Options{}), []string{"../testdata/example/session.jsonl"}, RunOptions{Jobs: 1_000_000}, logSinkNop{})
	if n := created() - before; n < 1 || n > 16 {
		t.Errorf("%d goroutines started for 7 calls with --jobs 1000000 (want 1..16)", n)
	}
}

type logSink struct{ logs []*LogResult }

func (s *logSink) BeginLog(string)     {}
func (s *logSink) Call(*CallResult)    {}
func (s *logSink) EndLog(l *LogResult) { s.logs = append(s.logs, l) }

// KeepData hands a sink the bytes the run read a small log from, so that it
// need not read the log again; a log streamed in pieces has none.
func TestRunKeepData(t *testing.T) {
	small := "../testdata/example/session.jsonl"
	want, err := os.ReadFile(small)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	large := filepath.Join(dir, "large.jsonl")
	lines := bytes.SplitAfter(want, []byte("\n"))
	big := append([]byte{}, lines[0]...)
	for int64(len(big)) <= logformat.SmallLogBytes() {
		big = append(big, `{"type":"turn/start","seq":0,"time":0,"data":{"turn":1}}`+"\n"...)
	}
	os.WriteFile(large, big, 0o644)
	for _, keep := range []bool{false, true} {
		s := &logSink{}
		Run(NewEngine(testRegistry(t), Options{}), []string{small, large}, RunOptions{KeepData: keep}, s)
		if len(s.logs) != 2 {
			t.Fatalf("%d logs", len(s.logs))
		}
		if got := s.logs[0].Data; keep != (got != nil) || keep && !bytes.Equal(got, want) {
			t.Errorf("KeepData %v: the small log's data is %d bytes, want the file's %d", keep, len(got), len(want))
		}
		if s.logs[1].Data != nil {
			t.Errorf("KeepData %v: a streamed log kept %d bytes", keep, len(s.logs[1].Data))
		}
	}
}
