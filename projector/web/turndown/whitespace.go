package turndown

import (
	"strings"
	"sync"
	"unicode/utf8"
)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// The element sets are built on first use, not at start-up.
var (
	blockElements = sync.OnceValue(func() map[string]bool {
		return set("ADDRESS", "ARTICLE", "ASIDE", "AUDIO", "BLOCKQUOTE", "BODY", "CANVAS", "CENTER", "DD", "DIR", "DIV", "DL", "DT", "FIELDSET", "FIGCAPTION", "FIGURE", "FOOTER", "FORM", "FRAMESET", "H1", "H2", "H3", "H4", "H5", "H6", "HEADER", "HGROUP", "HR", "HTML", "ISINDEX", "LI", "MAIN", "MENU", "NAV", "NOFRAMES", "NOSCRIPT", "OL", "OUTPUT", "P", "PRE", "SECTION", "TABLE", "TBODY", "TD", "TFOOT", "TH", "THEAD", "TR", "UL")
	})
	voidElements = sync.OnceValue(func() map[string]bool {
		return set("AREA", "BASE", "BR", "COL", "COMMAND", "EMBED", "HR", "IMG", "INPUT", "KEYGEN", "LINK", "META", "PARAM", "SOURCE", "TRACK", "WBR")
	})
	meaningful = sync.OnceValue(func() map[string]bool {
		return set("A", "TABLE", "THEAD", "TBODY", "TFOOT", "TH", "TD", "IFRAME", "SCRIPT", "AUDIO", "VIDEO")
	})
)

func isBlock(n *node) bool { return blockElements()[n.name] }

func isVoid(n *node) bool { return voidElements()[n.name] }

func isBlankNode(n *node) bool {
	return !isVoid(n) && !meaningful()[n.name] && n.isSpaceOnly() &&
		!n.hasTagNamed(voidElements()) && !n.hasTagNamed(meaningful())
}

// isJSSpace is JavaScript's \s (WhiteSpace and LineTerminator).
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

func isAllJSSpace(s string) bool {
	for _, r := range s {
		if !isJSSpace(r) {
			return false
		}
	}
	return true
}

// Lone surrogates (WTF-8) decode as RuneError here, which is not a space,
// as a lone surrogate is not in JavaScript.
func trimJS(s string) string      { return strings.TrimFunc(s, isJSSpace) }
func trimStartJS(s string) string { return strings.TrimLeftFunc(s, isJSSpace) }
func trimEndJS(s string) string   { return strings.TrimRightFunc(s, isJSSpace) }

func isASCIISpace(r rune) bool { return r == ' ' || r == '\t' || r == '\r' || r == '\n' }

// flankingWhitespace is turndown's flankingWhitespace.
func flankingWhitespace(n *node) (leading, trailing string) {
	if n.isBlock {
		return "", ""
	}
	// edgeWhitespace over textContent: the whitespace prefix (its ASCII
	// run first) and suffix (its ASCII run last).
	leading, trailing, _ = n.textEdges()
	leadASCII := len(leading) - len(strings.TrimLeftFunc(leading, isASCIISpace))
	trailASCII := len(trailing) - len(strings.TrimRightFunc(trailing, isASCIISpace))
	if leadASCII > 0 && isFlankedByWhitespace(n.prev, false) {
		leading = leading[leadASCII:]
	}
	if trailASCII > 0 && isFlankedByWhitespace(n.next, true) {
		trailing = trailing[:len(trailing)-trailASCII]
	}
	return leading, trailing
}

// isFlankedByWhitespace tests the sibling's text for a space at the
// touching edge (right: the next sibling starts with one).
func isFlankedByWhitespace(sibling *node, right bool) bool {
	if sibling == nil {
		return false
	}
	if sibling.typ != textNode && (sibling.typ != elementNode || isBlock(sibling)) {
		return false
	}
	return sibling.edgeByte(!right) == ' '
}

// collapseWhitespace is turndown's collapse-whitespace pass over root.
func collapseWhitespace(root *node) {
	if root.first == nil || root.name == "PRE" {
		return
	}
	var prevText *node
	keepLeadingWs := false
	var prev *node
	cur := nextNode(prev, root)
	for cur != root {
		if cur.typ == textNode {
			text := collapseSpaces(cur.data)
			if (prevText == nil || strings.HasSuffix(prevText.data, " ")) && !keepLeadingWs && strings.HasPrefix(text, " ") {
				text = text[1:]
			}
			if text == "" {
				cur = removeNode(cur)
				continue
			}
			cur.data = text
			prevText = cur
		} else if cur.typ == elementNode {
			if isBlock(cur) || cur.name == "BR" {
				if prevText != nil {
					prevText.data = strings.TrimSuffix(prevText.data, " ")
				}
				prevText = nil
				keepLeadingWs = false
			} else if isVoid(cur) || cur.name == "PRE" {
				prevText = nil
				keepLeadingWs = true
			} else if prevText != nil {
				keepLeadingWs = false
			}
		} else {
			cur = removeNode(cur)
			continue
		}
		nx := nextNode(prev, cur)
		prev = cur
		cur = nx
	}
	if prevText != nil {
		prevText.data = strings.TrimSuffix(prevText.data, " ")
		if prevText.data == "" {
			removeNode(prevText)
		}
	}
}

// collapseSpaces replaces runs of space, CR, LF and tab with one space.
func collapseSpaces(s string) string {
	if !strings.ContainsAny(s, " \r\n\t") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	in := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\r', '\n', '\t':
			if !in {
				b.WriteByte(' ')
				in = true
			}
		default:
			b.WriteByte(c)
			in = false
		}
	}
	return b.String()
}

func removeNode(n *node) *node {
	nx := n.next
	if nx == nil {
		nx = n.parent
	}
	n.parent.removeChild(n)
	return nx
}

func nextNode(prev, cur *node) *node {
	if (prev != nil && prev.parent == cur) || cur.name == "PRE" {
		if cur.next != nil {
			return cur.next
		}
		return cur.parent
	}
	if cur.first != nil {
		return cur.first
	}
	if cur.next != nil {
		return cur.next
	}
	return cur.parent
}

var _ = utf8.RuneError
