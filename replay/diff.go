package replay

import (
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
	a, b := splitLines(recorded, mark), splitLines(replayed, mark)
	// Trim the common prefix and suffix, then diff the middle.
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
	before := pre - max(0, pre-3)
	after := min(suf, 3)
	nops := len(ops)
	if whole {
		nops = len(ma) + len(mb)
	}
	at := func(i int) diffLine {
		switch {
		case i < before:
			return diffLine{' ', a[pre-before+i]}
		case i < before+nops:
			i -= before
			if !whole {
				return ops[i]
			}
			if i < len(ma) {
				return diffLine{'-', ma[i]}
			}
			return diffLine{'+', mb[i-len(ma)]}
		}
		return diffLine{' ', a[len(a)-suf+i-before-nops]}
	}
	var out []string
	total, shown := 0, 0
	collapseContext(before+nops+after, at, func(l diffLine) {
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
	var out []diffLine
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
