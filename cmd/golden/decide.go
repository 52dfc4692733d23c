package golden

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/zstd"
	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/internal/termquote"
	"github.com/dsh-replay/dsh-replay/logformat"
)

// decideCalls is accept or reject with --call/--tool: one call at a time.
func (g *goldenRun) decideCalls(action string, args []string) error {
	var revs []*callReview
	_, unlock, err := underLocks(func() ([]*pendingUnit, error) {
		g.states = nil
		states, rs, err := g.pendingReviews(args)
		revs = rs
		units := make([]*pendingUnit, len(states))
		for i, st := range states {
			units[i] = st.u
		}
		return units, err
	})
	if err != nil {
		return err
	}
	defer unlock()
	unknown := false
	for _, id := range g.o.calls {
		if !reviewFor(revs, id) {
			fmt.Fprintf(g.stderr, "dsh-replay: no pending change to call %s\n", id)
			unknown = true
		}
	}
	n, failed := 0, false
	for _, r := range revs {
		if err := g.decide(g.stateOf(r), r, action == "accept"); err != nil {
			var stale *staleError
			if errors.As(err, &stale) {
				fmt.Fprintf(g.stderr, "dsh-replay: not %s %s: %v; run %s again\n", map[string]string{"accept": "accepting", "reject": "rejecting"}[action], termquote.QuoteName(r.unit.log), err, g.command("update", []string{r.unit.log}))
				failed = true
				continue
			}
			fmt.Fprintf(g.stderr, "dsh-replay: %s call %s of %s: %v\n", action, termquote.QuoteName(r.call), termquote.QuoteName(r.unit.log), err)
			failed = true
			continue
		}
		n++
		fmt.Fprintf(g.stdout, "%s %s call %s (%s): %s\n", pastTense(action), termquote.QuoteName(r.unit.log), termquote.QuoteName(r.call), termquote.QuoteName(r.tool), r.describe())
	}
	if n == 0 && !failed {
		fmt.Fprintf(g.stdout, "no pending goldens to %s\n", action)
	} else {
		fmt.Fprintf(g.stdout, "%s: %d %s\n", pastTense(action), n, cmdutil.Plural(n, "call", "calls"))
	}
	switch {
	case failed:
		return &cmdutil.ExitError{Code: cmdutil.ExitCannot}
	case unknown:
		return &cmdutil.ExitError{Code: cmdutil.ExitUsage}
	}
	return nil
}

func reviewFor(revs []*callReview, id string) bool {
	for _, r := range revs {
		if r.call == id || strings.HasPrefix(id, r.call+":code:") {
			return true
		}
	}
	return false
}

func pastTense(action string) string {
	if action == "accept" {
		return "accepted"
	}
	return "rejected"
}

// stateOf is the unit state a review belongs to (loaded once per unit).
func (g *goldenRun) stateOf(r *callReview) *unitState {
	if g.states == nil {
		g.states = map[*pendingUnit]*unitState{}
	}
	st := g.states[r.unit]
	if st == nil {
		st = g.loadUnit(r.unit)
		g.states[r.unit] = st
	}
	return st
}

// decideOptions are the flags of `golden accept` and `golden reject`.
type decideOptions struct {
	goldenOptions
	action string // accept or reject
}

// newCmdDecide is `golden accept` or `golden reject` (action); runF, when
// set, runs instead (tests).
func newCmdDecide(fac *cmdutil.Factory, action string, runF func(*decideOptions) error) *cobra.Command {
	o := &decideOptions{action: action}
	o.proj.Limits = fac.PluginLimits
	short := "Move pending .new goldens into place"
	if action == "reject" {
		short = "Delete pending .new goldens"
	}
	c := &cobra.Command{
		Use:   action + " [PATH...]",
		Short: short,
		Long: short + ` under PATH (default: the current directory): all of
them, or the logs picked by --log (a log and its card goldens go together).
With --call ID (repeatable; a Code Mode sub-call's id decides its root call)
or --tool NAME only those calls are decided: their re-recorded content and
meta in the log, their cards and their views, each file written atomically;
the rest stays pending. Refuses to run when CI is set unless --force.`,
		RunE: runE(o, runF, runDecide),
	}
	addFilterFlags(c, &o.goldenOptions)
	c.Flags().BoolVar(&o.force, "force", false, "run even when CI is set")
	return c
}

func runDecide(o *decideOptions) error {
	action, args := o.action, o.Args
	if err := refuseInCI(&o.goldenOptions, action+" goldens"); err != nil {
		return err
	}
	g, err := newGoldenRun(&o.goldenOptions, false)
	if err != nil {
		return err
	}
	if g.filtered() {
		return g.decideCalls(action, args)
	}
	units, unlock, err := underLocks(func() ([]*pendingUnit, error) { return g.pendingUnits(args) })
	if err != nil {
		return err
	}
	defer unlock()
	n := 0
	failed := false
	for _, u := range units {
		if !g.matches(u) {
			continue
		}
		if action == "accept" {
			if err := pendingStillApplies(u); err != nil {
				fmt.Fprintf(g.stderr, "dsh-replay: not accepting %s: %v; run %s again\n", u.log, err, g.command("update", []string{u.log}))
				failed = true
				continue
			}
		}
		n++
		kinds := []string{kindLog, kindCardsText, kindCardsJSON}
		for _, k := range kinds {
			p, ok := u.files[k]
			if !ok {
				continue
			}
			if err := settle(action, p, g.stdout); err != nil {
				fmt.Fprintf(g.stderr, "dsh-replay: %v\n", err)
				failed = true
			}
		}
	}
	if n == 0 {
		fmt.Fprintf(g.stdout, "no pending goldens to %s\n", action)
	} else {
		fmt.Fprintf(g.stdout, "%s: %d %s\n", map[string]string{"accept": "accepted", "reject": "rejected"}[action], n, cmdutil.Plural(n, "log", "logs"))
	}
	if failed {
		return &cmdutil.ExitError{Code: cmdutil.ExitCannot}
	}
	return nil
}

// pendingStillApplies makes sure that accepting a pending log loses
// nothing: the pending copy must be exactly the current log with its calls'
// content and meta re-recorded. A log that changed since (events appended,
// edited by hand) is refused.
func pendingStillApplies(u *pendingUnit) error {
	p, ok := u.files[kindLog]
	if !ok {
		return nil
	}
	cur, err := logformat.ReadRegularFile(target(p))
	if err != nil {
		return fmt.Errorf("reading the log: %w", err)
	}
	pend, err := logformat.ReadRegularFile(p)
	if err != nil {
		return err
	}
	return pendingApplies(u, target(p), cur, pend)
}

// pendingApplies: pend is exactly cur with the unit's changes re-recorded.
func pendingApplies(u *pendingUnit, name string, cur, pend []byte) error {
	edits := make([]logformat.Edit, 0, len(u.changes))
	for _, ch := range u.changes {
		e := logformat.Edit{Line: ch.line, CallID: ch.callID, SubCall: ch.subCall, SetMeta: ch.meta, Meta: ch.newMeta}
		if ch.content {
			e.Content = ch.newContent
		}
		edits = append(edits, e)
	}
	want, err := logformat.Rewrite(name, cur, edits)
	if err == nil && !bytes.Equal(want, pend) && !sameZstdText(want, pend) {
		err = fmt.Errorf("the pending copy is not the current log re-recorded")
	}
	if err != nil {
		return fmt.Errorf("the log changed since the pending copy was written (%v)", err)
	}
	return nil
}

// sameZstdText compares two chained-frame logs by their text.
func sameZstdText(a, b []byte) bool {
	dec, err := zstd.NewReader(nil)
	if err != nil {
		return false
	}
	defer dec.Close()
	ta, err1 := dec.DecodeAll(a, nil)
	tb, err2 := dec.DecodeAll(b, nil)
	return err1 == nil && err2 == nil && bytes.Equal(ta, tb)
}

// settle accepts (renames into place, atomically) or rejects (deletes) one
// pending file.
func settle(action, pending string, w io.Writer) error {
	if action == "reject" {
		if err := os.Remove(pending); err != nil {
			return err
		}
		if w != nil {
			fmt.Fprintf(w, "rejected %s\n", pending)
		}
		return nil
	}
	t := target(pending)
	if st, err := os.Stat(t); err == nil {
		// Keep the mode of the file being replaced.
		os.Chmod(pending, st.Mode().Perm())
	}
	if err := os.Rename(pending, t); err != nil {
		return err
	}
	if d, err := os.Open(filepath.Dir(t)); err == nil {
		d.Sync()
		d.Close()
	}
	if w != nil {
		fmt.Fprintf(w, "accepted %s\n", t)
	}
	return nil
}
