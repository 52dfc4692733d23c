package replay

import (
	"runtime"
	"testing"

	"github.com/dsh-replay/dsh-replay/logformat"
)

type goroutineSink struct{ base, peak int }

func (s *goroutineSink) sample() { s.peak = max(s.peak, runtime.NumGoroutine()-s.base) }

func (s *goroutineSink) BeginLog(string)   { s.sample() }
func (s *goroutineSink) Call(*CallResult)  { s.sample() }
func (s *goroutineSink) EndLog(*LogResult) { s.sample() }

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
	s := &goroutineSink{base: runtime.NumGoroutine()}
	Run(NewEngine(testRegistry(t), Options{}), []string{"../testdata/example/session.jsonl"}, RunOptions{Jobs: 1_000_000}, s)
	if s.peak == 0 || s.peak > 16 {
		t.Errorf("%d goroutines for 7 calls with --jobs 1000000 (want 1..16)", s.peak)
	}
}
