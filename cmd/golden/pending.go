package golden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/cards"
	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"
	"github.com/dsh-replay/dsh-replay/internal/termquote"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
)

// Review: pending .new files are grouped by log (the log and its two card
// goldens are one unit, always consistent with each other) and shown,
// accepted or rejected together.

// pendingOptions are the flags of `golden pending`.
type pendingOptions struct {
	goldenOptions
	asJSON bool
}

// newCmdPending is `golden pending`; runF, when set, runs instead (tests).
func newCmdPending(fac *cmdutil.Factory, runF func(*pendingOptions) error) *cobra.Command {
	o := &pendingOptions{}
	o.proj.Limits = fac.PluginLimits
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
		RunE: runE(o, runF, runPending),
	}
	addFilterFlags(c, &o.goldenOptions)
	c.Flags().BoolVar(&o.asJSON, "json", false, "print one JSON object per pending item")
	return c
}

func runPending(o *pendingOptions) error {
	g, err := newGoldenRun(&o.goldenOptions, false)
	if err != nil {
		return err
	}
	_, revs, err := g.pendingReviews(o.Args)
	if err != nil {
		return err
	}
	return writePending(g.stdout, revs, o.asJSON)
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
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", termquote.QuoteName(it.Log), termquote.QuoteName(call), it.Kind, it.Change, termquote.QuoteName(it.Golden))
		}
	}
	if !asJSON && n == 0 {
		fmt.Fprintln(w, "no pending goldens")
	}
	return nil
}

func addFilterFlags(c *cobra.Command, o *goldenOptions) {
	f := c.Flags()
	cmdutil.StringArrayVar(f, &o.logs, "log", nil, "only logs matching `PATH` (the path, its base name, or a glob); repeatable")
	cmdutil.StringArrayVar(f, &o.tools, "tool", nil, "only logs with a pending change to a call of tool `NAME`; repeatable")
	cmdutil.StringArrayVar(f, &o.calls, "call", nil, "only logs with a pending change to the call `ID`; repeatable")
	f.StringVar(&o.out, "out", "", "the pending files are under `DIR` (as written by update --out)")
}

// pendingUnit is the pending changes of one log.
type pendingUnit struct {
	base    string            // golden base path (dir/session), where the goldens live
	log     string            // the log's path for display and --log
	files   map[string]string // kind -> pending path
	changes []callChange      // re-recorded calls (log pending)
	cards   map[string]bool   // call ids whose cards changed
	tools   map[string]bool   // tools of changed calls and cards
	all     bool              // card changes that could not be attributed to calls
}

func target(pending string) string { return strings.TrimSuffix(pending, pendingExt) }

// pendingUnits finds the pending files under the arguments.
func (g *goldenRun) pendingUnits(args []string) ([]*pendingUnit, error) {
	if len(args) == 0 {
		args = []string{"."}
	}
	units := map[string]*pendingUnit{}
	add := func(p string) {
		t := target(p)
		var kind, base string
		switch {
		case strings.HasSuffix(t, ".jsonl") || strings.HasSuffix(t, ".jsonl.zstd"):
			kind, base = kindLog, cards.LogBase(t)
		case strings.HasSuffix(t, cardsTextExt):
			kind, base = kindCardsText, strings.TrimSuffix(t, cardsTextExt)
		case strings.HasSuffix(t, cardsJSONExt):
			kind, base = kindCardsJSON, strings.TrimSuffix(t, cardsJSONExt)
		default:
			return
		}
		u := units[base]
		if u == nil {
			u = &pendingUnit{base: base, files: map[string]string{}, cards: map[string]bool{}, tools: map[string]bool{}}
			units[base] = u
		}
		u.files[kind] = p
	}
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, &cmdutil.ExitError{Code: cmdutil.ExitCannot, Err: fmt.Errorf("%s: no such file or directory", a)}
		}
		if st.IsDir() {
			filepath.WalkDir(g.place(a), func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() && strings.HasSuffix(p, pendingExt) {
					add(p)
				}
				return nil
			})
			continue
		}
		base := g.place(cards.LogBase(a))
		for _, f := range []string{g.place(a), base + cardsTextExt, base + cardsJSONExt} {
			if fileExists(f + pendingExt) {
				add(f + pendingExt)
			}
		}
	}
	out := make([]*pendingUnit, 0, len(units))
	for _, u := range units {
		u.log = g.displayLog(u)
		g.attribute(u)
		out = append(out, u)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].base < out[j].base })
	return out, nil
}

// displayLog names the unit's log in the source tree.
func (g *goldenRun) displayLog(u *pendingUnit) string {
	if p, ok := u.files[kindLog]; ok {
		return g.unplace(target(p))
	}
	base := g.unplace(u.base)
	for _, ext := range []string{".jsonl", ".jsonl.zstd"} {
		if fileExists(base + ext) {
			return base + ext
		}
	}
	return base + ".jsonl"
}

func readOrEmpty(p string) []byte {
	b, _ := logformat.ReadRegularFile(p)
	return b
}

// attribute finds the calls a unit's pending changes touch.
func (g *goldenRun) attribute(u *pendingUnit) {
	if p, ok := u.files[kindLog]; ok {
		u.changes = logChanges(filepath.Base(target(p)), readOrEmpty(target(p)), readOrEmpty(p))
		for _, ch := range u.changes {
			u.tools[ch.tool] = true
		}
	}
	if p, ok := u.files[kindCardsJSON]; ok {
		old, new := cardLines(readOrEmpty(target(p))), cardLines(readOrEmpty(p))
		for id, l := range new {
			if old[id].text != l.text {
				u.cards[id], u.tools[l.tool] = true, true
			}
		}
		for id, l := range old {
			if _, ok := new[id]; !ok {
				u.cards[id], u.tools[l.tool] = true, true
			}
		}
	}
	if p, ok := u.files[kindCardsText]; ok {
		old, new := splitCards(readOrEmpty(target(p))), splitCards(readOrEmpty(p))
		switch {
		case len(old) == 0:
			// A new golden: every card is new.
			for _, b := range new {
				u.cards[b.callID], u.tools[b.tool] = true, true
			}
		case len(old) != len(new):
			u.all = true
		default:
			for i := range new {
				if old[i].text != new[i].text {
					u.cards[new[i].callID], u.tools[new[i].tool] = true, true
				}
			}
		}
	}
}

type cardLine struct{ tool, text string }

// cardLines maps call ids to their lines of a .cards.ndjson golden.
func cardLines(data []byte) map[string]cardLine {
	out := map[string]cardLine{}
	for i, l := range bytes.Split(data, []byte{'\n'}) {
		if i == 0 || len(l) == 0 {
			continue
		}
		v, err := jsonv.Parse(l)
		if err != nil {
			continue
		}
		out[v.Get("callId").Str()] = cardLine{tool: v.Get("tool").Str(), text: string(l)}
	}
	return out
}

// logChanges compares the calls of two versions of a log.
func logChanges(name string, old, new []byte) []callChange {
	collect := func(data []byte) map[string]*logformat.Call {
		m := map[string]*logformat.Call{}
		logformat.ReadCallsFrom(name, bytes.NewReader(data), logformat.Options{NoViewPrepass: true}, func(c *logformat.Call) error {
			m[c.CallID] = c
			for _, s := range c.SubCalls {
				m[s.CallID] = s
			}
			return nil
		})
		return m
	}
	om, nm := collect(old), collect(new)
	var out []callChange
	for id, n := range nm {
		o := om[id]
		if o == nil {
			o = &logformat.Call{}
		}
		ch := callChange{callID: id, tool: n.Name, line: n.Line, subCall: n.IsSubCall,
			oldContent: o.Content, newContent: n.Content, oldMeta: o.Meta, newMeta: n.Meta}
		ch.content = !jsonv.Equal(o.Content, n.Content)
		ch.meta = o.Meta.IsDefined() != n.Meta.IsDefined() || (n.Meta.IsDefined() && !jsonv.Equal(o.Meta, n.Meta))
		if ch.content || ch.meta {
			out = append(out, ch)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].line < out[j].line })
	return out
}

// matches applies --log, --tool and --call.
func (g *goldenRun) matches(u *pendingUnit) bool {
	if len(g.o.logs) > 0 && !slices.ContainsFunc(g.o.logs, func(pat string) bool { return pathMatches(pat, u.log) }) {
		return false
	}
	if u.all {
		return true
	}
	if len(g.o.tools) > 0 && !slices.ContainsFunc(g.o.tools, func(t string) bool { return u.tools[t] }) {
		return false
	}
	touches := func(id string) bool {
		return u.cards[id] || slices.ContainsFunc(u.changes, func(ch callChange) bool { return ch.callID == id })
	}
	return len(g.o.calls) == 0 || slices.ContainsFunc(g.o.calls, touches)
}

func pathMatches(pat, path string) bool {
	clean := filepath.Clean(pat)
	if clean == filepath.Clean(path) || clean == filepath.Base(path) {
		return true
	}
	if ok, _ := filepath.Match(pat, path); ok {
		return true
	}
	ok, _ := filepath.Match(pat, filepath.Base(path))
	return ok
}

// callSelected: a call shown by diff under --tool/--call.
func (g *goldenRun) callSelected(id, tool string) bool {
	if len(g.o.tools) > 0 {
		ok := false
		for _, t := range g.o.tools {
			ok = ok || t == tool
		}
		if !ok {
			return false
		}
	}
	if len(g.o.calls) > 0 {
		ok := false
		for _, c := range g.o.calls {
			ok = ok || c == id
		}
		if !ok {
			return false
		}
	}
	return true
}

func (g *goldenRun) filtered() bool { return len(g.o.tools) > 0 || len(g.o.calls) > 0 }

// filterArgs repeats the filters in a suggested command.
func (g *goldenRun) filterArgs() []string {
	var out []string
	for _, l := range g.o.logs {
		out = append(out, "--log", shellQuote(l))
	}
	for _, t := range g.o.tools {
		out = append(out, "--tool", shellQuote(t))
	}
	for _, c := range g.o.calls {
		out = append(out, "--call", shellQuote(c))
	}
	return out
}
