package cmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/report"
)

type mergeOptions struct {
	cmdutil.IO
	format        string
	reports       []string
	deterministic bool
	blobs         []string
	// stepSummary is $GITHUB_STEP_SUMMARY (the github format appends to it).
	stepSummary string
	targets     []reportTarget // set by Validate
}

// newCmdMergeReports is `dsh-replay merge-reports`; runF, when set, runs
// instead of runMergeReports (tests).
func newCmdMergeReports(_ *cmdutil.Factory, runF func(*mergeOptions) error) *cobra.Command {
	o := &mergeOptions{}
	c := &cobra.Command{
		Use:   "merge-reports BLOB...",
		Short: "Merge the blobs of a sharded verify into the reports of one run",
		Long: `merge-reports reads the blobs the shards of one verify run wrote
(verify --shard K/N --report blob=FILE) and writes the reports that run
would have written unsharded: every log in its place, the same totals and
exit code (byte for byte with --deterministic, as the shards ran).

It refuses blobs written by different dsh-replay versions, with different
configurations (--config, --plugin, --strict, --shake, --kaptinlin,
--golden, --no-sidecar), over different inputs, of different shard counts,
a shard given twice, and a missing or cut-short shard.

Exit codes: those of verify for the merged run (0 verified, 1 divergence,
3 could not verify), 2 usage error, 3 a blob cannot be merged.`,
		Example: `  dsh-replay verify --shard 1/3 --report blob=shard-1.blob logs/   # on each of 3 machines
  dsh-replay merge-reports --format github --report html=report.html --report junit=junit.xml shard-*.blob`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmdutil.UsageErr("merge-reports needs the shards' blobs (verify --report blob=FILE)")
			}
			return nil
		},
		RunE: cmdutil.RunE(o, runF, func(o *mergeOptions) error { return runMergeReports(o, o.targets, o.Out) }),
	}
	f := c.Flags()
	f.StringVar(&o.format, "format", "text", "report format on stdout: text, json (NDJSON), junit, github, html")
	cmdutil.StringArrayVar(f, &o.reports, "report", nil, "also write a report: KIND=FILE (KIND text, json, junit, github, html; FILE - is stdout); repeatable")
	f.BoolVar(&o.deterministic, "deterministic", false, "zero all timings so reports can be golden-tested")
	return c
}

// Validate checks the flags and the blobs named, and sets the reports to
// write.
func (o *mergeOptions) Validate() error {
	o.blobs = o.Args
	o.stepSummary = os.Getenv("GITHUB_STEP_SUMMARY")
	targets, err := parseReports(o.format, o.reports)
	if err != nil {
		return cmdutil.UsageErr("%v", err)
	}
	for _, t := range targets {
		if t.kind == "blob" {
			return cmdutil.UsageErr("--report blob: merge-reports writes reports, not blobs")
		}
	}
	if len(o.blobs) == 0 {
		return cmdutil.UsageErr("merge-reports needs the shards' blobs (verify --report blob=FILE)")
	}
	o.targets = targets
	return nil
}

// openBlobs opens every blob and checks that together they are one run's
// shards, each once.
func openBlobs(names []string) ([]*report.BlobReader, []*os.File, error) {
	var rs []*report.BlobReader
	var files []*os.File
	fail := func(err error) ([]*report.BlobReader, []*os.File, error) {
		for _, f := range files {
			f.Close()
		}
		return nil, nil, cmdutil.Cannot(err)
	}
	for _, n := range names {
		f, err := os.Open(n)
		if err != nil {
			return fail(err)
		}
		files = append(files, f)
		r, err := report.OpenBlob(n, f)
		if err != nil {
			return fail(err)
		}
		rs = append(rs, r)
	}
	first := rs[0]
	h0 := first.Header
	for _, r := range rs[1:] {
		h := r.Header
		switch {
		case h.Version != h0.Version:
			return fail(fmt.Errorf("%s was written by dsh-replay %s and %s by %s: merge the blobs of one build (run every shard with the same version)", first.Name, h0.Version, r.Name, h.Version))
		case h.ShardN != h0.ShardN:
			return fail(fmt.Errorf("%s is shard %d/%d and %s shard %d/%d: the blobs come from runs split differently", first.Name, h0.ShardK, h0.ShardN, r.Name, h.ShardK, h.ShardN))
		case h.Config != h0.Config || h.Strict != h0.Strict || !slices.Equal(h.ShowArgs, h0.ShowArgs) || !slices.Equal(h.PluginTools, h0.PluginTools):
			return fail(fmt.Errorf("%s and %s were verified with different configurations (config %s and %s): --config and its content, --plugin, --strict, --shake, --kaptinlin, --golden and --no-sidecar must be the same in every shard", first.Name, r.Name, h0.Config, h.Config))
		case h.Inputs != h0.Inputs:
			return fail(fmt.Errorf("%s and %s were verified over different inputs (inputs %s and %s): every shard must be given the same paths and --include/--exclude", first.Name, r.Name, h0.Inputs, h.Inputs))
		}
	}
	byK := map[int]string{}
	for _, r := range rs {
		if prev, ok := byK[r.Header.ShardK]; ok {
			return fail(fmt.Errorf("%s and %s are both shard %d/%d", prev, r.Name, r.Header.ShardK, h0.ShardN))
		}
		byK[r.Header.ShardK] = r.Name
	}
	var missing []string
	for k := 1; k <= h0.ShardN; k++ {
		if _, ok := byK[k]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", k, h0.ShardN))
		}
	}
	if len(missing) > 0 {
		return fail(fmt.Errorf("shard %s missing: %d of %d blobs given (every shard's blob is needed for the run's reports)", strings.Join(missing, ", "), len(rs), h0.ShardN))
	}
	// In shard order, so equal indexes (none expected) keep a stable order.
	order := make([]int, len(rs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return rs[a].Header.ShardK - rs[b].Header.ShardK })
	sorted := make([]*report.BlobReader, len(rs))
	sortedFiles := make([]*os.File, len(rs))
	for i, j := range order {
		sorted[i], sortedFiles[i] = rs[j], files[j]
	}
	return sorted, sortedFiles, nil
}

// pendingFile is a report written beside its destination and renamed
// into place only when the merge succeeded.
type pendingFile struct {
	f    *os.File
	dest string
}

func runMergeReports(o *mergeOptions, targets []reportTarget, stdout io.Writer) error {
	start := time.Now()
	rs, blobFiles, err := openBlobs(o.blobs)
	if err != nil {
		return err
	}
	defer func() {
		for _, f := range blobFiles {
			f.Close()
		}
	}()
	h := rs[0].Header
	ro := report.Options{Deterministic: o.deterministic, StepSummary: o.stepSummary, Strict: h.Strict, ShowArgs: h.ShowArgs}
	for _, t := range targets {
		if t.kind == "html" && t.path != "-" {
			ro.HTMLReport = t.path
		}
	}
	var pending []pendingFile
	discard := func() {
		for _, p := range pending {
			p.f.Close()
			os.Remove(p.f.Name())
		}
	}
	var sinks []report.Sink
	for _, t := range targets {
		var w io.Writer = stdout
		if t.path != "-" {
			f, err := os.CreateTemp(filepath.Dir(t.path), "."+filepath.Base(t.path)+".*")
			if err != nil {
				discard()
				return cmdutil.Cannot(fmt.Errorf("--report %s: %w", t.kind, err))
			}
			f.Chmod(0o644) // as os.Create would (CreateTemp makes it 0600)
			pending = append(pending, pendingFile{f, t.path})
			w = f
		}
		sro := ro
		if t.kind != "github" {
			sro.StepSummary = ""
		}
		s, err := report.New(t.kind, w, sro)
		if err != nil {
			discard()
			return cmdutil.UsageErr("%v", err)
		}
		sinks = append(sinks, s)
	}
	agg := report.NewAggregator(sinks...)
	agg.Totals.PluginTools = h.PluginTools

	// Each blob holds its logs in input order: a k-way merge by index
	// restores the unsharded order.
	heads := make([]*report.BlobUnit, len(rs))
	for i, r := range rs {
		if heads[i], err = r.Next(); err != nil {
			discard()
			return cmdutil.Cannot(err)
		}
	}
	for {
		best := -1
		for i, u := range heads {
			if u != nil && (best < 0 || u.Index < heads[best].Index) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		u := heads[best]
		if o.deterministic {
			for i := range u.Calls {
				u.Calls[i].Nanos = 0
			}
			u.Log.Nanos = 0
		}
		u.Replay(agg)
		if heads[best], err = rs[best].Next(); err != nil {
			discard()
			return cmdutil.Cannot(err)
		}
	}
	if !o.deterministic {
		var sum int64
		for _, r := range rs {
			sum += r.Nanos
		}
		agg.Totals.Duration = time.Duration(sum) + time.Since(start)
	}
	err = agg.Close()
	for _, p := range pending {
		if cerr := p.f.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}
	if err == nil {
		for _, p := range pending {
			if rerr := os.Rename(p.f.Name(), p.dest); rerr != nil && err == nil {
				err = rerr
			}
		}
	}
	if err != nil {
		discard()
		return cmdutil.Cannot(fmt.Errorf("writing the report: %w", err))
	}
	if code := agg.ExitCode(); code != cmdutil.ExitOK {
		return &cmdutil.ExitError{Code: code}
	}
	return nil
}
