package golden

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/cards"
	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/internal/atomicwrite"
	"github.com/dsh-replay/dsh-replay/internal/termquote"
)

// updateOptions are the flags of `golden update`.
type updateOptions struct {
	goldenOptions
	dryRun, review, noReview, prune bool
}

func (o *updateOptions) Validate() error {
	if o.review && o.noReview {
		return cmdutil.UsageErr("--review and --no-review cannot be combined")
	}
	return nil
}

// newCmdUpdate is `golden update`; runF, when set, runs instead (tests).
func newCmdUpdate(fac *cmdutil.Factory, runF func(*updateOptions) error) *cobra.Command {
	o := &updateOptions{}
	o.proj.Limits = fac.PluginLimits
	c := &cobra.Command{
		Use:   "update PATH...",
		Short: "Re-record content/meta of logs with values and write card goldens",
		Long: `update re-runs render and presentationMeta on every call that carries a
canonical value and re-records the log's content and meta in place: only the
byte spans of those fields change (meta is inserted or removed as needed),
every other line stays byte-identical, and a .jsonl.zstd log stays chained
zstd (frames without an edited line are copied verbatim). Calls marked
contentReplaced keep their content (their meta is still re-recorded); Code
Mode sub-calls never get meta. Then the card goldens are written.

Writes are atomic (temporary file in the same directory, fsync, rename,
directory fsync). On a terminal the changes go to pending .new files; review
them with golden diff / accept / reject. Off a terminal, or with --no-review,
they are written in place. --dry-run only says what would change.`,
		Example: `  dsh-replay golden update testdata/golden
  dsh-replay golden update --no-review --prune testdata/
  dsh-replay golden update --out /tmp/goldens testdata/golden/session.jsonl`,
		Args: needPaths("update"),
		RunE: runE(o, runF, runUpdate),
	}
	addCommonFlags(c, &o.goldenOptions)
	f := c.Flags()
	f.BoolVar(&o.dryRun, "dry-run", false, "write nothing; say what would change")
	f.BoolVar(&o.review, "review", false, "write changes to pending .new files even off a terminal")
	f.BoolVar(&o.noReview, "no-review", false, "write changes in place even on a terminal")
	f.BoolVar(&o.force, "force", false, "write even when CI is set")
	f.BoolVar(&o.prune, "prune", false, "delete stale card goldens (whose log is gone) after a complete run")
	cmdutil.StringArrayVar(f, &o.calls, "call", nil, "re-record only the call `ID` (with its sub-calls), as a divergence's hint says; repeatable")
	return c
}

// mode is how update writes.
type mode int

const (
	modeWrite mode = iota
	modeReview
	modeDry
)

// mode is how this update writes: as the flags say, else as UpdateEnv
// says, else pending files on a terminal and in place elsewhere.
func (o *updateOptions) mode() (mode, error) {
	env, err := updatePolicy()
	if err != nil {
		return modeWrite, err
	}
	switch {
	case o.dryRun:
		return modeDry, nil
	case o.review:
		return modeReview, nil
	case o.noReview:
	case env == "no":
		return modeDry, nil
	case env == "new":
		return modeReview, nil
	case env == "always":
	case cmdutil.IsTerminal(o.Out):
		return modeReview, nil
	}
	return modeWrite, nil
}

// updateRun is one update: how it writes, and what it did so far.
type updateRun struct {
	*goldenRun
	opts *updateOptions
	mode mode
	code exitStatus
	// logs updated in place (or that would be), pending, unchanged, and
	// those with a write that failed (counted in none of the others)
	updated, pending, unchanged, failed int
}

func runUpdate(o *updateOptions) error {
	m, err := o.mode()
	if err != nil {
		return err
	}
	if m != modeDry {
		if err := refuseInCI(&o.goldenOptions, "write goldens"); err != nil {
			return err
		}
	}
	g, paths, err := goldenRunOver(&o.goldenOptions)
	if err != nil {
		return err
	}
	if err := g.checkCalls(paths); err != nil {
		return err
	}
	u := &updateRun{goldenRun: g, opts: o, mode: m}
	for _, path := range paths {
		if err := u.update(path); err != nil {
			fmt.Fprintf(u.stderr, "dsh-replay: %v\n", err)
			u.code.worse(cmdutil.ExitCannot)
		}
	}
	complete := u.pruneStale(paths)
	u.printSummary(len(paths), complete)
	return u.code.err()
}

// update plans and applies one log holding its lock (when it writes), so
// that golden runs on one log take turns and each plans from what the last
// one wrote.
func (u *updateRun) update(path string) error {
	if u.mode != modeDry {
		unlock, err := lockLog(path)
		if err != nil {
			return err
		}
		defer unlock()
	}
	p := u.streamPlan(path)
	defer p.close()
	if afterPlan != nil {
		afterPlan(path)
	}
	u.apply(path, p)
	return nil
}

// afterPlan, when set, runs between a log's plan and its writes (tests
// change the log there, as a live host appending to it would).
var afterPlan func(path string)

// apply writes what the plan of one log says, as the mode says, and
// reports each file it writes or would write.
func (u *updateRun) apply(path string, p *streamPlan) {
	if p.readErr != nil {
		fmt.Fprintf(u.stderr, "dsh-replay: %v\n", p.readErr)
		u.code.worse(cmdutil.ExitCannot)
		return
	}
	for _, pr := range p.problems {
		fmt.Fprintf(u.stderr, "dsh-replay: %s: call %s (%s): %s\n", cmdutil.Where(path, pr.line), pr.callID, pr.tool, pr.msg)
		if pr.fail {
			u.code.worse(cmdutil.ExitDivergence)
		}
	}
	changed, failed := false, false
	for _, f := range p.files {
		ch, ok := u.applyFile(f, p)
		changed = changed || ch
		if !ok {
			// The card goldens are made from the re-recorded log: none
			// is written for a log that was not.
			failed = true
			break
		}
	}
	switch {
	case failed:
		u.failed++
	case !changed:
		u.unchanged++
	case u.mode == modeReview:
		u.pending++
	default:
		u.updated++
	}
}

// applyFile writes one golden of a plan; changed: it differs from what is
// on disk; ok: what had to be written was. The re-recorded log was written
// to its temporary file by the plan; a card golden is rendered here into
// its own.
func (u *updateRun) applyFile(f *streamFile, p *streamPlan) (changed, ok bool) {
	pend := f.path + pendingExt
	if u.mode != modeDry {
		// Temporary files of earlier runs that were killed.
		removed := f.removed
		if f.kind != kindLog || p.out == nil {
			removed = append(atomicwrite.RemoveStaleTemps(f.path), atomicwrite.RemoveStaleTemps(pend)...)
		}
		for _, t := range removed {
			fmt.Fprintf(u.stdout, "removed %s (left by an interrupted write)\n", termquote.QuoteName(t))
		}
	}
	if f.writeErr != nil {
		u.writeFailed(f.target, f.writeErr)
		return true, false
	}
	out := p.out
	if f.kind != kindLog {
		var w io.Writer
		if u.mode != modeDry {
			target := f.path
			if u.mode == modeReview {
				target = pend
			} else if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
				fmt.Fprintf(u.stderr, "dsh-replay: %v\n", err)
				u.code.worse(cmdutil.ExitCannot)
				return true, false
			}
			t, err := atomicwrite.Create(target, 0o644)
			if err != nil {
				u.writeFailed(target, err)
				return true, false
			}
			defer t.Discard()
			out, w = t, t
		}
		same, err := u.renderCards(p, f, w)
		if err != nil {
			fmt.Fprintf(u.stderr, "dsh-replay: %v\n", err)
			u.code.worse(cmdutil.ExitCannot)
			return true, false
		}
		f.same = same
	}
	if f.same {
		// Nothing to change; a pending copy is now moot.
		if u.mode != modeDry && fileExists(pend) {
			if err := os.Remove(pend); err != nil {
				fmt.Fprintf(u.stderr, "dsh-replay: %v\n", err)
				u.code.worse(cmdutil.ExitCannot)
				return false, false
			}
		}
		return false, true
	}
	desc := u.describeStream(f, p)
	// The log is checked once more just before the rename (of the log, or
	// of its pending copy): a line a host appended since the plan would be
	// lost.
	var check func() error
	if f.kind == kindLog {
		check = p.unchanged
	}
	switch u.mode {
	case modeDry:
		fmt.Fprintf(u.stdout, "would %s %s%s\n", verbExists(f.exists), termquote.QuoteName(f.path), desc)
	case modeReview:
		if err := out.Commit(check); err != nil {
			u.writeFailed(pend, err)
			return true, false
		}
		fmt.Fprintf(u.stdout, "pending %s%s\n", termquote.QuoteName(pend), desc)
	default:
		if err := out.Commit(check); err != nil {
			u.writeFailed(f.path, err)
			return true, false
		}
		if fileExists(pend) {
			os.Remove(pend)
		}
		fmt.Fprintf(u.stdout, "%s %s%s\n", pastVerbExists(f.exists), termquote.QuoteName(f.path), desc)
	}
	return true, true
}

// writeFailed reports a write that did not land.
func (u *updateRun) writeFailed(path string, err error) {
	if errors.Is(err, errLogChanged) {
		fmt.Fprintf(u.stderr, "dsh-replay: %v\n", err)
	} else {
		fmt.Fprintf(u.stderr, "dsh-replay: writing %s: %v\n", termquote.QuoteName(path), err)
	}
	u.code.worse(cmdutil.ExitCannot)
}

// pruneStale deletes (--prune) or names the stale card goldens; complete
// is false when the run was not over whole directories, so that none were
// looked for.
func (u *updateRun) pruneStale(paths []string) (complete bool) {
	stale, complete := u.staleGoldens(u.opts.Args, paths)
	for _, s := range stale {
		switch {
		case !complete:
		case u.mode == modeDry && u.opts.prune:
			fmt.Fprintf(u.stdout, "would delete stale golden %s\n", termquote.QuoteName(s))
		case u.opts.prune && u.mode != modeDry:
			if err := os.Remove(s); err != nil {
				fmt.Fprintf(u.stderr, "dsh-replay: %v\n", err)
				u.code.worse(cmdutil.ExitCannot)
			} else {
				fmt.Fprintf(u.stdout, "deleted stale golden %s\n", termquote.QuoteName(s))
			}
		default:
			fmt.Fprintf(u.stderr, "dsh-replay: stale golden %s: its log is gone (delete it with --prune)\n", termquote.QuoteName(s))
		}
	}
	return complete
}

// printSummary is the line that ends an update, and what to run next.
func (u *updateRun) printSummary(logs int, complete bool) {
	word := map[mode]string{modeWrite: "updated", modeReview: "with pending changes", modeDry: "would change"}[u.mode]
	n := u.updated
	if u.mode == modeReview {
		n = u.pending
	}
	failed := ""
	if u.failed > 0 {
		failed = fmt.Sprintf(", %d not written", u.failed)
	}
	fmt.Fprintf(u.stdout, "golden: %d %s, %d %s, %d unchanged%s\n", logs, cmdutil.Plural(logs, "log", "logs"), n, word, u.unchanged, failed)
	if u.mode == modeReview && u.pending > 0 {
		fmt.Fprintf(u.stdout, "review with: %s\n", u.command("diff", u.opts.Args))
	}
	if !complete {
		fmt.Fprintln(u.stdout, "stale goldens not looked for: only directories are complete runs")
	}
}

// UpdateEnv names the environment variable of the update policy, as
// insta's INSTA_UPDATE: no (write nothing), new (pending .new files),
// always (in place). Flags win over it.
const UpdateEnv = "DSH_REPLAY_UPDATE"

func updatePolicy() (string, error) {
	switch v := os.Getenv(UpdateEnv); v {
	case "", "no", "new", "always":
		return v, nil
	default:
		return "", cmdutil.UsageErr("%s=%q: want no, new or always", UpdateEnv, v)
	}
}

func verbExists(exists bool) string {
	if !exists {
		return "write"
	}
	return "update"
}

func pastVerbExists(exists bool) string {
	if !exists {
		return "wrote"
	}
	return "updated"
}

// describeStream says what changed in a golden, for one line of output.
func (g *goldenRun) describeStream(f *streamFile, p *streamPlan) string {
	switch {
	case f.kind == kindLog && p.n > 0:
		parts := append([]string(nil), p.shown...)
		if p.n > len(p.shown) {
			parts = append(parts, fmt.Sprintf("… %d more", p.n-len(p.shown)))
		}
		return fmt.Sprintf(": %d %s re-recorded (%s)", p.n, cmdutil.Plural(p.n, "call", "calls"), strings.Join(parts, "; "))
	case !f.exists:
		return " (new)"
	case f.kind != kindLog && cards.ParseHeader(f.kind, f.head).Format != cards.GoldenFormat:
		return fmt.Sprintf(" (golden format %d → %d)", cards.ParseHeader(f.kind, f.head).Format, cards.GoldenFormat)
	}
	return ""
}
