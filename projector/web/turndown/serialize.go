package turndown

import (
	"strings"
	"sync"
	"unicode/utf16"

	"github.com/dsh-replay/dsh-replay/jsonv"
)

// outerHTML is domino's serialization (NodeUtils.serializeOne) of an
// element.

var rawContentParents = sync.OnceValue(func() map[string]bool {
	return set("STYLE", "SCRIPT", "XMP", "IFRAME", "NOEMBED", "NOFRAMES", "PLAINTEXT")
})

var emptyElements = sync.OnceValue(func() map[string]bool {
	return set("area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img", "input", "keygen", "link", "meta", "param", "source", "track", "wbr")
})

func outerHTML(n *node) string {
	var b strings.Builder
	serializeOne(&b, n, nil, false)
	return b.String()
}

// inTemplate: template contents belong to domino's template document,
// which has scripting disabled, so <noscript> text there is escaped.
func serializeChildren(b *strings.Builder, n *node, inTemplate bool) {
	parent := n
	if n.content != nil {
		parent = n.content
		inTemplate = true
	}
	for c := parent.first; c != nil; c = c.next {
		serializeOne(b, c, parent, inTemplate)
	}
}

func serializeOne(b *strings.Builder, kid, parent *node, inTemplate bool) {
	switch kid.typ {
	case elementNode:
		tag := kid.local
		b.WriteString("<" + tag)
		for _, a := range kid.attrs {
			b.WriteString(" " + attrName(a.Namespace, a.Key) + `="` + escapeAttr(a.Val) + `"`)
		}
		b.WriteString(">")
		if kid.ns == nsHTML && emptyElements()[tag] {
			return
		}
		var inner strings.Builder
		serializeChildren(&inner, kid, inTemplate)
		ss := inner.String()
		if rawContentParents()[strings.ToUpper(tag)] {
			ss = escapeMatchingClosingTag(ss, tag)
		}
		b.WriteString(ss)
		b.WriteString("</" + tag + ">")
	case textNode:
		if parent != nil && parent.isHTML() && (rawContentParents()[parent.name] || (parent.name == "NOSCRIPT" && !inTemplate)) {
			b.WriteString(kid.data)
		} else {
			b.WriteString(escapeText(kid.data))
		}
	case commentNode:
		b.WriteString("<!--" + escapeClosingCommentTag(kid.data) + "-->")
	}
}

// attrName: foreign attributes keep their xml:, xlink: or xmlns: prefix.
func attrName(ns, key string) string {
	switch ns {
	case "":
		return key
	case "xmlns":
		if key == "xmlns" {
			return "xmlns"
		}
	}
	return ns + ":" + key
}

func escapeText(s string) string {
	if !strings.ContainsAny(s, "&<>\u00a0") {
		return s
	}
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\u00a0", "&nbsp;").Replace(s)
}

func escapeAttr(s string) string {
	if !strings.ContainsAny(s, "&\"<>\u00a0") {
		return s
	}
	return strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;", "\u00a0", "&nbsp;").Replace(s)
}

// escapeClosingCommentTag replaces the ">" of every "-->" or "--!>".
func escapeClosingCommentTag(s string) string {
	if !strings.Contains(s, "-->") && !strings.Contains(s, "--!>") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.HasPrefix(s[i:], "-->") {
			b.WriteString("--&gt;")
			i += 2
			continue
		}
		if strings.HasPrefix(s[i:], "--!>") {
			b.WriteString("--!&gt;")
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// escapeMatchingClosingTag replaces the "<" of each case-insensitive
// "</tag" in raw text with "&lt;". Upstream indexes the code point array
// with UTF-16 match positions, so after an astral character it replaces
// the wrong element; that is reproduced.
func escapeMatchingClosingTag(raw, tag string) string {
	closing := "</" + tag
	if !strings.Contains(strings.ToLower(raw), closing) {
		return raw
	}
	units := jsonv.Units(raw)
	var cps []string // [...rawText]
	for i := 0; i < len(units); i++ {
		if utf16.IsSurrogate(rune(units[i])) && units[i] < 0xDC00 && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] <= 0xDFFF {
			cps = append(cps, jsonv.FromUnits(units[i:i+2]))
			i++
			continue
		}
		cps = append(cps, jsonv.FromUnits(units[i:i+1]))
	}
	cl := jsonv.Units(closing)
	for i := 0; i+len(cl) <= len(units); i++ {
		match := true
		for k, c := range cl {
			u := units[i+k]
			if u >= 'A' && u <= 'Z' {
				u += 'a' - 'A'
			}
			if u != c {
				match = false
				break
			}
		}
		if match {
			for len(cps) <= i { // a sparse array's holes join as ""
				cps = append(cps, "")
			}
			cps[i] = "&lt;"
			i += len(cl) - 1
		}
	}
	return strings.Join(cps, "")
}
