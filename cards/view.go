package cards

import (
	"fmt"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// Card names of the closed upstream union.
const (
	CardGeneric  = "generic"
	CardTerminal = "terminal"
	CardDiff     = "diff"
	CardRead     = "read"
	CardSearch   = "search"
	CardWeb      = "web"
)

// CallView is a ToolCallView: *GenericCall, *TerminalCall, *DiffCall, or
// *Unknown for a card this build does not know.
type CallView interface {
	Card() string
	callView()
}

// ResultView is a ToolResultView: *GenericResult, *TerminalResult,
// *DiffResult, *SearchMatches, *SearchPaths, *ReadResult, *WebSearch,
// *WebFetch, or *Unknown.
type ResultView interface {
	Card() string
	resultView()
}

// shape remembers the key order and the members of a decoded view that did
// not become typed fields (unknown keys, optional fields of the wrong type),
// so that Encode(Decode(v)) reproduces v byte for byte.
type shape struct {
	order []string
	extra []jsonv.Member
}

// FileLocation is {path, line?}; Line is 1-based.
type FileLocation struct {
	Path string
	Line *float64
}

// FileDiff is {path, oldText: string|null, newText}; a nil OldText is null (a
// create or call-time overwrite).
type FileDiff struct {
	Path    string
	OldText *string
	NewText string
}

// ReadFileLine is {number, text} in the file's own 1-based numbering.
type ReadFileLine struct {
	Number float64
	Text   string
}

// SearchLineMatch is {lineNumber, line}.
type SearchLineMatch struct {
	LineNumber float64
	Line       string
}

// SearchFileMatches is {path, matches}.
type SearchFileMatches struct {
	Path    string
	Matches []SearchLineMatch
}

// WebSource is {url, title?, snippet?, publishedAt?}.
type WebSource struct {
	URL                         string
	Title, Snippet, PublishedAt *string
}

// Optional slice fields are absent when nil; a decoded `[]` is a non-nil empty
// slice. Optional jsonv.Value fields are absent when undefined.

// GenericCall is {card:'generic', title, kind?, rawInput?, content?, locations?}.
type GenericCall struct {
	shape
	Title     string
	Kind      *string
	RawInput  jsonv.Value // any JSON; undefined = absent
	Content   jsonv.Value // ContentBlock[]; undefined = absent
	Locations []FileLocation
}

// TerminalCall is {card:'terminal', title (the command), description?, cwd?}.
type TerminalCall struct {
	shape
	Title       string
	Description *string
	Cwd         *string
}

// DiffCall is {card:'diff', title, diffs, locations?}.
type DiffCall struct {
	shape
	Title     string
	Diffs     []FileDiff
	Locations []FileLocation
}

// GenericResult is {card:'generic', title?, content?}.
type GenericResult struct {
	shape
	Title   *string
	Content jsonv.Value
}

// TerminalResult is {card:'terminal', title?, output?, exitCode?, signal?}.
type TerminalResult struct {
	shape
	Title    *string
	Output   *string
	ExitCode *float64
	Signal   *string
}

// DiffResult is {card:'diff', title?, diffs}.
type DiffResult struct {
	shape
	Title *string
	Diffs []FileDiff
}

// SearchMatches is {card:'search', shape:'matches', title?, files, truncated, total}.
type SearchMatches struct {
	shape
	Title     *string
	Files     []SearchFileMatches
	Truncated bool
	Total     float64
}

// SearchPaths is {card:'search', shape:'paths', title?, paths, truncated, total}.
type SearchPaths struct {
	shape
	Title     *string
	Paths     []string
	Truncated bool
	Total     float64
}

// ReadResult is {card:'read', title?, path, offset, lines, totalLines, lang?, content?}.
type ReadResult struct {
	shape
	Title      *string
	Path       string
	Offset     float64
	Lines      []ReadFileLine
	TotalLines float64
	Lang       *string
	Content    jsonv.Value
}

// WebSearch is {card:'web', kind:'search', title?, answer?, sources, truncated}.
type WebSearch struct {
	shape
	Title     *string
	Answer    *string
	Sources   []WebSource
	Truncated bool
}

// WebFetch is {card:'web', kind:'fetch', title?, url, statusCode, truncated}.
type WebFetch struct {
	shape
	Title      *string
	URL        string
	StatusCode float64
	Truncated  bool
}

// Unknown is a view this build cannot type: an unknown card, a missing card,
// or a known card whose required fields are malformed (Problem says which).
// Raw is the view exactly as the presenter returned it.
type Unknown struct {
	Name    string // the card string, "" when absent or not a string
	Title   string // the view's title when it is a string (titleOf)
	Problem string // why a known card was not typed; "" for an unknown card
	Raw     jsonv.Value
}

func (*GenericCall) Card() string    { return CardGeneric }
func (*TerminalCall) Card() string   { return CardTerminal }
func (*DiffCall) Card() string       { return CardDiff }
func (*GenericResult) Card() string  { return CardGeneric }
func (*TerminalResult) Card() string { return CardTerminal }
func (*DiffResult) Card() string     { return CardDiff }
func (*SearchMatches) Card() string  { return CardSearch }
func (*SearchPaths) Card() string    { return CardSearch }
func (*ReadResult) Card() string     { return CardRead }
func (*WebSearch) Card() string      { return CardWeb }
func (*WebFetch) Card() string       { return CardWeb }
func (u *Unknown) Card() string      { return u.Name }

func (*GenericCall) callView()      {}
func (*TerminalCall) callView()     {}
func (*DiffCall) callView()         {}
func (*Unknown) callView()          {}
func (*GenericResult) resultView()  {}
func (*TerminalResult) resultView() {}
func (*DiffResult) resultView()     {}
func (*SearchMatches) resultView()  {}
func (*SearchPaths) resultView()    {}
func (*ReadResult) resultView()     {}
func (*WebSearch) resultView()      {}
func (*WebFetch) resultView()       {}
func (*Unknown) resultView()        {}

// decoder reads one view object, recording key order and leftovers.
type decoder struct {
	v    jsonv.Value
	used map[string]bool
	err  error
}

func newDecoder(v jsonv.Value) *decoder { return &decoder{v: v, used: map[string]bool{}} }

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf(format, args...)
	}
}

// str reads a required string.
func (d *decoder) str(key string) string {
	f := d.v.Get(key)
	if !f.IsString() {
		d.fail("%s: want a string, got %s", key, kindOf(f))
		return ""
	}
	d.used[key] = true
	return f.Str()
}

// optStr reads an optional string; a wrong type is kept as an extra member.
func (d *decoder) optStr(key string) *string {
	f := d.v.Get(key)
	if !f.IsString() {
		return nil
	}
	d.used[key] = true
	s := f.Str()
	return &s
}

func (d *decoder) num(key string) float64 {
	f := d.v.Get(key)
	if !f.IsNumber() {
		d.fail("%s: want a number, got %s", key, kindOf(f))
		return 0
	}
	d.used[key] = true
	return f.Num()
}

func (d *decoder) optNum(key string) *float64 {
	f := d.v.Get(key)
	if !f.IsNumber() {
		return nil
	}
	d.used[key] = true
	n := f.Num()
	return &n
}

func (d *decoder) boolean(key string) bool {
	f := d.v.Get(key)
	if !f.IsBool() {
		d.fail("%s: want a boolean, got %s", key, kindOf(f))
		return false
	}
	d.used[key] = true
	return f.Bool()
}

// any takes an optional field of any JSON type.
func (d *decoder) any(key string) jsonv.Value {
	f := d.v.Get(key)
	if f.IsDefined() {
		d.used[key] = true
	}
	return f
}

// optArr takes an optional array as-is (content blocks).
func (d *decoder) optArr(key string) jsonv.Value {
	f := d.v.Get(key)
	if !f.IsArray() {
		return jsonv.Value{}
	}
	d.used[key] = true
	return f
}

// arr reads a required array, returning its elements.
func (d *decoder) arr(key string) []jsonv.Value {
	f := d.v.Get(key)
	if !f.IsArray() {
		d.fail("%s: want an array, got %s", key, kindOf(f))
		return nil
	}
	d.used[key] = true
	return nonNil(f.Elems())
}

func (d *decoder) diffs(key string) []FileDiff {
	out := []FileDiff{}
	for i, e := range d.arr(key) {
		path, old, newText := e.Get("path"), e.Get("oldText"), e.Get("newText")
		if !path.IsString() || !newText.IsString() || !(old.IsString() || old.IsNull()) {
			d.fail("%s[%d]: want {path: string, oldText: string|null, newText: string}", key, i)
			return nil
		}
		fd := FileDiff{Path: path.Str(), NewText: newText.Str()}
		if old.IsString() {
			s := old.Str()
			fd.OldText = &s
		}
		out = append(out, fd)
	}
	return out
}

func (d *decoder) locations(key string) []FileLocation {
	f := d.v.Get(key)
	if !f.IsArray() {
		return nil
	}
	out := []FileLocation{}
	for _, e := range f.Elems() {
		p := e.Get("path")
		if !p.IsString() {
			return nil // malformed: leave the whole field as an extra member
		}
		loc := FileLocation{Path: p.Str()}
		if l := e.Get("line"); l.IsNumber() {
			n := l.Num()
			loc.Line = &n
		}
		out = append(out, loc)
	}
	d.used[key] = true
	return out
}

// finish records key order and leftovers into s.
func (d *decoder) finish(s *shape) {
	for _, m := range d.v.Members() {
		if m.Key == "card" || d.used[m.Key] {
			s.order = append(s.order, m.Key)
			continue
		}
		s.order = append(s.order, m.Key)
		s.extra = append(s.extra, m)
	}
}

func nonNil(v []jsonv.Value) []jsonv.Value {
	if v == nil {
		return []jsonv.Value{}
	}
	return v
}

func kindOf(v jsonv.Value) string {
	if v.IsUndefined() {
		return "nothing"
	}
	return v.Kind().String()
}

// unknown builds the fallback view for v.
func unknown(v jsonv.Value, problem string) *Unknown {
	u := &Unknown{Raw: v, Problem: problem}
	if c := v.Get("card"); c.IsString() {
		u.Name = c.Str()
	}
	if t := v.Get("title"); t.IsString() {
		u.Title = t.Str()
	}
	return u
}

// DecodeCallView types a presenter's call view. The undefined Value (no
// view) decodes to nil. Anything else always decodes: a view that is not one
// of the three call cards, or whose required fields are malformed, becomes
// *Unknown (its Problem says what was wrong with a known card).
func DecodeCallView(v jsonv.Value) CallView {
	if v.IsUndefined() {
		return nil
	}
	if !v.IsObject() {
		return unknown(v, "view is "+kindOf(v)+", not an object")
	}
	card := v.Get("card")
	d := newDecoder(v)
	switch {
	case card.IsString() && card.Str() == CardGeneric:
		g := &GenericCall{Title: d.str("title"), Kind: d.optStr("kind"), RawInput: d.any("rawInput"),
			Content: d.optArr("content"), Locations: d.locations("locations")}
		if d.err == nil {
			d.finish(&g.shape)
			return g
		}
	case card.IsString() && card.Str() == CardTerminal:
		t := &TerminalCall{Title: d.str("title"), Description: d.optStr("description"), Cwd: d.optStr("cwd")}
		if d.err == nil {
			d.finish(&t.shape)
			return t
		}
	case card.IsString() && card.Str() == CardDiff:
		t := &DiffCall{Title: d.str("title"), Diffs: d.diffs("diffs"), Locations: d.locations("locations")}
		if d.err == nil {
			d.finish(&t.shape)
			return t
		}
	default:
		return unknown(v, "")
	}
	return unknown(v, d.err.Error())
}

// DecodeResultView types a presenter's result view, as DecodeCallView.
func DecodeResultView(v jsonv.Value) ResultView {
	if v.IsUndefined() {
		return nil
	}
	if !v.IsObject() {
		return unknown(v, "view is "+kindOf(v)+", not an object")
	}
	card := v.Get("card")
	if !card.IsString() {
		return unknown(v, "")
	}
	d := newDecoder(v)
	var out ResultView
	var sh *shape
	switch card.Str() {
	case CardGeneric:
		g := &GenericResult{Title: d.optStr("title"), Content: d.optArr("content")}
		out, sh = g, &g.shape
	case CardTerminal:
		t := &TerminalResult{Title: d.optStr("title"), Output: d.optStr("output"), ExitCode: d.optNum("exitCode"), Signal: d.optStr("signal")}
		out, sh = t, &t.shape
	case CardDiff:
		t := &DiffResult{Title: d.optStr("title"), Diffs: d.diffs("diffs")}
		out, sh = t, &t.shape
	case CardSearch:
		switch s := v.Get("shape"); {
		case s.IsString() && s.Str() == "matches":
			d.used["shape"] = true
			t := &SearchMatches{Title: d.optStr("title"), Files: d.files("files"), Truncated: d.boolean("truncated"), Total: d.num("total")}
			out, sh = t, &t.shape
		case s.IsString() && s.Str() == "paths":
			d.used["shape"] = true
			t := &SearchPaths{Title: d.optStr("title"), Paths: d.strings("paths"), Truncated: d.boolean("truncated"), Total: d.num("total")}
			out, sh = t, &t.shape
		default:
			return unknown(v, "search view with shape "+jsonv.Short(s, 40)+" (want matches or paths)")
		}
	case CardRead:
		t := &ReadResult{Title: d.optStr("title"), Path: d.str("path"), Offset: d.num("offset"), Lines: d.readLines("lines"),
			TotalLines: d.num("totalLines"), Lang: d.optStr("lang"), Content: d.optArr("content")}
		out, sh = t, &t.shape
	case CardWeb:
		switch k := v.Get("kind"); {
		case k.IsString() && k.Str() == "search":
			d.used["kind"] = true
			t := &WebSearch{Title: d.optStr("title"), Answer: d.optStr("answer"), Sources: d.sources("sources"), Truncated: d.boolean("truncated")}
			out, sh = t, &t.shape
		case k.IsString() && k.Str() == "fetch":
			d.used["kind"] = true
			t := &WebFetch{Title: d.optStr("title"), URL: d.str("url"), StatusCode: d.num("statusCode"), Truncated: d.boolean("truncated")}
			out, sh = t, &t.shape
		default:
			return unknown(v, "web view with kind "+jsonv.Short(k, 40)+" (want search or fetch)")
		}
	default:
		return unknown(v, "")
	}
	if d.err != nil {
		return unknown(v, d.err.Error())
	}
	d.finish(sh)
	return out
}

func (d *decoder) strings(key string) []string {
	out := []string{}
	for i, e := range d.arr(key) {
		if !e.IsString() {
			d.fail("%s[%d]: want a string, got %s", key, i, kindOf(e))
			return nil
		}
		out = append(out, e.Str())
	}
	return out
}

func (d *decoder) files(key string) []SearchFileMatches {
	out := []SearchFileMatches{}
	for i, e := range d.arr(key) {
		p, ms := e.Get("path"), e.Get("matches")
		if !p.IsString() || !ms.IsArray() {
			d.fail("%s[%d]: want {path: string, matches: array}", key, i)
			return nil
		}
		f := SearchFileMatches{Path: p.Str(), Matches: []SearchLineMatch{}}
		for j, m := range ms.Elems() {
			n, l := m.Get("lineNumber"), m.Get("line")
			if !n.IsNumber() || !l.IsString() {
				d.fail("%s[%d].matches[%d]: want {lineNumber: number, line: string}", key, i, j)
				return nil
			}
			f.Matches = append(f.Matches, SearchLineMatch{LineNumber: n.Num(), Line: l.Str()})
		}
		out = append(out, f)
	}
	return out
}

func (d *decoder) readLines(key string) []ReadFileLine {
	out := []ReadFileLine{}
	for i, e := range d.arr(key) {
		n, t := e.Get("number"), e.Get("text")
		if !n.IsNumber() || !t.IsString() {
			d.fail("%s[%d]: want {number: number, text: string}", key, i)
			return nil
		}
		out = append(out, ReadFileLine{Number: n.Num(), Text: t.Str()})
	}
	return out
}

func (d *decoder) sources(key string) []WebSource {
	out := []WebSource{}
	for i, e := range d.arr(key) {
		u := e.Get("url")
		if !u.IsString() {
			d.fail("%s[%d]: want {url: string, ...}", key, i)
			return nil
		}
		s := WebSource{URL: u.Str()}
		opt := func(k string) *string {
			if f := e.Get(k); f.IsString() {
				x := f.Str()
				return &x
			}
			return nil
		}
		s.Title, s.Snippet, s.PublishedAt = opt("title"), opt("snippet"), opt("publishedAt")
		out = append(out, s)
	}
	return out
}
