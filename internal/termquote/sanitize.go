package termquote

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
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
			col += ansi.StringWidth(b.String()[measured:])
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
