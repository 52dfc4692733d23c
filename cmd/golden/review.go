package golden

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dsh-replay/dsh-replay/cards"
	"github.com/dsh-replay/dsh-replay/cmd/cmdutil"

	"github.com/klauspost/compress/zstd"
	"github.com/spf13/cobra"

	"github.com/dsh-replay/dsh-replay/logformat"
	"github.com/dsh-replay/dsh-replay/logformat/jsonv"
)

// Review: pending .new files are grouped by log (the log and its two card
// goldens are one unit, always consistent with each other) and shown,
// accepted or rejected together.

func addFilterFlags(c *cobra.Command, o *goldenOptions) {
	f := c.Flags()
	cmdutil.StringArrayVar(f, &o.logs, "log", nil, "only logs matching `PATH` (the path, its base name, or a glob); repeatable")
	cmdutil.StringArrayVar(f, &o.tools, "tool", nil, "only logs with a pending change to a call of tool `NAME`; repeatable")
	cmdutil.StringArrayVar(f, &o.calls, "call", nil, "only logs with a pending change to the call `ID`; repeatable")
	f.StringVar(&o.out, "out", "", "the pending files are under `DIR` (as written by update --out)")
}

func newGoldenDiffCmd() *cobra.Command {
	o := &goldenOptions{}
	c := &cobra.Command{
		Use:   "diff [PATH...]",
		Short: "Show the pending golden changes (.new files)",
		Long: `diff shows every pending change under PATH (default: the current directory):
for a log, each re-recorded call's content and meta; for card goldens, a line
diff. Whitespace is visible (␍ CR, ␉ tab, · trailing space, "(no newline at
end)") and each diff is capped at --max-lines with "… N more lines".
--tool and --call show only the matching calls.`,
		RunE: func(c *cobra.Command, args []string) error {
			return runGoldenDiff(c, o, args)
		},
	}
	addFilterFlags(c, o)
	c.Flags().IntVar(&o.maxLines, "max-lines", 100, "cap each diff at `N` lines")
	return c
}

func newGoldenReviewCmd(action string) *cobra.Command {
	o := &goldenOptions{}
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
		RunE: func(c *cobra.Command, args []string) error {
			return runGoldenReview(c, o, action, args)
		},
	}
	addFilterFlags(c, o)
	c.Flags().BoolVar(&o.force, "force", false, "run even when CI is set")
	return c
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
	if len(g.o.logs) > 0 {
		ok := false
		for _, pat := range g.o.logs {
			if pathMatches(pat, u.log) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	if len(g.o.tools) > 0 && !u.all {
		ok := false
		for _, t := range g.o.tools {
			ok = ok || u.tools[t]
		}
		if !ok {
			return false
		}
	}
	if len(g.o.calls) > 0 && !u.all {
		ok := false
		for _, id := range g.o.calls {
			ok = ok || u.cards[id]
			for _, ch := range u.changes {
				ok = ok || ch.callID == id
			}
		}
		if !ok {
			return false
		}
	}
	return true
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

func runGoldenDiff(c *cobra.Command, o *goldenOptions, args []string) error {
	if o.maxLines < 0 {
		return cmdutil.UsageErr("--max-lines must be >= 0")
	}
	g, err := newGoldenRun(c, o, false)
	if err != nil {
		return err
	}
	units, err := g.pendingUnits(args)
	if err != nil {
		return err
	}
	w := g.stdout
	shown := 0
	for _, u := range units {
		if !g.matches(u) {
			continue
		}
		shown++
		fmt.Fprintf(w, "── %s\n", u.log)
		if p, ok := u.files[kindLog]; ok {
			var sel []callChange
			for _, ch := range u.changes {
				if g.callSelected(ch.callID, ch.tool) {
					sel = append(sel, ch)
				}
			}
			fmt.Fprintf(w, "%s: %d %s re-recorded\n", p, len(u.changes), cmdutil.Plural(len(u.changes), "call", "calls"))
			for i := range sel {
				g.writeCallChange(w, u.log, &sel[i])
			}
		}
		for _, kind := range []string{kindCardsText, kindCardsJSON} {
			p, ok := u.files[kind]
			if !ok {
				continue
			}
			old, new := readOrEmpty(target(p)), readOrEmpty(p)
			if !fileExists(target(p)) {
				fmt.Fprintf(w, "%s: new golden\n", p)
			} else {
				fmt.Fprintf(w, "%s\n", p)
			}
			a, b := string(old), string(new)
			if g.filtered() {
				a, b = g.selectCards(kind, old, new)
			}
			writeDiff(w, a, b, o.maxLines)
		}
		fmt.Fprintln(w)
	}
	if shown == 0 {
		fmt.Fprintln(w, "no pending goldens")
		return nil
	}
	fmt.Fprintf(w, "%d %s with pending goldens: %s  or  %s\n", shown, cmdutil.Plural(shown, "log", "logs"), g.command("accept", args, g.filterArgs()...), g.command("reject", args, g.filterArgs()...))
	return nil
}

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

// selectCards keeps only the selected calls' cards of both versions.
func (g *goldenRun) selectCards(kind string, old, new []byte) (string, string) {
	if kind == kindCardsJSON {
		pick := func(data []byte) string {
			var b strings.Builder
			for i, l := range bytes.Split(data, []byte{'\n'}) {
				if i == 0 || len(l) == 0 {
					continue
				}
				v, err := jsonv.Parse(l)
				if err == nil && g.callSelected(v.Get("callId").Str(), v.Get("tool").Str()) {
					b.Write(l)
					b.WriteByte('\n')
				}
			}
			return b.String()
		}
		return pick(old), pick(new)
	}
	ob, nb := splitCards(old), splitCards(new)
	if len(ob) != len(nb) && len(ob) > 0 {
		return string(old), string(new)
	}
	pick := func(bs []cardBlock) string {
		var parts []string
		for _, b := range bs {
			if g.callSelected(b.callID, b.tool) {
				parts = append(parts, b.text)
			}
		}
		return strings.Join(parts, "\n\n")
	}
	return pick(ob), pick(nb)
}

func runGoldenReview(c *cobra.Command, o *goldenOptions, action string, args []string) error {
	if err := refuseInCI(o, action+" goldens"); err != nil {
		return err
	}
	g, err := newGoldenRun(c, o, false)
	if err != nil {
		return err
	}
	if g.filtered() {
		return g.decideCalls(action, args)
	}
	units, err := g.pendingUnits(args)
	if err != nil {
		return err
	}
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
