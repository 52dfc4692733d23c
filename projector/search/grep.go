package search

import (
	"strings"

	"github.com/dsh-replay/dsh-replay/jsonv"
	"github.com/dsh-replay/dsh-replay/projector"
)

const (
	grepNoMatches   = "No matches found"
	grepUnsaved     = "The complete result could not be saved; narrow pattern, path, or include to see more."
	grepSavedPrefix = "Full grep result stored at: "
)

// Retained is upstream RetainedItems over grep matches: the first kept
// matches (lines previewed) of seen.
type Retained struct {
	Items     []Match
	Seen      int
	Truncated bool
}

// RetainGrepMatches is upstream retainGrepMatches: preview every line to
// maxLineBytes and keep the first maxMatches. Only kept lines are previewed:
// the others are never looked at again.
func RetainGrepMatches(matches []Match, maxMatches, maxLineBytes int) Retained {
	if maxMatches < 0 {
		maxMatches = 0
	}
	n := min(len(matches), maxMatches)
	items := make([]Match, n)
	for i := range items {
		m := matches[i]
		m.Line = PreviewLine(m.Line, maxLineBytes)
		items[i] = m
	}
	return Retained{Items: items, Seen: len(matches), Truncated: len(matches) > maxMatches}
}

// FormatGrepMatches is upstream formatGrepMatches: per file (first-seen
// order) "path\nLine N: text…", files separated by a blank line.
func FormatGrepMatches(matches []Match) string {
	index := make(map[string]int, 8)
	var groups [][]int
	var paths []string
	for i, m := range matches {
		g, ok := index[m.Path]
		if !ok {
			g = len(groups)
			index[m.Path] = g
			groups = append(groups, nil)
			paths = append(paths, m.Path)
		}
		groups[g] = append(groups[g], i)
	}
	var b strings.Builder
	size := 0
	for _, m := range matches {
		size += len(m.Line) + 16
	}
	for _, p := range paths {
		size += len(p) + 2
	}
	b.Grow(size)
	for g, idx := range groups {
		if g > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(paths[g])
		for _, i := range idx {
			b.WriteString("\nLine ")
			b.WriteString(jsonv.ToString(matches[i].LineNumber))
			b.WriteString(": ")
			b.WriteString(matches[i].Line)
		}
	}
	return b.String()
}

func matchNoun(n int) string {
	if n == 1 {
		return "match"
	}
	return "matches"
}

// GrepText is the model-facing text of grep's render (ref nil) or of the
// post-execute spill replacement (ref set).
func GrepText(matches []Match, caps Caps, ref *SpillRef) string {
	r := RetainGrepMatches(matches, caps.GrepMaxMatches, caps.GrepMaxLineBytes)
	if r.Seen == 0 {
		return grepNoMatches
	}
	body := FormatGrepMatches(r.Items)
	if !r.Truncated {
		return "Found " + itoa(r.Seen) + " " + matchNoun(r.Seen) + "\n\n" + body
	}
	recovery := grepUnsaved
	if ref != nil {
		recovery = grepSavedPrefix + ref.Locator + ". " + ref.RetrievalHint
	}
	return "Found " + itoa(len(r.Items)) + " of " + itoa(r.Seen) + " matches\n\n" + body + "\n\n(" + recovery + ")"
}

// GrepSpillText is the complete formatted result the post-execute hook
// saves: every match previewed, no inline cap.
func GrepSpillText(matches []Match, caps Caps) string {
	all := make([]Match, len(matches))
	for i, m := range matches {
		m.Line = PreviewLine(m.Line, caps.GrepMaxLineBytes)
		all[i] = m
	}
	return "Found " + itoa(len(matches)) + " " + matchNoun(len(matches)) + "\n\n" + FormatGrepMatches(all)
}

// GrepMeta is grep's presentationMeta: the retained matches grouped by file
// as {shape:"matches", files, truncated, total}, byte-capped.
func GrepMeta(matches []Match, caps Caps) jsonv.Value {
	r := RetainGrepMatches(matches, caps.GrepMaxMatches, caps.GrepMaxLineBytes)
	return CapMetaBytes("matches", GroupMatchesByFile(r.Items), r.Truncated, r.Seen, caps.SearchMetaMaxBytes)
}

// grepValue reads the canonical {matches:[{path, lineNumber, line}]} value.
func grepValue(value jsonv.Value) ([]Match, error) {
	if !value.IsObject() {
		return nil, projector.Throwf("Cannot read properties of %s (reading 'matches')", jsonv.ToString(value))
	}
	ms := value.Get("matches")
	if !ms.IsArray() {
		return nil, projector.Throwf("grep value.matches must be an array")
	}
	out := make([]Match, ms.Len())
	for i, m := range ms.Elems() {
		p, n, l := m.Get("path"), m.Get("lineNumber"), m.Get("line")
		if !m.IsObject() || !p.IsString() || !n.IsNumber() || !l.IsString() {
			return nil, projector.Throwf("grep value.matches[%d] must be {path: string, lineNumber: number, line: string}", i)
		}
		out[i] = Match{Path: p.Str(), LineNumber: n, Line: l.Str()}
	}
	return out, nil
}

// presentGrepCall: {card:"generic", title:"Grep P[ in PATH][ (INCLUDE)]", kind:"search", rawInput: pattern}.
func presentGrepCall(args jsonv.Value) jsonv.Value {
	if !args.IsObject() {
		return jsonv.Value{}
	}
	title := "Grep " + jsonv.ToString(args.Get("pattern"))
	if p := args.Get("path"); p.IsDefined() {
		title += " in " + jsonv.ToString(p)
	}
	if inc := args.Get("include"); inc.IsDefined() {
		title += " (" + jsonv.ToString(inc) + ")"
	}
	return genericSearchCall(title, args.Get("pattern"))
}

// presentGrepResult narrows the meta to the matches-shaped search card.
func presentGrepResult(_ jsonv.Value, r projector.Result) jsonv.Value {
	if r.IsError {
		return jsonv.Value{}
	}
	view := SearchViewFromMeta(r.Meta)
	if view.Get("shape").Str() != "matches" {
		return jsonv.Value{}
	}
	return view
}
