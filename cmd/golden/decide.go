package golden

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/logformat"
)

// decideCalls is accept or reject with --call/--tool: one call at a time.
func (g *goldenRun) decideCalls(action string, args []string) error {
	_, revs, err := g.pendingReviews(args)
	if err != nil {
		return err
	}
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
				fmt.Fprintf(g.stderr, "dsh-replay: not %s %s: %v; run %s again\n", map[string]string{"accept": "accepting", "reject": "rejecting"}[action], logformat.QuoteName(r.unit.log), err, g.command("update", []string{r.unit.log}))
				failed = true
				continue
			}
			fmt.Fprintf(g.stderr, "dsh-replay: %s call %s of %s: %v\n", action, logformat.QuoteName(r.call), logformat.QuoteName(r.unit.log), err)
			failed = true
			continue
		}
		n++
		fmt.Fprintf(g.stdout, "%s %s call %s (%s): %s\n", pastTense(action), logformat.QuoteName(r.unit.log), logformat.QuoteName(r.call), logformat.QuoteName(r.tool), r.describe())
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

func newPendingCmd() *cobra.Command {
	o := &goldenOptions{}
	var asJSON bool
	c := &cobra.Command{
		Use:   "pending [PATH...]",
		Short: "List the pending golden changes: log, call, golden file, kind",
		Long: `pending lists every pending change under PATH (default: the current
directory), one per call and golden file: the log, the call (empty for a
change that belongs to no call), its tool, the golden file and its pending
.new file, the kind (log: re-recorded content and meta; cards: the card text;
cards-json: the presenters' views) and whether the call's piece is added,
removed or changed. --json prints one object per item. Exit 0 whatever is
pending (golden check is the gate).`,
		RunE: func(c *cobra.Command, args []string) error {
			g, err := newGoldenRun(c, o, false)
			if err != nil {
				return err
			}
			_, revs, err := g.pendingReviews(args)
			if err != nil {
				return err
			}
			return writePending(g.stdout, revs, asJSON)
		},
	}
	addFilterFlags(c, o)
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per pending item")
	return c
}

func writePending(w io.Writer, revs []*callReview, asJSON bool) error {
	n := 0
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, r := range revs {
		for _, it := range r.items {
			n++
			if asJSON {
				if err := enc.Encode(it); err != nil {
					return err
				}
				continue
			}
			call := it.Call
			if call == "" {
				call = "(whole file)"
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", logformat.QuoteName(it.Log), logformat.QuoteName(call), it.Kind, it.Change, logformat.QuoteName(it.Golden))
		}
	}
	if !asJSON && n == 0 {
		fmt.Fprintln(w, "no pending goldens")
	}
	return nil
}
