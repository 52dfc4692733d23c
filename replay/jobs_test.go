package replay

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dsh-replay/dsh-replay/internal/jobs"
	"github.com/dsh-replay/dsh-replay/jsonv"
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
	if got, want := jobs.Count(1_000_000), 4*64; got != want {
		t.Errorf("Jobs(1e6) = %d, want %d", got, want)
	}
	if got := jobs.Count(0); got != 64 {
		t.Errorf("Jobs(0) = %d, want GOMAXPROCS", got)
	}
	// Two copies of the example log have 14 calls: 18 items with their
	// begins and ends, so at most 18 verifying workers, plus the producer,
	// the feeder and a reader per log. Counted as created, not as alive:
	// the workers may all be done before the sink sees the first result.
	created := func() uint64 {
		m := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
		metrics.Read(m)
		return m[0].Value.Uint64()
	}
	runtime.GC() // the collector starts its workers for the 64 Ps now, not during the run
	example := "../testdata/example/session.jsonl"
	before := created()
	Run(NewEngine(testRegistry(t), Options{}), []string{example, example}, RunOptions{Jobs: 1_000_000}, logSinkNop{})
	if n := created() - before; n < 1 || n > 22 {
		t.Errorf("%d goroutines started for 14 calls with --jobs 1000000 (want 1..22)", n)
	}
	// One small log is verified on the caller's goroutine.
	before = created()
	Run(NewEngine(testRegistry(t), Options{}), []string{example}, RunOptions{Jobs: 1_000_000}, logSinkNop{})
	if n := created() - before; n != 0 {
		t.Errorf("%d goroutines started for one small log (want 0)", n)
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

// sameValue compares JSON values by what they hold (a Value's fields
// point into its decoder's slabs).
var sameValue = cmp.Options{
	cmp.Comparer(func(a, b jsonv.Value) bool {
		return a.Kind() == b.Kind() && jsonv.Equal(a, b) && jsonv.Stringify(a) == jsonv.Stringify(b)
	}),
	cmp.Exporter(func(reflect.Type) bool { return true }),
	// A deferred diff is compared by what it builds.
	cmp.Comparer(func(a, b *lazyDiff) bool {
		return (a == nil) == (b == nil) && (a == nil || cmp.Equal(a.get(), b.get()))
	}),
}

// recordSink keeps every event a run delivers, in order.
type recordSink struct{ events []any }

func (s *recordSink) BeginLog(f string)   { s.events = append(s.events, "begin "+f) }
func (s *recordSink) Call(c *CallResult)  { s.events = append(s.events, *c) }
func (s *recordSink) EndLog(l *LogResult) { s.events = append(s.events, *l) }

// A log verified alone (on the caller's goroutine) gives the events the pool
// gives for it: each testdata log run alone against the same log run
// followed by a second one, with values, entries and data kept.
func TestOneLogAsThePool(t *testing.T) {
	var logs []string
	filepath.WalkDir("../testdata", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".jsonl" && !strings.Contains(p, ".values.") {
			logs = append(logs, p)
		}
		return nil
	})
	if len(logs) < 50 {
		t.Fatalf("%d logs under testdata", len(logs))
	}
	e := NewEngine(testRegistry(t), Options{Views: true, Fingerprint: true})
	ro := RunOptions{Jobs: 2, Deterministic: true, KeepData: true}
	other := "../testdata/example/session.jsonl"
	for _, p := range logs {
		alone, pooled := &recordSink{}, &recordSink{}
		Run(e, []string{p}, ro, alone)
		Run(e, []string{p, other}, ro, pooled)
		if len(pooled.events) < len(alone.events) {
			t.Fatalf("%s: %d events pooled, %d alone", p, len(pooled.events), len(alone.events))
		}
		if d := cmp.Diff(pooled.events[:len(alone.events)], alone.events, sameValue); d != "" {
			t.Errorf("%s: alone differs from pooled (-pooled +alone):\n%s", p, d)
		}
	}
}
