package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dsh-replay/dsh-replay/replay"
)

// junitSink writes JUnit XML (the Surefire/Ant shape): testsuites >
// testsuite (one per log) > testcase (one per call and projector, name
// "<callId>/<projector>", classname = tool, file and line = the call's place
// in the log) > failure | error | skipped, with the log path and line in
// system-out too. <testsuites> and every <testsuite> carry tests, failures,
// errors, skipped and time, which GitHub's JUnit reporters read. Counts must
// precede the cases, so a suite is spooled until its log ends and the
// suites are spooled until the run ends (each in memory up to a few MiB,
// then in a temporary file): memory stays bounded whatever the size of a
// log or of the run.
type junitSink struct {
	w     io.Writer
	o     Options
	suite *spool // the cases of the current log
	file  string
	n     junitCounts
	total junitCounts
	nanos int64

	out *spool // the finished suites
	err error  // the first spool error
}

type junitCounts struct{ tests, failures, errors, skipped int }

func (c *junitCounts) add(o junitCounts) {
	c.tests += o.tests
	c.failures += o.failures
	c.errors += o.errors
	c.skipped += o.skipped
}

func newJUnit(w io.Writer, o Options) *junitSink {
	return &junitSink{w: w, o: o, out: newSpool(), suite: newSpool()}
}

func (s *junitSink) BeginLog(file string) {
	s.file = file
	s.suite.reset()
	s.n = junitCounts{}
}

// projectorOrder is the order of testcases within one call.
var projectorOrder = []string{"schema", "render", "presentationMeta", "presentCall", "presentResult"}

func checkedProjector(c string) string {
	switch c {
	case "content":
		return "render"
	case "meta":
		return "presentationMeta"
	}
	return c
}

func (s *junitSink) Call(r *replay.CallResult) {
	by := map[string][]*replay.Finding{}
	var names []string
	seen := map[string]bool{}
	addName := func(p string) {
		if !seen[p] {
			seen[p] = true
			names = append(names, p)
		}
	}
	for _, c := range r.Checked {
		addName(checkedProjector(c))
	}
	for i := range r.Findings {
		f := &r.Findings[i]
		addName(f.Projector)
		by[f.Projector] = append(by[f.Projector], f)
	}
	ordered := make([]string, 0, len(names))
	for _, p := range projectorOrder {
		if seen[p] {
			ordered = append(ordered, p)
		}
	}
	for _, p := range names {
		if !contains(projectorOrder, p) {
			ordered = append(ordered, p)
		}
	}
	if len(ordered) == 0 {
		ordered = []string{"-"}
	}
	for i, p := range ordered {
		nanos := int64(0)
		if i == 0 {
			nanos = r.Nanos
		}
		s.testcase(r.CallID+"/"+p, r.Tool, nanos, r.File, r.Line, by[p])
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func (s *junitSink) testcase(name, class string, nanos int64, file string, line int, fs []*replay.Finding) {
	b := s.suite
	s.n.tests++
	where := file
	lineAttr := ""
	if line > 0 {
		where = fmt.Sprintf("%s:%d", file, line)
		lineAttr = fmt.Sprintf(" line=\"%d\"", line)
	}
	fmt.Fprintf(b, "    <testcase name=\"%s\" classname=\"%s\" time=\"%s\" file=\"%s\"%s>\n", attr(name), attr(class), s.seconds(nanos), attr(file), lineAttr)
	kind := ""
	for _, f := range fs {
		switch {
		case f.Sev == replay.Fatal:
			kind = "error"
		case f.Sev == replay.Failure && kind != "error":
			kind = "failure"
		case kind == "":
			kind = "skipped"
		}
	}
	switch kind {
	case "error":
		s.n.errors++
	case "failure":
		s.n.failures++
	case "skipped":
		s.n.skipped++
	}
	if kind != "" {
		f := fs[0]
		for _, x := range fs {
			if tagOf(x) == kind {
				f = x
				break
			}
		}
		msg := f.Headline() + ": " + f.Message
		if kind == "skipped" {
			fmt.Fprintf(b, "      <skipped>%s</skipped>\n", text(msg))
		} else {
			var body strings.Builder
			for _, x := range fs {
				body.WriteString(x.Headline() + " [" + x.Projector + "]: " + x.Message + "\n")
				for _, d := range x.DiffLines() {
					body.WriteString(d + "\n")
				}
				for _, step := range NextSteps(x, s.o.ShowArgs) {
					body.WriteString("→ " + step + "\n")
				}
			}
			fmt.Fprintf(b, "      <%s message=\"%s\" type=\"%s\">%s</%s>\n", kind, attr(msg), attr(string(f.Class)), text(body.String()), kind)
		}
	}
	fmt.Fprintf(b, "      <system-out>%s</system-out>\n", text(where))
	b.WriteString("    </testcase>\n")
}

func tagOf(f *replay.Finding) string {
	switch f.Sev {
	case replay.Fatal:
		return "error"
	case replay.Failure:
		return "failure"
	}
	return "skipped"
}

func (s *junitSink) EndLog(l *replay.LogResult) {
	if len(l.Findings) > 0 {
		fs := make([]*replay.Finding, len(l.Findings))
		for i := range l.Findings {
			fs[i] = &l.Findings[i]
		}
		s.testcase("log", "log", 0, l.File, l.Findings[0].Line, fs)
	}
	nanos := int64(0)
	if !s.o.Deterministic {
		nanos = l.Nanos
	}
	s.nanos += nanos
	s.total.add(s.n)
	fmt.Fprintf(s.out, "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%s\" timestamp=\"%s\">\n",
		attr(l.File), s.n.tests, s.n.failures, s.n.errors, s.n.skipped, s.seconds(nanos), s.timestamp())
	if err := s.suite.copyTo(s.out); err != nil && s.err == nil {
		s.err = err
	}
	s.suite.reset()
	s.out.WriteString("  </testsuite>\n")
}

func (s *junitSink) seconds(nanos int64) string {
	if s.o.Deterministic {
		nanos = 0
	}
	return fmt.Sprintf("%.3f", time.Duration(nanos).Seconds())
}

func (s *junitSink) timestamp() string {
	if s.o.Deterministic {
		return "0001-01-01T00:00:00Z"
	}
	return time.Now().UTC().Format(time.RFC3339)
}

func (s *junitSink) Close(t *Totals) error {
	if s.err != nil {
		return fmt.Errorf("junit spool: %w", s.err)
	}
	nanos := s.nanos
	if !s.o.Deterministic && t.Duration > 0 {
		nanos = t.Duration.Nanoseconds()
	}
	w := bufio.NewWriter(s.w)
	fmt.Fprintf(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"dsh-replay verify\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%s\">\n",
		s.total.tests, s.total.failures, s.total.errors, s.total.skipped, s.seconds(nanos))
	if err := s.out.copyTo(w); err != nil {
		return fmt.Errorf("junit spool: %w", err)
	}
	w.WriteString("</testsuites>\n")
	return w.Flush()
}

// attr escapes an XML attribute value.
func attr(s string) string { return escape(s, true) }

// text escapes element text (newlines and tabs kept).
func text(s string) string { return escape(s, false) }

// escape replaces characters XML 1.0 cannot carry with U+FFFD and escapes
// markup; in attributes whitespace controls become character references.
func escape(s string, inAttr bool) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"' && inAttr:
			b.WriteString("&quot;")
		case r == '\r':
			b.WriteString("&#xD;")
		case (r == '\n' || r == '\t') && inAttr:
			fmt.Fprintf(&b, "&#x%X;", r)
		case r == '\n' || r == '\t' || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF:
			b.WriteRune(r)
		default:
			b.WriteRune(0xFFFD)
		}
	}
	return b.String()
}
