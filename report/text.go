package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dsh-replay/dsh-replay/cards"
	"github.com/dsh-replay/dsh-replay/internal/termquote"
	"github.com/dsh-replay/dsh-replay/replay"
)

// ClusterMin is the number of findings sharing one cause from which the
// text report shows them as one cluster instead of one by one.
const ClusterMin = 3

// SamplesPerCluster bounds the sample locations printed per cluster.
const SamplesPerCluster = 3

// textLog is what the report keeps of one log while the run goes on; its
// findings are spooled (the section of a log is written at the end, when
// the clusters are known), so memory does not grow with them.
type textLog struct {
	notALog  bool
	file     string
	calls    int
	findings int
	worst    replay.Severity
	nanos    int64
}

// cluster counts the findings of one cause: calls for call findings,
// logs for log-level ones (a log may have several, such as seq gaps).
type cluster struct {
	sig         string
	first       replay.Finding
	n           int // findings
	calls       int
	logFindings int
	logs        int
	lastLogFile string
	samples     []string // the first SamplesPerCluster locations
}

// textSink is the human report: findings by log then call, identical causes
// clustered, then a table of tools. Memory holds one small record a log and
// one a cause; the findings wait in a spool (a temporary file past a few
// MiB).
type textSink struct {
	w        io.Writer
	o        Options
	logs     []*textLog
	cur      *textLog
	clusters map[string]int // signature -> index in order
	order    []*cluster
	spool    *spool
	rec      []byte
	body     []byte
	err      error
}

func newText(w io.Writer, o Options) *textSink {
	return &textSink{w: w, o: o, clusters: map[string]int{}, spool: newSpool()}
}

func (s *textSink) BeginLog(file string) {
	s.cur = &textLog{file: file, worst: -1}
	s.logs = append(s.logs, s.cur)
}

func (s *textSink) Call(r *replay.CallResult) {
	s.cur.calls++
	s.add(r.Findings)
}

func (s *textSink) add(fs []replay.Finding) {
	for i := range fs {
		f := &fs[i]
		s.cur.findings++
		s.cur.worst = max(s.cur.worst, f.Sev)
		sig := f.Signature()
		ci, ok := s.clusters[sig]
		if !ok {
			ci = len(s.order)
			s.clusters[sig] = ci
			s.order = append(s.order, &cluster{sig: sig, first: *f})
		}
		c := s.order[ci]
		c.n++
		if len(c.samples) < SamplesPerCluster {
			c.samples = append(c.samples, strings.TrimSpace(termLocation(f)+" "+termquote.QuoteName(f.CallID)))
		}
		if f.CallID != "" {
			c.calls++
		} else {
			c.logFindings++
			if c.logs == 0 || f.File != c.lastLogFile {
				c.logs++ // logs come in order: a new file is a new log
				c.lastLogFile = f.File
			}
		}
		// From a cause's ClusterMin-th finding on, its findings are shown
		// as the cluster (its first finding) only: their diffs are never
		// printed, so never built.
		var diff []string
		if c.n < ClusterMin {
			diff = f.DiffLines()
		}
		s.rec, s.body = encodeFinding(s.rec[:0], s.body, f, diff, ci)
		if _, err := s.spool.Write(s.rec); err != nil && s.err == nil {
			s.err = err
		}
	}
}

// header says what the cluster counts: "3 calls", "3 logs", "100 findings
// in 1 log", or both kinds.
func (c *cluster) header() string {
	switch {
	case c.logFindings == 0:
		return plural(c.calls, "call", "calls")
	case c.calls == 0 && c.logFindings == c.logs:
		return plural(c.logs, "log", "logs")
	case c.calls == 0:
		return fmt.Sprintf("%s in %s", plural(c.n, "finding", "findings"), plural(c.logs, "log", "logs"))
	}
	return fmt.Sprintf("%s (%s, %s in %s)", plural(c.n, "finding", "findings"), plural(c.calls, "call", "calls"),
		plural(c.logFindings, "log finding", "log findings"), plural(c.logs, "log", "logs"))
}

func (s *textSink) EndLog(l *replay.LogResult) {
	s.cur.notALog = l.NotALog
	s.add(l.Findings)
	if !s.o.Deterministic {
		s.cur.nanos = l.Nanos
	}
}

func (s *textSink) Close(t *Totals) error {
	if s.err != nil {
		return fmt.Errorf("report spool: %w", s.err)
	}
	in, done, err := s.spool.open()
	if err != nil {
		return fmt.Errorf("report spool: %w", err)
	}
	defer done()
	w := bufio.NewWriter(s.w)
	writeHost(w, t.Host)
	var rest []replay.Finding // the findings of one log not in a cluster
	// A finding shown in its cluster is counted, not decoded.
	clustered := func(ci int) bool { return ci >= len(s.order) || s.order[ci].n >= ClusterMin }
	for _, l := range s.logs {
		rest = rest[:0]
		hidden := 0
		for range l.findings {
			var f replay.Finding
			_, inCluster, err := decodeFinding(in, &f, clustered)
			if err != nil {
				return fmt.Errorf("report spool: %w", err)
			}
			if inCluster {
				hidden++
				continue
			}
			rest = append(rest, f)
		}
		status := "ok  "
		switch l.worst {
		case replay.Fatal:
			status = "ERR "
		case replay.Failure:
			status = "FAIL"
		case replay.Warning:
			status = "warn"
		}
		if l.notALog && status != "ERR " && status != "FAIL" {
			status = "skip"
		}
		// One line a log, thousands for a tree: written piece by piece.
		w.WriteString(status)
		w.WriteByte(' ')
		w.WriteString(termquote.QuoteName(l.file))
		if l.notALog {
			w.WriteString(" (not a session log")
		} else {
			w.WriteString(" (")
			w.WriteString(plural(l.calls, "call", "calls"))
		}
		if l.findings > 0 {
			w.WriteString(", ")
			w.WriteString(plural(l.findings, "finding", "findings"))
		}
		if hidden > 0 {
			fmt.Fprintf(w, ", %d in clusters below", hidden)
		}
		if l.nanos > 0 {
			w.WriteString(", ")
			w.WriteString(time.Duration(l.nanos).Round(time.Millisecond).String())
		}
		w.WriteString(")\n")
		lastCall := "\x00"
		for i := range rest {
			f := &rest[i]
			if key := f.CallID + "\x00" + fmt.Sprint(f.Line); key != lastCall {
				lastCall = key
				if f.CallID == "" {
					fmt.Fprintf(w, "  %s (log)\n", termLocation(f))
				} else {
					fmt.Fprintf(w, "  %s %s %s\n", termLocation(f), termquote.QuoteName(f.CallID), termquote.QuoteName(f.Tool))
				}
			}
			s.writeFinding(w, f, "    ")
		}
	}
	var cl []*cluster
	for _, c := range s.order {
		if c.n >= ClusterMin {
			cl = append(cl, c)
		}
	}
	if len(cl) > 0 {
		fmt.Fprintln(w)
		for _, c := range cl {
			f := &c.first
			fmt.Fprintf(w, "%s, 1 cause: %s", c.header(), f.Headline())
			if f.Tool != "" {
				fmt.Fprintf(w, " · %s", termquote.QuoteName(f.Tool))
			}
			fmt.Fprintf(w, " · %s\n", f.Projector)
			s.writeFinding(w, f, "  ")
			more := ""
			if c.n > len(c.samples) {
				more = fmt.Sprintf(", … (%d more)", c.n-len(c.samples))
			}
			fmt.Fprintf(w, "  samples: %s%s\n", strings.Join(c.samples, ", "), more)
		}
	}
	fmt.Fprintln(w)
	writeToolTable(w, t)
	fmt.Fprintln(w)
	for _, pt := range t.PluginTools {
		fmt.Fprintf(w, "plugin tool: %s\n", pt)
	}
	line := verdict(t)
	if t.Duration > 0 {
		line += fmt.Sprintf(" in %s", t.Duration.Round(time.Millisecond))
	}
	fmt.Fprintln(w, line)
	if hint := noValuesHint(t); hint != "" {
		fmt.Fprintln(w, hint)
	}
	return w.Flush()
}

// writeFinding prints one finding; what came from the log (message parts,
// diff lines) is sanitized for the terminal as show does.
func (s *textSink) writeFinding(w io.Writer, f *replay.Finding, indent string) {
	fmt.Fprintf(w, "%s%s %s [%s]: %s\n", indent, sevWord(f.Sev), f.Headline(), f.Projector, cards.Sanitize(f.Message))
	for _, d := range f.DiffLines() {
		fmt.Fprintf(w, "%s  %s\n", indent, cards.Sanitize(d))
	}
	for _, step := range NextSteps(f, s.o.ShowArgs) {
		fmt.Fprintf(w, "%s  → %s\n", indent, step)
	}
}

// termLocation is location with the file name quoted when a terminal
// must not get it raw.
func termLocation(f *replay.Finding) string {
	if f.Line > 0 {
		return fmt.Sprintf("%s:%d", termquote.QuoteName(f.File), f.Line)
	}
	return termquote.QuoteName(f.File)
}

func sevWord(s replay.Severity) string {
	switch s {
	case replay.Fatal:
		return "fatal"
	case replay.Failure:
		return "error"
	}
	return "warning"
}

func writeToolTable(w io.Writer, t *Totals) {
	tools := t.SortedTools()
	width := len("total")
	for _, x := range tools {
		width = max(width, len(x.Tool))
	}
	fmt.Fprintf(w, "%-*s  %8s  %8s  %10s  %11s\n", width, "tool", "verified", "diverged", "unverified", "with values")
	for _, x := range tools {
		fmt.Fprintf(w, "%-*s  %8d  %8d  %10d  %11d\n", width, x.Tool, x.Verified, x.Diverged, x.Unverified, x.WithValue)
	}
	fmt.Fprintf(w, "%-*s  %8d  %8d  %10d  %11d\n", width, "total", t.Verified, t.Diverged, t.Unverified, t.WithValue)
}
