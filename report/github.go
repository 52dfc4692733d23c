package report

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/dsh-replay/dsh-replay/replay"
)

// AnnotationsPerLevel is GitHub's per-step cap on annotations of one level
// (error, warning, notice); more are silently dropped, so dsh-replay stops
// at the cap and says how many it left out.
const AnnotationsPerLevel = 10

// StepSummaryMax bounds what is appended to $GITHUB_STEP_SUMMARY (GitHub
// accepts about 1 MiB per step).
const StepSummaryMax = 1 << 20

// githubSink writes workflow commands: the most severe findings first (then
// by log and line), at most AnnotationsPerLevel per level, one notice naming
// the rest, and a job-summary section when StepSummary is set.
type githubSink struct {
	w        io.Writer
	o        Options
	findings []replay.Finding
}

func newGitHub(w io.Writer, o Options) *githubSink { return &githubSink{w: w, o: o} }

func (s *githubSink) BeginLog(string) {}

func (s *githubSink) Call(r *replay.CallResult) { s.findings = append(s.findings, r.Findings...) }

func (s *githubSink) EndLog(l *replay.LogResult) { s.findings = append(s.findings, l.Findings...) }

func level(f *replay.Finding) string {
	if f.Sev >= replay.Failure {
		return "error"
	}
	return "warning"
}

func (s *githubSink) Close(t *Totals) error {
	w := bufio.NewWriter(s.w)
	fs := make([]*replay.Finding, len(s.findings))
	for i := range s.findings {
		fs[i] = &s.findings[i]
	}
	// Stable: equal keys keep log order.
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Sev != b.Sev {
			return a.Sev > b.Sev
		}
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	used := map[string]int{}
	left := map[string]int{}
	for _, f := range fs {
		lv := level(f)
		if used[lv] >= AnnotationsPerLevel {
			left[lv]++
			continue
		}
		used[lv]++
		props := "file=" + escapeProp(f.File)
		if f.Line > 0 {
			props += fmt.Sprintf(",line=%d", f.Line)
		}
		title := f.Headline()
		if f.Tool != "" {
			title += " · " + f.Tool
		}
		title += " · " + f.Projector
		props += ",title=" + escapeProp(title)
		msg := f.Message
		if f.CallID != "" {
			msg = "call " + f.CallID + ": " + msg
		}
		if len(f.Diff) > 0 {
			msg += "\n" + strings.Join(f.Diff, "\n")
		}
		for _, step := range NextSteps(f, s.o.ShowArgs) {
			msg += "\n" + step
		}
		fmt.Fprintf(w, "::%s %s::%s\n", lv, props, escapeData(msg))
	}
	if n := left["error"] + left["warning"]; n > 0 {
		var parts []string
		for _, lv := range []string{"error", "warning"} {
			if left[lv] > 0 {
				parts = append(parts, plural(left[lv], lv, lv+"s"))
			}
		}
		where := "see the job summary"
		if s.o.StepSummary == "" {
			where = "run dsh-replay verify locally for the full report"
		}
		fmt.Fprintf(w, "::notice title=%s::%s\n", escapeProp("dsh-replay: more findings"),
			escapeData(fmt.Sprintf("%s more not annotated (GitHub shows at most %d per level); %s", strings.Join(parts, " and "), AnnotationsPerLevel, where)))
	}
	fmt.Fprintln(w, verdict(t))
	if hint := noValuesHint(t); hint != "" {
		fmt.Fprintf(w, "::notice title=%s::%s\n", escapeProp("dsh-replay: no recorded values"), escapeData(hint))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if s.o.StepSummary != "" {
		return s.appendSummary(t, fs)
	}
	return nil
}

// appendSummary appends a markdown section to the job summary file (it
// belongs to the job: append, never truncate).
func (s *githubSink) appendSummary(t *Totals, fs []*replay.Finding) error {
	var b strings.Builder
	b.WriteString("## dsh-replay verify\n\n")
	b.WriteString("**" + verdict(t) + "**\n\n")
	for _, pt := range t.PluginTools {
		b.WriteString("Plugin tool: " + mdText(pt) + "\n\n")
	}
	if s.o.HTMLReport != "" {
		b.WriteString("HTML report with every card and finding: `" + strings.ReplaceAll(s.o.HTMLReport, "`", "'") + "` (upload it as an artifact and open it in a browser).\n\n")
	}
	if hint := noValuesHint(t); hint != "" {
		b.WriteString(mdText(hint) + "\n\n")
	}
	b.WriteString("| tool | verified | diverged | unverified | with values |\n|---|---:|---:|---:|---:|\n")
	for _, x := range t.SortedTools() {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d |\n", mdCell(x.Tool), x.Verified, x.Diverged, x.Unverified, x.WithValue)
	}
	fmt.Fprintf(&b, "| **total** | %d | %d | %d | %d |\n\n", t.Verified, t.Diverged, t.Unverified, t.WithValue)
	if classes := t.SortedClasses(); len(classes) > 0 {
		b.WriteString("| finding | count |\n|---|---:|\n")
		for _, c := range classes {
			fmt.Fprintf(&b, "| `%s` | %d |\n", c, t.Findings[c])
		}
		b.WriteString("\n")
	}
	omitted := 0
	for i, f := range fs {
		var d strings.Builder
		// Only the fields a finding has: a log-level one has no call,
		// tool or diff.
		fmt.Fprintf(&d, "<details><summary>%s — %s</summary>\n\n", mdText(strings.Join(nonEmpty(location(f), f.CallID), " ")),
			mdText(strings.Join(nonEmpty(f.Headline(), f.Tool, f.Projector), " · ")))
		if f.Message != "" {
			d.WriteString(mdText(f.Message) + "\n\n")
		}
		if len(f.Diff) > 0 {
			d.WriteString("```diff\n")
			for _, l := range f.Diff {
				d.WriteString(strings.ReplaceAll(stripANSI(l), "```", "`\u200b``") + "\n")
			}
			d.WriteString("```\n\n")
		}
		if steps := NextSteps(f, s.o.ShowArgs); len(steps) > 0 {
			for _, step := range steps {
				what, cmd, _ := strings.Cut(step, ": ")
				d.WriteString("- " + mdText(what) + ": `" + strings.ReplaceAll(cmd, "`", "'") + "`\n")
			}
			d.WriteString("\n")
		}
		d.WriteString("</details>\n\n")
		if b.Len()+d.Len() > StepSummaryMax-256 {
			omitted = len(fs) - i
			break
		}
		b.WriteString(d.String())
	}
	if omitted > 0 {
		fmt.Fprintf(&b, "_%s not shown (summary size limit)._\n\n", plural(omitted, "more finding", "more findings"))
	}
	f, err := os.OpenFile(s.o.StepSummary, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("job summary: %w", err)
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		return fmt.Errorf("job summary: %w", err)
	}
	return f.Close()
}

var ansiRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[@-_]`)
})

// stripANSI removes terminal control sequences (as stripVTControlCharacters).
func stripANSI(s string) string { return ansiRE().ReplaceAllString(s, "") }

// escapeData escapes a workflow command message.
func escapeData(s string) string {
	s = stripANSI(s)
	s = strings.ReplaceAll(s, "%", "%25")
	s = strings.ReplaceAll(s, "\r", "%0D")
	return strings.ReplaceAll(s, "\n", "%0A")
}

// escapeProp escapes a workflow command property value.
func escapeProp(s string) string {
	s = escapeData(s)
	s = strings.ReplaceAll(s, ":", "%3A")
	return strings.ReplaceAll(s, ",", "%2C")
}

func mdCell(s string) string { return strings.ReplaceAll(mdText(s), "|", "\\|") }

// mdText keeps text from being read as HTML or markdown markup.
func mdText(s string) string {
	s = stripANSI(s)
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "`", "\\`", "*", "\\*", "_", "\\_", "\n", " ")
	return r.Replace(s)
}
