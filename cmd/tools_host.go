package cmd

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/projector/builtin"
	"github.com/dsh-replay/dsh-replay/projector/hostdir"
)

// runToolsHost prints the drift table of the host installed at
// o.proj.Host: per tool, whether its projectors agree with the port on the
// worked examples. Exit 1 when a tool differs.
func runToolsHost(o *toolsOptions, stdout, stderr io.Writer) error {
	cfg, err := projector.LoadConfig(o.proj.Config)
	if err != nil {
		return cmdutil.UsageErr("--config: %v", err)
	}
	examples, err := hostdir.ReadExamples(o.examples)
	if err != nil {
		return cmdutil.UsageErr("--examples: %v", err)
	}
	ports, err := builtin.Registry(cfg)
	if err != nil {
		return cmdutil.UsageErr("--config: %v", err)
	}
	l, err := cmdutil.LoadHost(ports, cfg, o.proj.Host)
	if err != nil {
		return err
	}
	rows, err := hostdir.Drift(l, builtin.Registry, examples)
	if err != nil {
		return cmdutil.Cannot(err)
	}
	if len(o.examples) == 0 {
		fmt.Fprintln(stderr, "dsh-replay: no --examples given: the table says which tools the host defines, not whether they agree with the ports")
	}
	differ := 0
	for _, r := range rows {
		if r.Status() == "differ" {
			differ++
		}
	}
	if o.json {
		err = writeDriftJSON(stdout, l, rows)
	} else {
		err = writeDriftText(stdout, l, rows)
	}
	if err != nil {
		return err
	}
	if differ > 0 {
		return &cmdutil.ExitError{Code: cmdutil.ExitDivergence}
	}
	return nil
}

func writeDriftText(w io.Writer, l *hostdir.Loaded, rows []hostdir.DriftRow) error {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "host: %s %s (%s %s)\n", l.Product, l.Version, l.Layout, l.Dir)
	for _, f := range l.Failed {
		fmt.Fprintf(&buf, "host: not loaded (any tools it defines are not compared): %s: %v\n", f.Package.Name, f.Err)
	}
	if len(l.Filled) > 0 {
		fmt.Fprintf(&buf, "host: required options set as shipped (--config overrides): %s\n", strings.Join(l.Filled, ", "))
	}
	buf.WriteByte('\n')
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tHOST VERSION\tEXAMPLES\tAGREE\tDIFFER\tSTATUS\tFIRST DIFFERENCE")
	counts := map[string]int{}
	for _, r := range rows {
		version := r.Version
		if version == "" {
			version = "-"
		}
		first := r.First
		if first == "" {
			first = "-"
		}
		counts[r.Status()]++
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\n", r.Tool, version, r.Examples, r.Agree, r.Differ, r.Status(), oneLine(first))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var parts []string
	for _, s := range []string{"agree", "differ", "no examples", "no port", "not in host"} {
		parts = append(parts, fmt.Sprintf("%d %s", counts[s], s))
	}
	fmt.Fprintf(&buf, "\n%d tools: %s\n", len(rows), strings.Join(parts, ", "))
	_, err := w.Write(buf.Bytes())
	return err
}

// oneLine keeps a table cell on its line and readable.
func oneLine(s string) string {
	s = strconv.Quote(s)
	s = s[1 : len(s)-1]
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return s
}

func writeDriftJSON(w io.Writer, l *hostdir.Loaded, rows []hostdir.DriftRow) error {
	var b strings.Builder
	for _, r := range rows {
		ms := []jsonv.Member{
			jsonv.M("tool", jsonv.Str(r.Tool)),
			jsonv.M("host", jsonv.Str(l.Product)),
			jsonv.M("hostVersion", jsonv.Str(l.Version)),
			jsonv.M("plugin", jsonv.Str(r.Plugin)),
			jsonv.M("pluginVersion", jsonv.Str(r.Version)),
			jsonv.M("port", jsonv.BoolValue(r.Port)),
			jsonv.M("examples", jsonv.Num(float64(r.Examples))),
			jsonv.M("agree", jsonv.Num(float64(r.Agree))),
			jsonv.M("differ", jsonv.Num(float64(r.Differ))),
			jsonv.M("status", jsonv.Str(r.Status())),
		}
		if r.First != "" {
			ms = append(ms, jsonv.M("firstDifference", jsonv.Str(r.First)))
		}
		b.WriteString(jsonv.Stringify(jsonv.Obj(ms...)))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}
