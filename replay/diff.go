package replay

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dsh-replay/dsh-replay/internal/termquote"
)

// TextDiff is a line diff of recorded (-) against replayed (+) text with
// visible whitespace: ␍ for CR, ␉ for tab, · for trailing spaces, ␛ for ESC
// (other controls as termquote.Sanitize shows them, invalid UTF-8 and lone
// surrogates as U+FFFD), and "(no newline at end)" on a last line without
// one. Lines are compared as they are and made visible after, so two that
// look alike once visible still show as changed. Three lines of context;
// at most limit lines, then "… N more lines".
func TextDiff(recorded, replayed string, limit int) []string {
	// "no newline at end" is only news when the two sides disagree on it.
	mark := strings.HasSuffix(recorded, "\n") != strings.HasSuffix(replayed, "\n")
	var before, a, b, after []string
	if recorded == "" || replayed == "" {
		before, after = nil, nil
		a, b = splitLines(recorded, mark), splitLines(replayed, mark)
	} else {
		before, a, b, after = trimCommon(recorded, replayed, mark)
	}
	// Trim the common prefix and suffix (of what trimCommon left), then
	// diff the middle.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	// The lines are addressed, not gathered: a huge text's diff (all of one
	// side removed, all of the other added) is counted, not built, past the
	// limit.
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	var ops []diffLine
	whole := !diffable(len(ma), len(mb))
	if !whole {
		ops = diffOps(ma, mb)
	}
	// Three lines of context each side: the last of those before the
	// middle, the first of those after it.
	lead := a[max(0, pre-3):pre]
	if len(lead) < 3 && len(before) > 0 {
		lead = append(slices.Clone(before[max(0, len(before)-(3-len(lead))):]), lead...)
	}
	trail := a[len(a)-suf : len(a)-suf+min(suf, 3)]
	if len(trail) < 3 && len(after) > 0 {
		trail = append(slices.Clone(trail), after[:min(len(after), 3-len(trail))]...)
	}
	nlead := len(lead)
	nops := len(ops)
	if whole {
		nops = len(ma) + len(mb)
	}
	at := func(i int) diffLine {
		switch {
		case i < nlead:
			return diffLine{' ', lead[i]}
		case i < nlead+nops:
			i -= nlead
			if !whole {
				return ops[i]
			}
			if i < len(ma) {
				return diffLine{'-', ma[i]}
			}
			return diffLine{'+', mb[i-len(ma)]}
		}
		return diffLine{' ', trail[i-nlead-nops]}
	}
	var out []string
	total, shown := 0, 0
	collapseContext(nlead+nops+len(trail), at, func(l diffLine) {
		total++
		if limit > 0 && shown == limit {
			return
		}
		shown++
		if l.op == '~' {
			out = append(out, l.text)
			return
		}
		out = append(out, string(l.op)+" "+showLine(l.text))
	})
	if limit > 0 && total > shown {
		out = append(out, "… "+strconv.Itoa(total-shown)+" more lines")
	}
	return out
}

// trimCommon splits two non-empty texts into lines as splitLines does
// without splitting what they share at the start and the end, which a
// large value's diff is mostly: before is up to the last three lines of the
// common start, a and b the lines of each side between, after up to the
// first three lines of the common end. The lines left out are equal, so
// the diff is the one of the whole texts; a and b may still begin or end
// with equal lines.
func trimCommon(recorded, replayed string, mark bool) (before, a, b, after []string) {
	// Whole lines before the first differing byte are equal lines.
	p := 0
	for p < len(recorded) && p < len(replayed) && recorded[p] == replayed[p] {
		p++
	}
	start := strings.LastIndexByte(recorded[:p], '\n') + 1
	before = lastLines(recorded[:start], 3)
	rt, pt := recorded[start:], replayed[start:]
	// Whole lines after a newline both ends share are equal lines too (then
	// the sides agree on the last newline, and mark is false).
	q := 0
	for q < len(rt) && q < len(pt) && rt[len(rt)-1-q] == pt[len(pt)-1-q] {
		q++
	}
	rEnd, pEnd := len(rt), len(pt)
	if j := strings.IndexByte(rt[len(rt)-q:], '\n'); j >= 0 {
		rEnd = len(rt) - q + j + 1
		pEnd = len(pt) - (len(rt) - rEnd)
		after = firstLines(rt[rEnd:], 3)
	}
	return before, middleLines(rt[:rEnd], mark), middleLines(pt[:pEnd], mark), after
}

// middleLines is splitLines of a piece of a text starting at a line:
// nothing for an empty piece.
func middleLines(s string, markNoEOL bool) []string {
	if s == "" {
		return nil
	}
	return splitLines(s, markNoEOL)
}

// lastLines is the last n lines of s, which ends with a newline (or is
// empty).
func lastLines(s string, n int) []string {
	out := make([]string, 0, n)
	end := len(s) - 1
	for len(out) < n && end >= 0 {
		i := strings.LastIndexByte(s[:end], '\n')
		out = append(out, s[i+1:end])
		end = i
	}
	slices.Reverse(out)
	return out
}

// firstLines is the first n lines of s, the end of a text (its last line
// may have no newline; both sides then lack it, so it is not marked).
func firstLines(s string, n int) []string {
	out := make([]string, 0, n)
	for len(out) < n && s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		s = s[i+1:]
	}
	return out
}

type diffLine struct {
	op   byte // ' ', '-', '+', '~' (elision marker)
	text string
}

// collapseContext keeps three lines of context around changes.
func collapseContext(n int, at func(int) diffLine, emit func(diffLine)) {
	changed := func(i int) bool {
		for j := max(0, i-3); j <= min(n-1, i+3); j++ {
			if at(j).op != ' ' {
				return true
			}
		}
		return false
	}
	skipped := 0
	for i := 0; i < n; i++ {
		if changed(i) {
			if skipped > 0 {
				emit(diffLine{'~', "⋯ " + strconv.Itoa(skipped) + " unchanged lines"})
				skipped = 0
			}
			emit(at(i))
		} else {
			skipped++
		}
	}
}

// MaxLineWidth caps one diff line (in runes) so a huge line stays readable.
const MaxLineWidth = 200

// splitLines splits text into raw lines; a line cannot hold "\n", so it
// marks the empty text ("\n") and a last line without newline ("x\n")
// for showLine.
func splitLines(s string, markNoEOL bool) []string {
	if s == "" {
		return []string{"\n"}
	}
	parts := strings.Split(s, "\n")
	noEOL := true
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
		noEOL = false
	}
	if noEOL && markNoEOL {
		parts[len(parts)-1] += "\n"
	}
	return parts
}

// showLine is a line of splitLines made visible and clipped.
func showLine(l string) string {
	if l == "\n" {
		return "(empty)"
	}
	if raw, ok := strings.CutSuffix(l, "\n"); ok {
		return clip(visible(raw)) + " (no newline at end)"
	}
	return clip(visible(l))
}

// visible makes whitespace and control characters of one line visible.
func visible(s string) string {
	trail := len(s) - len(strings.TrimRight(s, " "))
	body := strings.ReplaceAll(s[:len(s)-trail], "\t", "␉")
	return termquote.Sanitize(body) + strings.Repeat("·", trail)
}

// diffable: the LCS table of n by m lines is small enough to build; very
// large inputs fall back to "all removed, all added" to stay bounded.
func diffable(n, m int) bool { return n*m <= 4_000_000 && n+m <= 20000 }

// diffOps is a minimal line edit script (longest common subsequence) of a
// and b, which must be diffable.
func diffOps(a, b []string) []diffLine {
	n, m := len(a), len(b)
	// LCS table, small enough by the guard above.
	w := m + 1
	dp := make([]int32, (n+1)*w)
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i*w+j] = dp[(i+1)*w+j+1] + 1
			} else {
				dp[i*w+j] = max(dp[(i+1)*w+j], dp[i*w+j+1])
			}
		}
	}
	out := make([]diffLine, 0, n+m)
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			out = append(out, diffLine{' ', a[i]})
			i++
			j++
		case dp[(i+1)*w+j] >= dp[i*w+j+1]:
			out = append(out, diffLine{'-', a[i]})
			i++
		default:
			out = append(out, diffLine{'+', b[j]})
			j++
		}
	}
	for ; i < n; i++ {
		out = append(out, diffLine{'-', a[i]})
	}
	for ; j < m; j++ {
		out = append(out, diffLine{'+', b[j]})
	}
	return out
}

// clip shortens a line over MaxLineWidth runes, saying how much was cut.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= MaxLineWidth {
		return s
	}
	n, i := 0, 0
	for i = range s {
		if n == MaxLineWidth-20 {
			break
		}
		n++
	}
	return s[:i] + "… (" + strconv.Itoa(utf8.RuneCountInString(s[i:])) + " more characters)"
}
