package cards

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"
)

// TabWidth is the tab stop: a tab in log text becomes a visible "→" padded
// with spaces to the next multiple of TabWidth cells, so indented code and
// tab-separated columns keep their shape.
const TabWidth = 4

// Sanitize makes one line of untrusted log text safe and visible on a
// terminal: ESC and every other C0/C1 control become visible marks (so a log
// cannot drive the terminal), a tab becomes "→" and padding to the next tab
// stop, CR becomes ␍, bidi
// overrides are shown as <U+XXXX> (so text cannot reorder itself), and
// invalid UTF-8 or a lone surrogate (WTF-8) becomes U+FFFD. Newlines are the
// caller's business: split before sanitizing.
func Sanitize(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	// tab stops count from the start of the line: col is the width of
	// b[lineStart:measured]
	col, measured := 0, 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			// invalid UTF-8, or a WTF-8 lone surrogate (ED A0..BF xx).
			if i+2 < len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF {
				size = 3
			} else {
				size = 1
			}
			b.WriteRune(utf8.RuneError)
			i += size
			continue
		}
		i += size
		switch {
		case r == '\t':
			// each stretch is measured once: linear even for many tabs
			col += Width(b.String()[measured:])
			pad := TabWidth - 1 - col%TabWidth
			b.WriteString("→" + strings.Repeat(" ", pad))
			col += 1 + pad
			measured = b.Len()
		case r == '\r':
			b.WriteRune('␍')
		case r == '\n':
			b.WriteRune('␤')
			col, measured = 0, b.Len()
		case r == 0x1b:
			b.WriteRune('␛')
		case r < 0x20:
			b.WriteRune(0x2400 + r) // control pictures ␀..␟
		case r == 0x7f:
			b.WriteRune('␡')
		case r >= 0x80 && r < 0xa0, // C1 controls (0x9b is a CSI on some terminals)
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, // bidi embeddings, overrides, isolates
			r == 0x2028 || r == 0x2029, // line/paragraph separators
			r == 0xfeff:                // BOM / zero-width no-break space
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// SplitLines splits text into lines at \n, dropping the empty line after a
// trailing newline (upstream textLines). Empty text has no lines.
func SplitLines(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// Width is the display width of sanitized text in terminal cells (grapheme
// clusters; wide CJK and emoji count two).
func Width(s string) int { return ansi.StringWidth(s) }

// Truncate cuts sanitized text to at most width cells, ending with "…" when
// it was cut. It never splits a grapheme cluster.
func Truncate(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if Width(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, "…")
}

// Wrap breaks one sanitized line into rows of at most width cells, at the last
// space when there is one in the row (keeping leading indentation), else
// between grapheme clusters. It always returns at least one row.
func Wrap(s string, width int) []string {
	if width < 1 {
		width = 1
	}
	if Width(s) <= width {
		return []string{s}
	}
	var rows []string
	var cur strings.Builder
	curW := 0
	lastSpace := -1 // byte offset just after the last space in cur
	leading := true // still inside the row's leading indentation
	flushAt := func(at int) {
		row := cur.String()
		rest := row[at:]
		rows = append(rows, strings.TrimRight(row[:at], " "))
		cur.Reset()
		cur.WriteString(rest)
		curW = Width(rest)
		lastSpace = -1
		leading = false
	}
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		cl := g.Str()
		w := g.Width()
		if curW+w > width && curW > 0 {
			if cl == " " { // break at the space that overflows
				flushAt(cur.Len())
				continue
			}
			if lastSpace > 0 {
				flushAt(lastSpace)
				if cl == " " && curW == 0 {
					continue // a space at the start of a continuation row
				}
			} else {
				flushAt(cur.Len())
				if cl == " " {
					continue
				}
			}
			if curW+w > width && curW > 0 {
				flushAt(cur.Len())
			}
		}
		cur.WriteString(cl)
		curW += w
		if cl == " " {
			if !leading {
				lastSpace = cur.Len()
			}
		} else {
			leading = false
		}
	}
	if cur.Len() > 0 || len(rows) == 0 {
		rows = append(rows, cur.String())
	}
	return rows
}

// padRight pads sanitized text with spaces to width cells.
func padRight(s string, width int) string {
	if w := Width(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}
