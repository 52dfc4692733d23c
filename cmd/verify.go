package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/cmd/golden"
	"github.com/dsh-replay/dsh-replay/internal/gctune"

	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/projector"
	"github.com/dsh-replay/dsh-replay/replay"
	"github.com/dsh-replay/dsh-replay/report"
)

type verifyOptions struct {
	cmdutil.IO
	// childEnv is added to the environment of --shake's children
	// (Factory.ChildEnv).
	childEnv      []string
	format        string
	reports       []string
	jobs          int
	shard         string
	shake         int
	strict        bool
	proj          cmdutil.ProjectorFlags
	deterministic bool
	kaptinlin     bool
	shakeChild    bool
	golden        string
	filter        logformat.PathFilter

	// Set by Validate: the shard (0/0 for none) and the reports to write.
	shardK, shardN int
	targets        []reportTarget
}

// newCmdVerify is `dsh-replay verify`; runF, when set, runs instead of
// runVerify (tests).
func newCmdVerify(fac *cmdutil.Factory, runF func(*verifyOptions) error) *cobra.Command {
	o := &verifyOptions{childEnv: fac.ChildEnv}
	o.proj.Limits = fac.PluginLimits
	c := &cobra.Command{
		Use:   "verify PATH...",
		Short: "Re-run the projectors on every recorded call and fail on any divergence (the CI gate)",
		Long: `Verify replays every tool call of the given session logs: the recorded
canonical value is validated against the tool's output schema and re-rendered
(render, and presentationMeta for top-level calls) and compared with the
recorded content and meta; both presenters run on the recorded arguments and
result. Logs without values still run the presenters. Everything is collected
(no fail-fast) and reported in log order whatever --jobs says.

PATH is a .jsonl or .jsonl.zstd file, a directory (searched recursively,
narrowed with --include/--exclude), or "-" for stdin. verify never writes anything except the report files named
with --report (and, for the github format, the job summary named by
$GITHUB_STEP_SUMMARY).

Divergence classes: content-mismatch (whitespace-only, crlf-only,
trailing-newline), meta-mismatch, meta-missing, meta-unexpected,
schema-invalid, render-failed, meta-failed, presenter-failed,
nondeterministic, log-corrupt, unreadable (a log, sidecar or directory that
cannot be opened or listed: reported in its place, the rest is verified),
zstd-window (a zstd window over 512 MiB: exit 3), unknown-event,
params-mismatch (the port's parameter schema disagrees with the host's: it
accepts arguments the host rejected, rejects them with another message, or
rejects arguments the host ran; a recorded "invalid arguments" rejection or
"unknown tool" error that the port gives word for word verifies, drawn as
the generic card), no-projector, impure, projector-timeout and
projector-resource (--plugin).
Notices (failures only under --strict):
not-a-session-log (a JSON-lines file of another kind, or a FIFO, device or
socket named like a log, found in a directory and never opened; named on
the command line it is exit 3), calls-without-records,
zstd-framing (a .jsonl.zstd log compressed by hand, read anyway),
presenter-declined, sandbox-unsupported (--plugin: the projector used
something Node has and the sandbox lacks, so the call is not verified).

Exit codes: 0 all verified, 1 divergence, 2 usage error, 3 could not verify
(unreadable or corrupt log, internal error).`,
		Example: `  dsh-replay verify testdata/
  dsh-replay verify --format junit --report json=verify.ndjson logs/
  dsh-replay verify --shard 2/4 --jobs 8 --strict logs/`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmdutil.UsageErr("verify needs at least one PATH (a log, a directory, or - for stdin)")
			}
			return nil
		},
		RunE: cmdutil.RunE(o, runF, runVerify),
	}
	f := c.Flags()
	f.StringVar(&o.format, "format", "text", "report format on stdout: text, json (NDJSON), junit, github, html")
	cmdutil.StringArrayVar(f, &o.reports, "report", nil, "also write a report: KIND=FILE (KIND text, json, junit, github, html, or blob: everything the reports need, for merge-reports; FILE - is stdout); repeatable")
	cmdutil.AddJobsFlag(f, &o.jobs)
	f.StringVar(&o.shard, "shard", "", "verify only shard K of N (K/N, 1-based): whole logs balanced by size, the same on every machine, for CI matrices; merge the shards' --report blob=FILE with merge-reports")
	f.IntVar(&o.shake, "shake", 0, "re-run every projector and presenter N more times (some under a perturbed TZ, locale, GOMAXPROCS) and report output that moves")
	f.BoolVar(&o.strict, "strict", false, "treat unverified calls and logs (no projector, unknown events, torn tails, other reader notices) as failures")
	f.BoolVar(&o.deterministic, "deterministic", false, "zero all timings so reports can be golden-tested")
	f.BoolVar(&o.kaptinlin, "kaptinlin", false, "also validate values with kaptinlin/jsonschema before the upstream validator (slower; a cross-check)")
	f.BoolVar(&o.shakeChild, "shake-child", false, "print per-call output fingerprints (the perturbed runs of --shake)")
	f.MarkHidden("shake-child")
	cmdutil.AddPathFilterFlags(f, &o.filter)
	o.proj.Add(f)
	f.StringVar(&o.golden, "golden", "", "also compare the logs' card goldens kept under `DIR` (\".\": next to the logs); see golden check")
	return c
}

// readOptions: --jobs decoders per log, as in calls.
// release is the DSH release --config pins ("" lets each log say).
func (o *verifyOptions) readOptions(release string) logformat.Options {
	return logformat.Options{Jobs: o.jobs, NoSidecar: o.proj.NoSidecar, Release: release, Reserve: gctune.Reserve}
}

// parseShard parses K/N.
func parseShard(s string) (k, n int, err error) {
	if s == "" {
		return 0, 0, nil
	}
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return 0, 0, fmt.Errorf("--shard wants K/N with 1 <= K <= N, got %q", s)
	}
	return k, n, nil
}

type reportTarget struct {
	kind, path string
}

func parseReports(format string, reports []string) ([]reportTarget, error) {
	valid := func(k string) bool {
		for _, f := range report.Formats {
			if f == k {
				return true
			}
		}
		return false
	}
	if !valid(format) {
		return nil, fmt.Errorf("--format: unknown format %q (want %s)", format, strings.Join(report.Formats, ", "))
	}
	var out []reportTarget
	stdout := false
	for _, r := range reports {
		kind, path, ok := strings.Cut(r, "=")
		if !ok || path == "" {
			return nil, fmt.Errorf("--report wants KIND=FILE, got %q", r)
		}
		if !valid(kind) && kind != "blob" {
			return nil, fmt.Errorf("--report: unknown format %q (want %s, or blob for merge-reports)", kind, strings.Join(report.Formats, ", "))
		}
		if path == "-" {
			if stdout {
				return nil, fmt.Errorf("--report: only one report can go to stdout")
			}
			stdout = true
		}
		out = append(out, reportTarget{kind, path})
	}
	if !stdout {
		out = append([]reportTarget{{format, "-"}}, out...)
	}
	return out, nil
}

// checkReportTargets refuses a report file that is one of the inputs.
func checkReportTargets(args []string, targets []reportTarget) error {
	outs := make([]cmdutil.Output, 0, len(targets)+1)
	github := false
	for _, t := range targets {
		outs = append(outs, cmdutil.Output{Flag: "--report " + t.kind, Path: t.path})
		github = github || t.kind == "github"
	}
	if s := os.Getenv("GITHUB_STEP_SUMMARY"); github && s != "" {
		outs = append(outs, cmdutil.Output{Flag: "$GITHUB_STEP_SUMMARY", Path: s})
	}
	return cmdutil.CheckOutputs(args, outs...)
}

// Validate checks the flags, parses --shard and the reports, and refuses
// a report file that is one of the inputs.
func (o *verifyOptions) Validate() error {
	var err error
	if o.shardK, o.shardN, err = parseShard(o.shard); err != nil {
		return cmdutil.UsageErr("%v", err)
	}
	if err := cmdutil.CheckJobs(o.jobs); err != nil {
		return err
	}
	if o.shake < 0 {
		return cmdutil.UsageErr("--shake must be >= 0")
	}
	if o.targets, err = parseReports(o.format, o.reports); err != nil {
		return cmdutil.UsageErr("%v", err)
	}
	return checkReportTargets(o.Args, o.targets)
}

func (o *verifyOptions) wants(kind string) bool {
	for _, t := range o.targets {
		if t.kind == kind {
			return true
		}
	}
	return false
}

// runVerify picks the mode: a --shake child prints fingerprints
// (runShakeChild); a --shake parent first runs its perturbed children
// (runShakeChildren); every run but a child verifies the logs into the
// reports (verifyLogs), a directory while it is walked.
func runVerify(o *verifyOptions) error {
	reg, pluginTools, host, err := o.proj.Projectors()
	if err != nil {
		return err
	}
	src, err := o.inputs()
	if err != nil {
		return err
	}
	if o.shakeChild {
		return runShakeChild(o, reg, src.paths, 0, 0, o.In, o.Out)
	}
	var perturbed map[string][]perturbedFP
	if o.shake > 0 {
		if perturbed, err = runShakeChildren(o, src.paths); err != nil {
			return &cmdutil.ExitError{Code: cmdutil.ExitCannot, Err: err}
		}
	}
	// The report files are opened only once the arguments are known good.
	rep, err := openReports(o, src, pluginTools)
	if err != nil {
		return err
	}
	return verifyLogs(o, reg, pluginTools, host, src, perturbed, rep)
}

// verifyInputs are the logs to verify: a stream of one directory being
// walked, or the paths expanded beforehand (a shard's share of them).
type verifyInputs struct {
	stream *logformat.Stream
	in     logformat.Inputs
	paths  []string       // what this run verifies: the shard's share of in.Paths
	index  map[string]int // a log's place in in.Paths
}

// inputs expands the arguments. One directory is verified while it is
// walked, unless --shake (whose children need every path first), a shard
// or a blob (which need the whole list).
func (o *verifyOptions) inputs() (verifyInputs, error) {
	var src verifyInputs
	var err error
	if !o.shakeChild && o.shake == 0 && o.shardN <= 1 && !o.wants("blob") {
		if src.stream, err = cmdutil.ExpandStream(o.Args, o.filter); err != nil {
			return src, err
		}
	}
	if src.stream == nil {
		if src.in, err = cmdutil.ExpandInputs(o.Args, o.filter); err != nil {
			return src, err
		}
	}
	// A shard verifies whole logs, its share of the list; the calls of
	// its logs are not filtered again.
	src.paths, src.index = shardInputs(src.in.Paths, o.shardK, o.shardN)
	return src, nil
}

// reports are the sinks of a run and the files they write.
type reports struct {
	sinks []report.Sink
	files []*os.File
}

func (r *reports) closeFiles() {
	for _, f := range r.files {
		f.Close()
	}
}

// openReports creates the report files and their sinks.
func openReports(o *verifyOptions, src verifyInputs, pluginTools []cmdutil.PluginTool) (*reports, error) {
	ro := report.Options{Deterministic: o.deterministic, StepSummary: os.Getenv("GITHUB_STEP_SUMMARY"), Strict: o.strict,
		ShowArgs: o.proj.ShowArgs()}
	for _, t := range o.targets {
		if t.kind == "html" && t.path != "-" {
			ro.HTMLReport = t.path
		}
	}
	r := &reports{}
	for _, t := range o.targets {
		var w io.Writer = o.Out
		if t.path != "-" {
			f, err := os.Create(t.path)
			if err != nil {
				r.closeFiles()
				return nil, &cmdutil.ExitError{Code: cmdutil.ExitCannot, Err: fmt.Errorf("--report %s: %w", t.kind, err)}
			}
			r.files = append(r.files, f)
			w = f
		}
		sro := ro
		if t.kind != "github" {
			sro.StepSummary = ""
		}
		var s report.Sink
		if t.kind == "blob" {
			s = o.newBlobSink(w, src.in.Paths, src.index, o.shardK, o.shardN, pluginTools)
		} else {
			var err error
			if s, err = report.New(t.kind, w, sro); err != nil {
				r.closeFiles()
				return nil, cmdutil.UsageErr("%v", err)
			}
		}
		r.sinks = append(r.sinks, s)
	}
	return r, nil
}

// verifyLogs verifies the logs into the reports (through the --shake and
// --golden sinks when asked) and turns the outcome into the exit code.
func verifyLogs(o *verifyOptions, reg *projector.Registry, pluginTools []cmdutil.PluginTool, host *report.Host, src verifyInputs, perturbed map[string][]perturbedFP, rep *reports) error {
	// The HTML report and a blob draw cards: the engine returns views.
	views := o.wants("html") || o.wants("blob")
	eng := replay.NewEngine(reg, replay.Options{Strict: o.strict, Shake: o.shake, Fingerprint: perturbed != nil, Views: views, Kaptinlin: o.kaptinlin})
	agg := report.NewAggregator(rep.sinks...)
	agg.Totals.Host = host
	for _, pt := range pluginTools {
		agg.Totals.PluginTools = append(agg.Totals.PluginTools, pt.String())
	}
	if o.shardN > 1 {
		agg.Totals.Shard = fmt.Sprintf("%d/%d", o.shardK, o.shardN)
	}
	var sink replay.Sink = agg
	if perturbed != nil {
		sink = &shakeSink{next: agg, perturbed: perturbed}
	}
	var cardSink *golden.CardSink
	if o.golden != "" {
		var err error
		if cardSink, err = golden.NewCardSink(sink, reg, o.golden, o.proj); err != nil {
			rep.closeFiles()
			return err
		}
		sink = cardSink
	}
	start := time.Now()
	in := src.in
	rop := replay.RunOptions{
		Jobs: o.jobs, Deterministic: o.deterministic,
		Read:      o.readOptions(reg.Config.Release),
		Stdin:     o.In,
		Walked:    in.Walked,
		Errs:      in.Errs,
		NoSidecar: in.NoSidecar,
		KeepData:  cardSink != nil,
	}
	if src.stream != nil {
		replay.RunFrom(eng, src.stream.Next, rop, sink)
		in.Superseded = src.stream.Superseded()
	} else {
		replay.Run(eng, src.paths, rop, sink)
	}
	cmdutil.WarnSuperseded(o.ErrOut, in.Superseded)
	if cardSink != nil {
		cardSink.Flush()
	}
	if !o.deterministic {
		agg.Totals.Duration = time.Since(start)
	}
	err := agg.Close()
	for _, f := range rep.files {
		if cerr := f.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}
	if err != nil {
		return &cmdutil.ExitError{Code: cmdutil.ExitCannot, Err: fmt.Errorf("writing the report: %w", err)}
	}
	if code := agg.ExitCode(); code != cmdutil.ExitOK {
		return &cmdutil.ExitError{Code: code}
	}
	return nil
}

// The environment perturbations of --shake run as child processes (see
// replay.Perturbations): `verify --shake-child` prints one fingerprint per
// call, which the parent compares with its own.

type perturbedFP struct {
	env string
	fp  replay.Fingerprint
}

type childLine struct {
	Log    string `json:"log"`
	Line   int    `json:"line"`
	CallID string `json:"callId"`
	FP     string `json:"fp"`
}

func shakeKey(log string, line int, callID string) string {
	return log + "\x00" + strconv.Itoa(line) + "\x00" + callID
}

// runShakeChild is the child side: fingerprints only, one JSON line per call.
func runShakeChild(o *verifyOptions, reg *projector.Registry, paths []string, k, n int, stdin io.Reader, stdout io.Writer) error {
	eng := replay.NewEngine(reg, replay.Options{Fingerprint: true, Kaptinlin: o.kaptinlin})
	s := &fpSink{enc: json.NewEncoder(stdout)}
	replay.Run(eng, paths, replay.RunOptions{Jobs: o.jobs, ShardK: k, ShardN: n, Deterministic: true,
		Read: o.readOptions(reg.Config.Release), Stdin: stdin}, s)
	if s.err != nil {
		return &cmdutil.ExitError{Code: cmdutil.ExitCannot, Err: s.err}
	}
	return nil
}

type fpSink struct {
	enc *json.Encoder
	err error
}

func (s *fpSink) BeginLog(string)          {}
func (s *fpSink) EndLog(*replay.LogResult) {}
func (s *fpSink) Call(r *replay.CallResult) {
	if r.Fingerprint == (replay.Fingerprint{}) || s.err != nil {
		return
	}
	s.err = s.enc.Encode(childLine{Log: r.File, Line: r.Line, CallID: r.CallID, FP: r.Fingerprint.String()})
}

// runShakeChildren runs one child per perturbation and collects their
// fingerprints by call.
func runShakeChildren(o *verifyOptions, paths []string) (map[string][]perturbedFP, error) {
	for _, p := range paths {
		if p == "-" {
			return nil, fmt.Errorf("--shake cannot re-read stdin in a perturbed environment; pass a file")
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("--shake: %w", err)
	}
	// paths are this shard's already: no --shard.
	args := []string{"verify", "--shake-child", "--jobs", strconv.Itoa(o.jobs)}
	if o.kaptinlin {
		args = append(args, "--kaptinlin")
	}
	args = append(args, o.proj.Args()...)
	args = append(append(args, "--"), paths...)
	out := map[string][]perturbedFP{}
	for _, p := range replay.Perturbations {
		cmd := exec.Command(exe, args...)
		cmd.Env = append(append(os.Environ(), p.Env...), o.childEnv...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		data, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("--shake: the run under %s failed: %v %s", p.Name, err, strings.TrimSpace(stderr.String()))
		}
		for _, line := range bytes.Split(data, []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			var cl childLine
			if err := json.Unmarshal(line, &cl); err != nil {
				return nil, fmt.Errorf("--shake: the run under %s printed %q: %v", p.Name, line, err)
			}
			fp, err := replay.ParseFingerprint(cl.FP)
			if err != nil {
				return nil, fmt.Errorf("--shake: the run under %s: %v", p.Name, err)
			}
			key := shakeKey(cl.Log, cl.Line, cl.CallID)
			out[key] = append(out[key], perturbedFP{p.Name, fp})
		}
	}
	return out, nil
}

// shakeSink adds a nondeterministic finding for every output whose
// fingerprint differs in a perturbed run.
type shakeSink struct {
	next      replay.Sink
	perturbed map[string][]perturbedFP
}

func (s *shakeSink) BeginLog(f string)          { s.next.BeginLog(f) }
func (s *shakeSink) EndLog(l *replay.LogResult) { s.next.EndLog(l) }
func (s *shakeSink) Call(r *replay.CallResult) {
	if r.Fingerprint != (replay.Fingerprint{}) {
		moved := map[string]bool{}
		for _, p := range s.perturbed[shakeKey(r.File, r.Line, r.CallID)] {
			for _, out := range r.Fingerprint.Moved(p.fp) {
				if !moved[out] {
					moved[out] = true
					r.Findings = append(r.Findings, replay.NondeterministicFinding(r, out, p.env))
					r.Status = replay.Diverged
				}
			}
		}
	}
	s.next.Call(r)
}
