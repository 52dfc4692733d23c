package golden

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dsh-replay/dsh-replay/internal/atomicwrite"
	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/logformat"
)

// Per-call review. A pending unit (a log and its two card goldens, each
// maybe with a .new file) is cut into per-call pieces: the re-recorded
// content and meta of the call and its Code Mode sub-calls in the log, its
// card in <base>.cards.txt and its lines in <base>.cards.ndjson. Deciding a
// call moves its pieces from the pending file into the golden (accept) or
// from the golden into the pending file (reject); each file is written
// atomically, and a pending file that no longer differs is removed. A
// change that belongs to no call (a new golden header, a file that does
// not parse into cards) is a whole-file item.

// segFile is a card golden cut into a header, one segment per call (keyed
// by call id) and a trailer (the count line of a .cards.txt).
type segFile struct {
	kind   string
	exists bool
	head   string
	keys   []string
	segs   map[string]string
	tail   string
	ok     bool // parsed, keys unique, and bytes() gives the input back
}

func parseSegs(kind string, data []byte, exists bool) segFile {
	s := segFile{kind: kind, exists: exists, segs: map[string]string{}, ok: true}
	if !exists {
		return s
	}
	str := string(data)
	head, body, found := strings.Cut(str, "\n")
	if !found {
		s.ok = false
		return s
	}
	s.head = head + "\n"
	add := func(key, seg string) {
		if key == "" || s.segs[key] != "" {
			s.ok = false
		}
		s.keys = append(s.keys, key)
		s.segs[key] = seg
	}
	switch kind {
	case kindCardsJSON:
		for _, l := range strings.SplitAfter(body, "\n") {
			if l == "" {
				continue
			}
			v, err := jsonv.Parse([]byte(strings.TrimSuffix(l, "\n")))
			if err != nil {
				s.ok = false
				return s
			}
			add(v.Get("callId").Str(), l)
		}
	default:
		if body == "" {
			break
		}
		parts := strings.Split(body, "\n\n")
		if last := parts[len(parts)-1]; cardCallID(last) == "" {
			s.tail = last
			parts = parts[:len(parts)-1]
		}
		for _, p := range parts {
			add(cardCallID(p), p)
		}
	}
	if s.ok && string(s.bytes()) != str {
		s.ok = false
	}
	return s
}

// cardCallID reads the call id from a card's footer ("╰ tool · id ·
// file:line", the location maybe on the next row): the last footer row of
// the block is the top-level call's.
func cardCallID(block string) string {
	lines := strings.Split(block, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if rest, ok := strings.CutPrefix(lines[i], "╰ "); ok {
			f := strings.Split(rest, " · ")
			if len(f) >= 2 {
				return f[1]
			}
			return ""
		}
	}
	return ""
}

func (s segFile) bytes() []byte {
	var b strings.Builder
	b.WriteString(s.head)
	if s.kind == kindCardsJSON {
		for _, k := range s.keys {
			b.WriteString(s.segs[k])
		}
		return []byte(b.String())
	}
	for i, k := range s.keys {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(s.segs[k])
	}
	if s.tail != "" {
		if len(s.keys) > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(s.tail)
	}
	return []byte(b.String())
}

// sameSegs: the two files hold the same segments in the same order.
func sameSegs(a, b segFile) bool {
	if len(a.keys) != len(b.keys) {
		return false
	}
	for i, k := range a.keys {
		if b.keys[i] != k || a.segs[k] != b.segs[k] {
			return false
		}
	}
	return true
}

// changedRoots lists the root calls whose segments differ, in pending order.
func changedRoots(cur, pend segFile, rootOf func(string) string) []string {
	seen := map[string]bool{}
	var out []string
	note := func(k string) {
		if r := rootOf(k); !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	for _, k := range pend.keys {
		if cur.segs[k] != pend.segs[k] || !has(cur, k) {
			note(k)
		}
	}
	for _, k := range cur.keys {
		if !has(pend, k) {
			note(k)
		}
	}
	return out
}

func has(s segFile, k string) bool { _, ok := s.segs[k]; return ok }

// transfer is dst with the segments of root taken from src: replaced,
// inserted where src has them, or removed when src lacks them.
func transfer(dst, src segFile, root string, rootOf func(string) string) segFile {
	out := segFile{kind: dst.kind, exists: true, ok: true, head: dst.head, tail: dst.tail, segs: map[string]string{}}
	if !dst.exists {
		out.head, out.tail = src.head, src.tail
	}
	mine := func(k string) bool { return rootOf(k) == root }
	for _, k := range dst.keys {
		if !mine(k) {
			out.keys = append(out.keys, k)
			out.segs[k] = dst.segs[k]
		}
	}
	// Insert src's segments of root after the nearest preceding key that
	// the result holds.
	for i, k := range src.keys {
		if !mine(k) {
			continue
		}
		pos := 0
		for j := i - 1; j >= 0; j-- {
			if idx := indexOf(out.keys, src.keys[j]); idx >= 0 {
				pos = idx + 1
				break
			}
		}
		out.keys = append(out.keys[:pos], append([]string{k}, out.keys[pos:]...)...)
		out.segs[k] = src.segs[k]
	}
	return out
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// Item is one pending change: a call's piece of one golden file (Call is
// empty for a whole-file change).
type Item struct {
	Log     string `json:"log"`
	Call    string `json:"call,omitempty"`
	Tool    string `json:"tool,omitempty"`
	Golden  string `json:"golden"`
	Pending string `json:"pending"`
	// Kind is the golden's kind: log (re-recorded content and meta),
	// cards (the card text) or cards-json (the presenters' views).
	Kind string `json:"kind"`
	// Change is added, removed or changed.
	Change string `json:"change"`
}

// callReview is everything pending for one root call of one unit (or, with
// call "", the unit's whole-file changes): one screen of the reviewer.
type callReview struct {
	unit   *pendingUnit
	call   string
	tool   string
	items  []Item
	logChg []callChange // the call's and its sub-calls' re-recorded fields
	// card text before and after ("" when absent); json lines likewise.
	cardOld, cardNew string
	jsonOld, jsonNew string
	whole            []string // kinds with whole-file changes (call "")
}

// unitState is a unit read for per-call work.
type unitState struct {
	u      *pendingUnit
	roots  map[string]string // call or sub-call id -> root call id
	tools  map[string]string // root call id -> tool
	order  []string          // root call ids in log order
	cur    map[string]segFile
	pend   map[string]segFile
	logCur []byte // the log and its pending copy as on disk: as loaded,
	logNew []byte // then as this run's decisions left them
	// checked: the first decision compared the pending log with the log
	// as loaded (checkErr: it does not apply).
	checked  bool
	checkErr error
}

func (st *unitState) rootOf(id string) string {
	if r, ok := st.roots[id]; ok {
		return r
	}
	if i := strings.Index(id, ":code:"); i > 0 {
		return id[:i]
	}
	return id
}

// loadUnit reads a unit's files and the call structure of its log.
func (g *goldenRun) loadUnit(u *pendingUnit) *unitState {
	st := &unitState{u: u, roots: map[string]string{}, tools: map[string]string{}, cur: map[string]segFile{}, pend: map[string]segFile{}}
	logPath := u.log
	if p, ok := u.files[kindLog]; ok {
		logPath = target(p)
		st.logCur, st.logNew = readOrEmpty(logPath), readOrEmpty(p)
	}
	note := func(data []byte) {
		logformat.ReadCallsFrom(filepath.Base(logPath), bytes.NewReader(data), logformat.Options{NoViewPrepass: true, NoSidecar: true}, func(c *logformat.Call) error {
			if _, ok := st.tools[c.CallID]; !ok {
				st.order = append(st.order, c.CallID)
			}
			st.roots[c.CallID], st.tools[c.CallID] = c.CallID, c.Name
			for _, s := range c.SubCalls {
				st.roots[s.CallID] = c.CallID
			}
			return nil
		})
	}
	if st.logCur != nil {
		note(st.logCur)
		note(st.logNew)
	} else {
		note(readOrEmpty(u.log))
	}
	for _, kind := range []string{kindCardsText, kindCardsJSON} {
		p, ok := u.files[kind]
		if !ok {
			// Not pending: the golden as it is, for context.
			ext := map[string]string{kindCardsText: cardsTextExt, kindCardsJSON: cardsJSONExt}[kind]
			if data, err := logformat.ReadRegularFile(u.base + ext); err == nil {
				st.cur[kind] = parseSegs(kind, data, true)
			}
			continue
		}
		curData, err := logformat.ReadRegularFile(target(p))
		st.cur[kind] = parseSegs(kind, curData, err == nil)
		st.pend[kind] = parseSegs(kind, readOrEmpty(p), true)
	}
	return st
}

// reviews cuts a unit into per-call reviews (log order), then a whole-file
// review when some change belongs to no call.
func (g *goldenRun) reviews(st *unitState) []*callReview {
	u := st.u
	by := map[string]*callReview{}
	var order []string
	get := func(root string) *callReview {
		r := by[root]
		if r == nil {
			r = &callReview{unit: u, call: root, tool: st.tools[root]}
			by[root] = r
			order = append(order, root)
		}
		return r
	}
	if p, ok := u.files[kindLog]; ok {
		for _, ch := range u.changes {
			root := st.rootOf(ch.callID)
			r := get(root)
			r.logChg = append(r.logChg, ch)
		}
		for _, root := range order {
			by[root].items = append(by[root].items, Item{Log: u.log, Call: root, Tool: st.tools[root], Golden: target(p), Pending: p, Kind: kindLog, Change: "changed"})
		}
		if len(u.changes) == 0 && !bytes.Equal(st.logCur, st.logNew) {
			get("").whole = append(get("").whole, kindLog)
		}
	}
	for _, kind := range []string{kindCardsText, kindCardsJSON} {
		p, ok := u.files[kind]
		if !ok {
			continue
		}
		cur, pend := st.cur[kind], st.pend[kind]
		if !cur.ok && cur.exists || !pend.ok {
			get("").whole = append(get("").whole, kind)
			continue
		}
		for _, root := range changedRoots(cur, pend, st.rootOf) {
			r := get(root)
			change := "changed"
			switch {
			case !hasRoot(cur, root, st.rootOf):
				change = "added"
			case !hasRoot(pend, root, st.rootOf):
				change = "removed"
			}
			r.items = append(r.items, Item{Log: u.log, Call: root, Tool: st.tools[root], Golden: target(p), Pending: p, Kind: kind, Change: change})
			old, new := rootText(cur, root, st.rootOf), rootText(pend, root, st.rootOf)
			if kind == kindCardsText {
				r.cardOld, r.cardNew = old, new
			} else {
				r.jsonOld, r.jsonNew = old, new
			}
		}
		if cur.head != pend.head || cur.tail != pend.tail {
			if sameSegs(cur, pend) {
				get("").whole = append(get("").whole, kind)
			}
		}
	}
	// Log order for the calls; the whole-file review last.
	pos := map[string]int{}
	for i, id := range st.order {
		pos[id] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		pi, iok := pos[order[i]]
		pj, jok := pos[order[j]]
		switch {
		case order[i] == "":
			return false
		case order[j] == "":
			return true
		case iok && jok:
			return pi < pj
		}
		return iok
	})
	out := make([]*callReview, 0, len(order))
	for _, id := range order {
		r := by[id]
		if r.tool == "" {
			r.tool = st.tools[id]
		}
		if id != "" && r.cardOld == "" && r.cardNew == "" {
			// The card did not change: show it for context.
			if cur, ok := st.cur[kindCardsText]; ok && cur.ok {
				r.cardOld = rootText(cur, id, st.rootOf)
				r.cardNew = r.cardOld
			}
		}
		if id == "" {
			for _, kind := range r.whole {
				p := u.files[kind]
				r.items = append(r.items, Item{Log: u.log, Golden: target(p), Pending: p, Kind: kind, Change: fileChange(p)})
			}
		}
		out = append(out, r)
	}
	return out
}

func fileChange(pending string) string {
	if !fileExists(target(pending)) {
		return "added"
	}
	return "changed"
}

func hasRoot(s segFile, root string, rootOf func(string) string) bool {
	for _, k := range s.keys {
		if rootOf(k) == root {
			return true
		}
	}
	return false
}

// rootText is the text of root's segments in a file.
func rootText(s segFile, root string, rootOf func(string) string) string {
	var parts []string
	for _, k := range s.keys {
		if rootOf(k) == root {
			parts = append(parts, strings.TrimSuffix(s.segs[k], "\n"))
		}
	}
	return strings.Join(parts, "\n")
}

// staleError is a decision refused because the pending log no longer
// applies to the log: update must run again.
type staleError struct{ err error }

func (e *staleError) Error() string { return e.err.Error() }
func (e *staleError) Unwrap() error { return e.err }

// mayDecide guards each decision on a unit. The first compares the pending
// log with the log as loaded (accepting a copy made from an older log would
// lose what changed since); later ones must not repeat that check against
// files the earlier decisions rewrote or moved into place. Every decision
// makes sure the log and its pending copy on disk are still what this run
// last read or wrote.
func (st *unitState) mayDecide(accept bool) error {
	p, ok := st.u.files[kindLog]
	if !ok {
		return nil
	}
	if !st.checked {
		st.checked = true
		st.checkErr = pendingApplies(st.u, target(p), st.logCur, st.logNew)
	}
	if accept && st.checkErr != nil {
		return &staleError{st.checkErr}
	}
	cur, err := logformat.ReadRegularFile(target(p))
	if err != nil {
		return &staleError{fmt.Errorf("reading the log: %w", err)}
	}
	pend, err := logformat.ReadRegularFile(p)
	if err != nil {
		return &staleError{fmt.Errorf("reading the pending log: %w", err)}
	}
	if !bytes.Equal(cur, st.logCur) || !bytes.Equal(pend, st.logNew) {
		return &staleError{fmt.Errorf("the log or its pending copy changed since the review began")}
	}
	return nil
}

// decide accepts or rejects one review (a root call's pieces, or with call
// "" the unit's whole-file changes). Every file it touches is written
// atomically; a pending file left with no difference is removed (or, on
// accept, moved into place) and the unit has it no more.
func (g *goldenRun) decide(st *unitState, r *callReview, accept bool) error {
	u := st.u
	if err := st.mayDecide(accept); err != nil {
		return err
	}
	if r.call == "" {
		for _, kind := range r.whole {
			p := u.files[kind]
			action := "reject"
			if accept {
				action = "accept"
			}
			if err := settle(action, p, nil); err != nil {
				return err
			}
			delete(u.files, kind)
		}
		return nil
	}
	// The log: re-record (or restore) the fields of the call and its sub-calls.
	if p, ok := u.files[kindLog]; ok && len(r.logChg) > 0 {
		edits := make([]logformat.Edit, 0, len(r.logChg))
		for _, ch := range r.logChg {
			e := logformat.Edit{Line: ch.line, CallID: ch.callID, SubCall: ch.subCall, SetMeta: ch.meta}
			switch {
			case accept:
				e.Meta = ch.newMeta
				if ch.content {
					e.Content = ch.newContent
				}
			default:
				e.Meta = ch.oldMeta
				if ch.content {
					e.Content = ch.oldContent
				}
			}
			edits = append(edits, e)
		}
		if accept {
			out, err := logformat.Rewrite(target(p), st.logCur, edits)
			if err != nil {
				return err
			}
			gone, err := g.writeOrSettle(p, out, st.logNew, true)
			if err != nil {
				return err
			}
			st.logCur = out
			if gone {
				st.logCur = st.logNew
				delete(u.files, kindLog)
			}
		} else {
			out, err := logformat.Rewrite(p, st.logNew, edits)
			if err != nil {
				return err
			}
			gone, err := g.writeOrSettle(p, out, st.logCur, false)
			if err != nil {
				return err
			}
			st.logNew = out
			if gone {
				st.logNew = st.logCur
				delete(u.files, kindLog)
			}
		}
	}
	for _, kind := range []string{kindCardsText, kindCardsJSON} {
		p, ok := u.files[kind]
		if !ok {
			continue
		}
		cur, pend := st.cur[kind], st.pend[kind]
		if !cur.ok && cur.exists || !pend.ok {
			continue // a whole-file item decides it
		}
		if accept {
			next := transfer(cur, pend, r.call, st.rootOf)
			if sameSegs(next, pend) {
				next = pend
			}
			gone, err := g.writeOrSettle(p, next.bytes(), pend.bytes(), true)
			if err != nil {
				return err
			}
			st.cur[kind] = next
			if gone {
				delete(u.files, kind)
			}
		} else {
			next := transfer(pend, cur, r.call, st.rootOf)
			if sameSegs(next, cur) {
				next = cur
			}
			gone, err := g.writeOrSettle(p, next.bytes(), cur.bytes(), false)
			if err != nil {
				return err
			}
			st.pend[kind] = next
			if gone {
				delete(u.files, kind)
			}
		}
	}
	return nil
}

// writeOrSettle writes one side of a pending pair: on accept, out is the
// new golden (when it equals the pending file, the pending file is moved
// into place instead); on reject, out is the new pending file (removed when
// it equals the golden). gone: the pending file is no more.
func (g *goldenRun) writeOrSettle(pending string, out, other []byte, accept bool) (gone bool, err error) {
	same := bytes.Equal(out, other) || (isZstd(out) && sameZstdText(out, other))
	switch {
	case accept && same:
		return true, settle("accept", pending, nil)
	case accept:
		return false, atomicwrite.WriteFile(target(pending), out, 0o644)
	case same:
		if err := os.Remove(pending); err != nil && !os.IsNotExist(err) {
			return false, err
		}
		return true, nil
	}
	return false, atomicwrite.WriteFile(pending, out, 0o644)
}

func isZstd(b []byte) bool {
	return len(b) >= 4 && b[0] == 0x28 && b[1] == 0xB5 && b[2] == 0x2F && b[3] == 0xFD
}

// pendingReviews lists every review under args that the filters keep.
func (g *goldenRun) pendingReviews(args []string) ([]*unitState, []*callReview, error) {
	units, err := g.pendingUnits(args)
	if err != nil {
		return nil, nil, err
	}
	var states []*unitState
	var out []*callReview
	for _, u := range units {
		if !g.logSelected(u) {
			continue
		}
		st := g.loadUnit(u)
		if g.states == nil {
			g.states = map[*pendingUnit]*unitState{}
		}
		g.states[u] = st
		states = append(states, st)
		for _, r := range g.reviews(st) {
			if r.call == "" && g.filtered() {
				continue
			}
			if r.call != "" && !g.callSelected(r.call, r.tool) && !g.subSelected(st, r) {
				continue
			}
			out = append(out, r)
		}
	}
	return states, out, nil
}

// subSelected: --call names one of the call's sub-calls.
func (g *goldenRun) subSelected(st *unitState, r *callReview) bool {
	for _, id := range g.o.calls {
		if st.rootOf(id) == r.call {
			return true
		}
	}
	return false
}

// logSelected applies --log only.
func (g *goldenRun) logSelected(u *pendingUnit) bool {
	if len(g.o.logs) == 0 {
		return true
	}
	for _, pat := range g.o.logs {
		if pathMatches(pat, u.log) {
			return true
		}
	}
	return false
}

// describe is one line naming a review's pieces.
func (r *callReview) describe() string {
	var parts []string
	for _, it := range r.items {
		parts = append(parts, fmt.Sprintf("%s %s", filepath.Base(it.Golden), it.Change))
	}
	return strings.Join(parts, ", ")
}
