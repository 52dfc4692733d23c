package report

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dsh-replay/dsh-replay/replay"
)

// SchemaVersion is the version of the NDJSON report schema.
const SchemaVersion = 1

// Sink is one report format: it sees every result in order, then Close
// with the totals.
type Sink interface {
	replay.Sink
	Close(t *Totals) error
}

// ToolTally counts the calls of one tool.
type ToolTally struct {
	Tool                           string
	Verified, Diverged, Unverified int
	WithValue                      int
}

// Totals is the whole run.
type Totals struct {
	Logs       int
	Calls      int // including sub-calls
	Verified   int
	Diverged   int
	Unverified int
	WithValue  int
	// VerifiedWithValue counts verified calls whose render and
	// presentationMeta were checked against a recorded value; the other
	// verified calls were checked by their presenters only.
	VerifiedWithValue int
	// NotLogs counts files that are not session logs (not in Logs).
	NotLogs  int
	Findings map[replay.Class]int
	// Unreadable counts logs that could not be verified (fatal findings).
	Unreadable int
	Tools      map[string]*ToolTally
	// Duration of the run (zero under --deterministic).
	Duration time.Duration
	// Shard is "K/N" when sharded.
	Shard string
	// PluginTools name the tools --plugin added (and the ports they replace).
	PluginTools []string
	// Host is what --host loaded (nil without it).
	Host     *Host
	ExitCode int
}

// SortedTools is the tool tallies by name.
func (t *Totals) SortedTools() []*ToolTally {
	out := make([]*ToolTally, 0, len(t.Tools))
	for _, x := range t.Tools {
		out = append(out, x)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Tool < out[j].Tool })
	return out
}

// SortedClasses lists the finding classes seen, by name.
func (t *Totals) SortedClasses() []replay.Class {
	out := make([]replay.Class, 0, len(t.Findings))
	for c := range t.Findings {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Aggregator fans results out to the sinks and keeps the totals.
type Aggregator struct {
	Sinks  []Sink
	Totals Totals
	worst  replay.Severity
	logBad bool
}

// NewAggregator builds an aggregator over sinks.
func NewAggregator(sinks ...Sink) *Aggregator {
	return &Aggregator{Sinks: sinks, worst: -1,
		Totals: Totals{Findings: map[replay.Class]int{}, Tools: map[string]*ToolTally{}}}
}

func (a *Aggregator) BeginLog(file string) {
	a.logBad = false
	for _, s := range a.Sinks {
		s.BeginLog(file)
	}
}

func (a *Aggregator) Call(r *replay.CallResult) {
	t := &a.Totals
	t.Calls++
	tally := t.Tools[r.Tool]
	if tally == nil {
		tally = &ToolTally{Tool: r.Tool}
		t.Tools[r.Tool] = tally
	}
	switch r.Status {
	case replay.Verified:
		t.Verified++
		tally.Verified++
	case replay.Diverged:
		t.Diverged++
		tally.Diverged++
	default:
		t.Unverified++
		tally.Unverified++
	}
	if r.HasValue {
		t.WithValue++
		tally.WithValue++
		if r.Status == replay.Verified {
			t.VerifiedWithValue++
		}
	}
	a.count(r.Findings)
	for _, s := range a.Sinks {
		s.Call(r)
	}
}

func (a *Aggregator) count(fs []replay.Finding) {
	for i := range fs {
		a.Totals.Findings[fs[i].Class]++
		if fs[i].Sev > a.worst {
			a.worst = fs[i].Sev
		}
		if fs[i].Sev == replay.Fatal {
			a.logBad = true
		}
	}
}

func (a *Aggregator) EndLog(l *replay.LogResult) {
	// Counted at its end, when it is known to be a log.
	isLog := !l.NotALog && !l.CardGoldens
	switch {
	case isLog:
		a.Totals.Logs++
	case l.NotALog:
		a.Totals.NotLogs++
	}
	a.count(l.Findings)
	if a.logBad && isLog {
		a.Totals.Unreadable++
	}
	for _, s := range a.Sinks {
		s.EndLog(l)
	}
}

// ExitCode is 3 when anything could not be verified, 1 on divergence,
// else 0.
func (a *Aggregator) ExitCode() int {
	switch {
	case a.worst >= replay.Fatal:
		return 3
	case a.worst >= replay.Failure:
		return 1
	}
	return 0
}

// Close finishes every sink; the first error wins but all are closed.
func (a *Aggregator) Close() error {
	a.Totals.ExitCode = a.ExitCode()
	var first error
	for _, s := range a.Sinks {
		if err := s.Close(&a.Totals); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// New builds the sink of a format writing to w. Known formats: text, json,
// junit, github.
func New(format string, w io.Writer, o Options) (Sink, error) {
	switch format {
	case "text":
		return newText(w, o), nil
	case "json":
		return newJSON(w, o), nil
	case "junit":
		return newJUnit(w, o), nil
	case "github":
		return newGitHub(w, o), nil
	case "html":
		return newHTML(w, o), nil
	}
	return nil, fmt.Errorf("unknown report format %q (want text, json, junit, github or html)", format)
}

// Formats lists the report formats.
var Formats = []string{"text", "json", "junit", "github", "html"}

// Options tune rendering.
type Options struct {
	// Deterministic: no timings, no timestamps.
	Deterministic bool
	// StepSummary is the path of $GITHUB_STEP_SUMMARY (github format only;
	// appended to, never overwritten).
	StepSummary string
	// Strict is recorded in the reports' verdict lines.
	Strict bool
	// HTMLReport is the path of the HTML report written in the same run
	// (the github format links it in the job summary).
	HTMLReport string
	// ShowArgs are the flags that make `dsh-replay show` project as this
	// run did (--config FILE, --plugin PATH); every printed show command
	// carries them.
	ShowArgs []string
}

// plural formats "1 call" / "2 calls".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// location is log:line.
func location(f *replay.Finding) string {
	if f.Line > 0 {
		return fmt.Sprintf("%s:%d", f.File, f.Line)
	}
	return f.File
}

// verdict is the one-line outcome.
func verdict(t *Totals) string {
	var b strings.Builder
	switch t.ExitCode {
	case 0:
		b.WriteString("OK")
	case 1:
		b.WriteString("DIVERGED")
	default:
		b.WriteString("COULD NOT VERIFY")
	}
	fmt.Fprintf(&b, ": %s, %s: %d verified (%d checked with values, %d by presenters only), %d diverged, %d unverified",
		plural(t.Logs, "log", "logs"), plural(t.Calls, "call", "calls"), t.Verified,
		t.VerifiedWithValue, t.Verified-t.VerifiedWithValue, t.Diverged, t.Unverified)
	if t.Unreadable > 0 {
		fmt.Fprintf(&b, ", %s not verifiable", plural(t.Unreadable, "log", "logs"))
	}
	if t.NotLogs > 0 {
		fmt.Fprintf(&b, ", %s not a session log", plural(t.NotLogs, "file", "files"))
	}
	if t.Shard != "" {
		fmt.Fprintf(&b, " (shard %s)", t.Shard)
	}
	return b.String()
}

// noValuesHint is the line that follows the verdict when calls were checked
// but none carried a recorded value: "verified" then means presenters only.
func noValuesHint(t *Totals) string {
	if t.Calls == 0 || t.WithValue > 0 {
		return ""
	}
	return "note: no call carried a recorded value, so render and presentationMeta were not checked (presenters only); " +
		"record values inline (tool/result.data.value) or in a <log>.values.jsonl sidecar to check them (README: Recording values)"
}
