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
	ops := diffOps(a[pre:len(a)-suf], b[pre:len(b)-suf])
	var full []diffLine
	for i := max(0, pre-3); i < pre; i++ {
		full = append(full, diffLine{' ', a[i]})
	}
	full = append(full, ops...)
	for i := len(a) - suf; i < len(a) && i < len(a)-suf+3; i++ {
		full = append(full, diffLine{' ', a[i]})
	}
	full = collapseContext(full)
	var out []string
	for i, l := range full {
		if limit > 0 && len(out) == limit {
			out = append(out, "… "+strconv.Itoa(len(full)-i)+" more lines")
			break
		}
		if l.op == '~' {
			out = append(out, l.text)
			continue
		}
		out = append(out, string(l.op)+" "+showLine(l.text))
	}
	return out
}

type diffLine struct {
	op   byte // ' ', '-', '+', '~' (elision marker)
	text string
}

// collapseContext keeps three lines of context around changes.
func collapseContext(ls []diffLine) []diffLine {
	keep := make([]bool, len(ls))
	for i, l := range ls {
		if l.op != ' ' {
			for j := max(0, i-3); j <= min(len(ls)-1, i+3); j++ {
				keep[j] = true
			}
		}
	}
	var out []diffLine
	skipped := 0
	for i, l := range ls {
		if keep[i] {
			if skipped > 0 {
				out = append(out, diffLine{'~', "⋯ " + strconv.Itoa(skipped) + " unchanged lines"})
				skipped = 0
			}
			out = append(out, l)
		} else {
			skipped++
		}
	}
	return out
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

// diffOps is a minimal line edit script (longest common subsequence); very
// large inputs fall back to "all removed, all added" to stay bounded.
func diffOps(a, b []string) []diffLine {
	n, m := len(a), len(b)
	if n*m > 4_000_000 || n+m > 20000 {
		out := make([]diffLine, 0, n+m)
		for _, s := range a {
			out = append(out, diffLine{'-', s})
		}
		for _, s := range b {
			out = append(out, diffLine{'+', s})
		}
		return out
	}
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
