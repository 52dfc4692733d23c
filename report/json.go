package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/dsh-replay/dsh-replay/replay"
)

// jsonFinding is one NDJSON finding object (schema_version 1).
type jsonFinding struct {
	SchemaVersion int      `json:"schema_version"`
	Type          string   `json:"type"` // "finding"
	Class         string   `json:"class"`
	SubKind       string   `json:"subkind,omitempty"`
	Severity      string   `json:"severity"` // error, warning, fatal
	Log           string   `json:"log"`
	Line          int      `json:"line,omitempty"`
	CallID        string   `json:"callId,omitempty"`
	Tool          string   `json:"tool,omitempty"`
	Projector     string   `json:"projector"`
	Message       string   `json:"message"`
	Pointer       *string  `json:"pointer,omitempty"`
	Diff          []string `json:"diff,omitempty"`
	Command       string   `json:"command"`
	// Accept: golden update of the call, then golden review (findings
	// re-recording fixes).
	Accept []string `json:"accept,omitempty"`
}

type jsonTool struct {
	Tool       string `json:"tool"`
	Verified   int    `json:"verified"`
	Diverged   int    `json:"diverged"`
	Unverified int    `json:"unverified"`
	WithValues int    `json:"withValues"`
}

type jsonSummary struct {
	SchemaVersion int    `json:"schema_version"`
	Type          string `json:"type"` // "summary"
	Verdict       string `json:"verdict"`
	ExitCode      int    `json:"exitCode"`
	Logs          int    `json:"logs"`
	Unreadable    int    `json:"unverifiableLogs"`
	Calls         int    `json:"calls"`
	Verified      int    `json:"verified"`
	Diverged      int    `json:"diverged"`
	Unverified    int    `json:"unverified"`
	WithValues    int    `json:"withValues"`
	// CheckedWithValues + PresentersOnly = Verified.
	CheckedWithValues int            `json:"checkedWithValues"`
	PresentersOnly    int            `json:"presentersOnly"`
	NotSessionLogs    int            `json:"notSessionLogs"`
	Findings          map[string]int `json:"findings"`
	Tools             []jsonTool     `json:"tools"`
	Shard             string         `json:"shard,omitempty"`
	PluginTools       []string       `json:"pluginTools,omitempty"`
	Host              *Host          `json:"host,omitempty"`
	Strict            bool           `json:"strict"`
	DurationMs        int64          `json:"durationMs"`
}

// jsonSink writes NDJSON: one object per finding as it comes, then the
// summary.
type jsonSink struct {
	w   *bufio.Writer
	o   Options
	buf bytes.Buffer
	enc *json.Encoder
	err error
}

func newJSON(w io.Writer, o Options) *jsonSink {
	s := &jsonSink{w: bufio.NewWriter(w), o: o}
	s.enc = json.NewEncoder(&s.buf)
	s.enc.SetEscapeHTML(false)
	return s
}

func (s *jsonSink) emit(v any) {
	s.buf.Reset()
	if err := s.enc.Encode(v); err != nil && s.err == nil {
		s.err = err
		return
	}
	if _, err := s.w.Write(s.buf.Bytes()); err != nil && s.err == nil {
		s.err = err
	}
}

func (s *jsonSink) BeginLog(string) {}

func (s *jsonSink) Call(r *replay.CallResult) { s.findings(r.Findings) }

func (s *jsonSink) EndLog(l *replay.LogResult) { s.findings(l.Findings) }

func (s *jsonSink) findings(fs []replay.Finding) {
	for i := range fs {
		f := &fs[i]
		jf := jsonFinding{SchemaVersion: SchemaVersion, Type: "finding", Class: string(f.Class), SubKind: f.SubKind,
			Severity: f.Sev.String(), Log: f.File, Line: f.Line, CallID: f.CallID, Tool: f.Tool,
			Projector: f.Projector, Message: f.Message, Diff: f.DiffLines(), Command: findingCommand(f, s.o.ShowArgs),
			Accept: acceptCommands(f, s.o.ShowArgs)}
		if hasPointer(f) {
			p := f.Pointer
			jf.Pointer = &p
		}
		s.emit(&jf)
	}
}

// hasPointer: the pointer is meaningful for comparisons (including "", the
// whole value).
func hasPointer(f *replay.Finding) bool {
	switch f.Class {
	case replay.ContentMismatch, replay.MetaMismatch, replay.SchemaInvalid:
		return f.SubKind != replay.SubSpillPreview
	}
	return false
}

func (s *jsonSink) Close(t *Totals) error {
	sum := jsonSummary{SchemaVersion: SchemaVersion, Type: "summary", Verdict: verdict(t), ExitCode: t.ExitCode,
		Logs: t.Logs, Unreadable: t.Unreadable, Calls: t.Calls, Verified: t.Verified, Diverged: t.Diverged,
		Unverified: t.Unverified, WithValues: t.WithValue, CheckedWithValues: t.VerifiedWithValue,
		PresentersOnly: t.Verified - t.VerifiedWithValue, NotSessionLogs: t.NotLogs, Findings: map[string]int{}, Tools: []jsonTool{},
		Shard: t.Shard, PluginTools: t.PluginTools, Host: t.Host, Strict: s.o.Strict, DurationMs: t.Duration.Milliseconds()}
	for c, n := range t.Findings {
		sum.Findings[string(c)] = n
	}
	for _, x := range t.SortedTools() {
		sum.Tools = append(sum.Tools, jsonTool{x.Tool, x.Verified, x.Diverged, x.Unverified, x.WithValue})
	}
	s.emit(&sum)
	if err := s.w.Flush(); err != nil && s.err == nil {
		s.err = err
	}
	return s.err
}
