package report

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
	"github.com/dsh-replay/dsh-replay/replay"
)

// keepAll records a run's results to hand to the reports later.
type keepAll struct{ events []any }

func (k *keepAll) BeginLog(f string)          { k.events = append(k.events, f) }
func (k *keepAll) Call(c *replay.CallResult)  { k.events = append(k.events, c) }
func (k *keepAll) EndLog(l *replay.LogResult) { k.events = append(k.events, l) }
func (k *keepAll) replay(s replay.Sink) {
	for _, e := range k.events {
		switch e := e.(type) {
		case string:
			s.BeginLog(e)
		case *replay.CallResult:
			s.Call(e)
		case *replay.LogResult:
			s.EndLog(e)
		}
	}
}

// TestDeferredDiffsPrinted: the engine leaves a divergence's diff to be
// built when a report asks for it; every format prints what it printed
// when the diff was in the finding from the start.
func TestDeferredDiffsPrinted(t *testing.T) {
	reg, err := builtin.Registry(projector.Config{})
	if err != nil {
		t.Fatal(err)
	}
	logs, _ := filepath.Glob("../testdata/verify/mutated/*.jsonl")
	if len(logs) < 5 {
		t.Fatalf("%d mutated logs", len(logs))
	}
	run := &keepAll{}
	replay.Run(replay.NewEngine(reg, replay.Options{Views: true}), logs, replay.RunOptions{Deterministic: true}, run)
	var findings []*replay.Finding
	for _, e := range run.events {
		switch e := e.(type) {
		case *replay.CallResult:
			for i := range e.Findings {
				findings = append(findings, &e.Findings[i])
			}
		case *replay.LogResult:
			for i := range e.Findings {
				findings = append(findings, &e.Findings[i])
			}
		}
	}
	deferred := 0
	for _, f := range findings {
		if f.Diff == nil && len(f.DiffLines()) > 0 {
			deferred++
		}
	}
	if deferred < 3 {
		t.Fatalf("%d of %d findings have a deferred diff", deferred, len(findings))
	}
	report := func(format string) string {
		var out bytes.Buffer
		o := Options{Deterministic: true}
		if format == "github" {
			o.StepSummary = filepath.Join(t.TempDir(), "summary.md")
		}
		s, err := New(format, &out, o)
		if err != nil {
			t.Fatal(err)
		}
		agg := NewAggregator(s)
		run.replay(agg)
		if err := agg.Close(); err != nil {
			t.Fatal(err)
		}
		if o.StepSummary != "" {
			b, err := os.ReadFile(o.StepSummary)
			if err != nil {
				t.Fatal(err)
			}
			out.Write(b)
		}
		return out.String()
	}
	var blob bytes.Buffer
	b := NewBlob(&blob, BlobHeader{}, nil)
	lazy := map[string]string{}
	for _, format := range Formats {
		lazy[format] = report(format)
	}
	run.replay(b) // resolves what it encodes
	if err := b.Close(&Totals{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range findings {
		f.ResolveDiff()
	}
	var blob2 bytes.Buffer
	b = NewBlob(&blob2, BlobHeader{}, nil)
	run.replay(b)
	if err := b.Close(&Totals{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(blob.Bytes(), blob2.Bytes()) {
		t.Errorf("blob: deferred diffs encode otherwise")
	}
	for _, format := range Formats {
		if got := report(format); got != lazy[format] {
			t.Errorf("%s: the report with deferred diffs differs from the one with diffs in the findings", format)
		}
	}
}
