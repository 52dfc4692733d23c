package cmd

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/internal/gctune"
	"github.com/dsh-replay/dsh-replay/internal/termquote"
	"github.com/dsh-replay/dsh-replay/logformat"
)

type callsOptions struct {
	cmdutil.IO
	summary bool
	json    bool
	meta    bool
	content bool
	value   bool
	jobs    int
	filter  logformat.PathFilter
}

// newCmdCalls is `dsh-replay calls`; runF, when set, runs instead of
// runCalls (tests).
func newCmdCalls(fac *cmdutil.Factory, runF func(*callsOptions) error) *cobra.Command {
	o := &callsOptions{}
	c := &cobra.Command{
		Use:   "calls PATH...",
		Short: "List the tool calls paired from session logs (NDJSON), or count them",
		Long: `List every tool call of the given session logs as NDJSON, one object per
call in log order: provenance (log, line, callLine, seq, turn, step, callId,
and rootCallId/parentCallId for Code Mode sub-calls, which are nested under
their root in "subCalls"), the tool name, the raw arguments and the parsed
arguments (or argumentsError), the result flags (hasResult, isError, error,
synthetic, interrupted, hasMeta, hasValue, contentReplaced) and the number of
pruned replacement views.

PATH is a .jsonl or .jsonl.zstd file, a directory (searched recursively), or
"-" for stdin. With --summary the totals are printed instead, as text or, with
--json, as one JSON object. Warnings (torn tails, unknown events) go to stderr
and do not change the exit code; an unreadable or corrupt log exits 3.`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmdutil.UsageErr("calls needs at least one PATH (a log, a directory, or - for stdin)")
			}
			return nil
		},
		RunE: cmdutil.RunE(o, runF, runCalls),
	}
	f := c.Flags()
	f.BoolVar(&o.summary, "summary", false, "print the totals instead of the calls")
	f.BoolVar(&o.json, "json", false, "with --summary: print the totals as one JSON object")
	f.BoolVar(&o.meta, "meta", false, "include each result's recorded meta")
	f.BoolVar(&o.content, "content", false, "include each result's recorded content blocks")
	f.BoolVar(&o.value, "value", false, "include each result's recorded value")
	cmdutil.AddJobsFlag(f, &o.jobs)
	cmdutil.AddPathFilterFlags(f, &o.filter)
	return c
}

// callTotals adds up the summaries of several logs.
type callTotals struct {
	logs, failed                                 int
	events, records, calls, results, withMeta    int
	withErr, errResults, subCalls, values        int
	unknown, ignored, torn, notices, noticesDrop int
	// formats counts the session logs of each format version.
	formats [logformat.NewestFormat + 1]int
}

func (t *callTotals) add(s *logformat.Summary) {
	t.events += s.Events
	t.records += s.Records
	t.calls += s.Calls
	t.results += s.Results
	t.withMeta += s.ResultsWithMeta
	t.withErr += s.ResultsWithErr
	t.errResults += s.ErrorResults
	t.subCalls += s.SubCalls
	t.values += s.Values
	t.unknown += s.UnknownEvents
	t.ignored += s.IgnoredEvents
	t.torn += s.TornTails
	t.notices += len(s.Notices)
	t.noticesDrop += s.NoticesDropped
	if h := s.Header; h != nil && h.Version <= logformat.NewestFormat {
		t.formats[max(h.Version, 0)]++
	}
}

// Validate checks the flags.
func (o *callsOptions) Validate() error {
	if err := cmdutil.CheckJobs(o.jobs); err != nil {
		return err
	}
	if o.json && !o.summary {
		return cmdutil.UsageErr("--json goes with --summary (the call list is always NDJSON)")
	}
	return nil
}

func runCalls(o *callsOptions) error {
	args, stdin, stdout, stderr := o.Args, o.In, o.Out, o.ErrOut
	if os.Getenv("GOGC") == "" {
		// Reading allocates many short-lived values; a less eager collector
		// costs a few MB of heap and saves a good share of CPU.
		defer debug.SetGCPercent(debug.SetGCPercent(200))
	}
	in, err := cmdutil.ExpandLogInputs(args, o.filter, stderr)
	if err != nil {
		return err
	}
	out := bufio.NewWriterSize(stdout, 1<<16)
	defer out.Flush()
	opts := logformat.Options{Jobs: o.jobs, ShapesOnly: o.summary, Reserve: gctune.Reserve}
	jo := logformat.CallJSONOptions{Meta: o.meta, Content: o.content, Value: o.value}
	var line []byte
	emit := func(c *logformat.Call) error {
		if o.summary {
			return nil
		}
		line = logformat.AppendCallJSON(line[:0], c, jo)
		line = append(line, '\n')
		_, err := out.Write(line)
		return err
	}
	var tot callTotals
	for _, p := range in.Paths {
		tot.logs++
		sum, err := cmdutil.ReadLog(in, p, stdin, opts, emit)
		if sum != nil {
			tot.add(sum)
			cmdutil.WarnNotices(stderr, sum)
		}
		if err != nil {
			out.Flush()
			fmt.Fprintf(stderr, "dsh-replay: %s\n", termquote.EscapeControls(err.Error()))
			tot.failed++
		}
	}
	if o.summary {
		if o.json {
			writeTotalsJSON(out, &tot)
		} else {
			writeTotalsText(out, &tot)
		}
	}
	if err := out.Flush(); err != nil {
		return &cmdutil.ExitError{Code: cmdutil.ExitCannot, Err: err}
	}
	if tot.failed > 0 {
		return &cmdutil.ExitError{Code: cmdutil.ExitCannot}
	}
	return nil
}

func totalsRows(t *callTotals) [][2]any {
	return [][2]any{
		{"logs", t.logs}, {"failed", t.failed}, {"events", t.events}, {"records", t.records},
		{"calls", t.calls}, {"results", t.results}, {"resultsWithMeta", t.withMeta},
		{"resultsWithError", t.withErr}, {"errorResults", t.errResults}, {"subCalls", t.subCalls},
		{"values", t.values}, {"unknownEvents", t.unknown}, {"ignoredEvents", t.ignored},
		{"tornTails", t.torn},
		{"format0Logs", t.formats[0]}, {"format1Logs", t.formats[1]}, {"format2Logs", t.formats[2]},
		{"format3Logs", t.formats[3]}, {"format4Logs", t.formats[4]},
	}
}

func writeTotalsJSON(w io.Writer, t *callTotals) {
	b := []byte{'{'}
	for i, r := range totalsRows(t) {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, r[0].(string))
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(r[1].(int)), 10)
	}
	b = append(b, '}', '\n')
	w.Write(b)
}

var totalsLabels = map[string]string{
	"logs": "logs", "failed": "unreadable logs", "events": "events", "records": "records",
	"calls": "calls", "results": "results", "resultsWithMeta": "results with meta",
	"resultsWithError": "results with error", "errorResults": "isError results",
	"subCalls": "sub-calls", "values": "values", "unknownEvents": "unknown events",
	"ignoredEvents": "ignorable events skipped", "tornTails": "torn tails",
	"format0Logs": "format 0 logs", "format1Logs": "format 1 logs", "format2Logs": "format 2 logs",
	"format3Logs": "format 3 logs", "format4Logs": "format 4 logs",
}

func writeTotalsText(w io.Writer, t *callTotals) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range totalsRows(t) {
		fmt.Fprintf(tw, "%s\t%d\n", totalsLabels[r[0].(string)], r[1].(int))
	}
	tw.Flush()
}
