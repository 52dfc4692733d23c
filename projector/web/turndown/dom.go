package turndown

import (
	"strings"

	"github.com/dsh-replay/dsh-replay/projector/web/turndown/internal/htmlparse"
)

// A small DOM with the domino behaviours turndown and the GFM plugin
// observe: nodeName casing, template contents kept out of the tree,
// getElementsByTagName's namespace rules, textContent.

type nodeType uint8

const (
	elementNode  nodeType = 1
	textNode     nodeType = 3
	commentNode  nodeType = 8
	documentNode nodeType = 9
	fragmentNode nodeType = 11
)

// Namespaces as the parser records them ("" is HTML).
const (
	nsHTML = ""
	nsSVG  = "svg"
	nsMath = "math"
)

type node struct {
	typ   nodeType
	name  string // nodeName: upper-case tag name for HTML elements, "#text", ...
	local string // localName
	ns    string
	data  string // text and comment data
	attrs []htmlparse.Attribute

	parent, first, last, prev, next *node
	content                         *node // a template's contents (a fragment)

	// Set when turndown's Node() wraps the node during process.
	isBlock, isCode, isBlank bool
	// Sibling positions, filled by the parent's indexChildren.
	idx, elIdx int
	indexed    bool
}

func (n *node) isHTML() bool { return n.typ == elementNode && n.ns == nsHTML }

// build copies a parsed tree into the DOM; a template's children become its
// content fragment, as in domino.
func build(src *htmlparse.Node) *node {
	n := &node{}
	switch src.Type {
	case htmlparse.DocumentNode:
		n.typ, n.name = documentNode, "#document"
	case htmlparse.ElementNode:
		n.typ, n.local, n.ns, n.attrs = elementNode, src.Data, src.Namespace, src.Attr
		n.name = src.Data
		if n.ns == nsHTML {
			n.name = asciiUpper(src.Data)
		}
	case htmlparse.TextNode:
		n.typ, n.name, n.data = textNode, "#text", src.Data
	case htmlparse.CommentNode:
		n.typ, n.name, n.data = commentNode, "#comment", src.Data
	default:
		return nil
	}
	parent := n
	if n.typ == elementNode && n.ns == nsHTML && n.local == "template" {
		n.content = &node{typ: fragmentNode, name: "#document-fragment"}
		parent = n.content
	}
	for c := src.FirstChild; c != nil; c = c.NextSibling {
		if k := build(c); k != nil {
			parent.appendChild(k)
		}
	}
	return n
}

func asciiUpper(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'a' && c <= 'z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'a' && b[j] <= 'z' {
					b[j] -= 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

func (n *node) appendChild(c *node) {
	c.parent = n
	c.prev = n.last
	if n.last != nil {
		n.last.next = c
	} else {
		n.first = c
	}
	n.last = c
}

func (n *node) removeChild(c *node) {
	if c.prev != nil {
		c.prev.next = c.next
	} else {
		n.first = c.next
	}
	if c.next != nil {
		c.next.prev = c.prev
	} else {
		n.last = c.prev
	}
	c.parent, c.prev, c.next = nil, nil, nil
}

// qualifiedName of an attribute (xlink:href, xml:lang, xmlns:xlink).
func qualifiedName(a htmlparse.Attribute) string {
	if a.Namespace != "" {
		return a.Namespace + ":" + a.Key
	}
	return a.Key
}

// getAttribute is Element.getAttribute: HTML elements match the
// ASCII-lowercased name. ok is false for null.
func (n *node) getAttribute(name string) (string, bool) {
	if n.typ != elementNode {
		return "", false
	}
	if n.isHTML() {
		name = asciiLower(name)
	}
	for _, a := range n.attrs {
		if qualifiedName(a) == name {
			return a.Val, true
		}
	}
	return "", false
}

// attr is getAttribute with null as "".
func (n *node) attr(name string) string {
	v, _ := n.getAttribute(name)
	return v
}

// textContent concatenates descendant text (comments excluded, template
// contents excluded).
func (n *node) textContent() string {
	if n.typ == textNode || n.typ == commentNode {
		return n.data
	}
	if n.first == nil {
		return ""
	}
	if n.first == n.last && n.first.typ == textNode {
		return n.first.data
	}
	var b strings.Builder
	n.appendText(&b)
	return b.String()
}

func (n *node) appendText(b *strings.Builder) {
	for c := n.first; c != nil; c = c.next {
		switch c.typ {
		case textNode:
			b.WriteString(c.data)
		case elementNode:
			c.appendText(b)
		}
	}
}

// childIndex is Array.prototype.indexOf over childNodes; the positions of
// all siblings are computed once (the tree no longer changes).
func (n *node) childIndex() int {
	n.parent.indexChildren()
	return n.idx
}

// elementIndex is indexOf over parent.children (element children).
func (n *node) elementIndex() int {
	n.parent.indexChildren()
	return n.elIdx
}

func (n *node) indexChildren() {
	if n.indexed {
		return
	}
	i, e := 0, 0
	for c := n.first; c != nil; c = c.next {
		c.idx, c.elIdx = i, -1
		if c.typ == elementNode {
			c.elIdx = e
			e++
		}
		i++
	}
	n.indexed = true
}

func (n *node) childCount() int {
	i := 0
	for c := n.first; c != nil; c = c.next {
		i++
	}
	return i
}

func (n *node) lastElementChild() *node {
	for c := n.last; c != nil; c = c.prev {
		if c.typ == elementNode {
			return c
		}
	}
	return nil
}

// walk visits descendants in tree order (template contents excluded);
// visit returns false to stop.
func (n *node) walk(visit func(*node) bool) bool {
	for c := n.first; c != nil; c = c.next {
		if !visit(c) || !c.walk(visit) {
			return false
		}
	}
	return true
}

// hasTagNamed is `node.getElementsByTagName(UPPER).length > 0` for the
// upper-case names turndown passes: an HTML caller matches HTML
// descendants by lower-cased local name and others by the exact
// (upper-case) local name; a non-HTML caller matches exact local names.
func (n *node) hasTagNamed(upper map[string]bool) bool {
	if n.typ != elementNode && n.typ != documentNode && n.typ != fragmentNode {
		return false
	}
	callerHTML := n.isHTML()
	found := false
	n.walk(func(e *node) bool {
		if e.typ != elementNode {
			return true
		}
		if callerHTML && e.isHTML() {
			found = upper[asciiUpper(e.local)] && e.local == asciiLower(e.local)
		} else {
			found = upper[e.local]
		}
		return !found
	})
	return found
}

// elementsByLocalName is getElementsByTagName(lowercase name): every
// descendant element whose local name is name, in any namespace.
func (n *node) elementsByLocalName(name string) []*node {
	var out []*node
	n.walk(func(e *node) bool {
		if e.typ == elementNode && e.local == name {
			out = append(out, e)
		}
		return true
	})
	return out
}

// firstByLocalName is elementsByLocalName(name)[0] without the slice.
func (n *node) firstByLocalName(name string) *node {
	var out *node
	n.walk(func(e *node) bool {
		if e.typ == elementNode && e.local == name {
			out = e
			return false
		}
		return true
	})
	return out
}

// getElementByID is Document.getElementById (tree order).
func (n *node) getElementByID(id string) *node {
	var out *node
	n.walk(func(e *node) bool {
		if e.typ == elementNode {
			for _, a := range e.attrs {
				if a.Namespace == "" && a.Key == "id" {
					if a.Val == id {
						out = e
						return false
					}
					break
				}
			}
		}
		return true
	})
	return out
}

// querySelectorAllCells is querySelectorAll('td,th'): domino's type
// selectors compare nodeName.toLowerCase(), so any namespace matches.
func (n *node) querySelectorAllCells() []*node {
	var out []*node
	n.walk(func(e *node) bool {
		if e.typ == elementNode {
			if l := strings.ToLower(e.name); l == "td" || l == "th" {
				out = append(out, e)
			}
		}
		return true
	})
	return out
}

// classList tokens (ASCII whitespace separated).
func (n *node) hasClass(c string) bool {
	for _, t := range strings.FieldsFunc(n.attr("class"), func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r'
	}) {
		if t == c {
			return true
		}
	}
	return false
}

// textNodes calls f on the data of each descendant text node, in tree
// order (or reverse order), until f returns false.
func (n *node) textNodes(reverse bool, f func(string) bool) bool {
	if n.typ == textNode {
		return f(n.data)
	}
	if reverse {
		for c := n.last; c != nil; c = c.prev {
			if (c.typ == textNode || c.typ == elementNode) && !c.textNodes(true, f) {
				return false
			}
		}
		return true
	}
	for c := n.first; c != nil; c = c.next {
		if (c.typ == textNode || c.typ == elementNode) && !c.textNodes(false, f) {
			return false
		}
	}
	return true
}

// textEdges is the whitespace prefix and suffix of textContent (JavaScript
// \s), without building it; for whitespace-only text the whole text is the
// prefix and the suffix is empty.
func (n *node) textEdges() (leading, trailing string, allSpace bool) {
	var lb strings.Builder
	allSpace = n.textNodes(false, func(s string) bool {
		rest := trimStartJS(s)
		lb.WriteString(s[:len(s)-len(rest)])
		return rest == ""
	})
	if allSpace {
		return lb.String(), "", true
	}
	var parts []string
	n.textNodes(true, func(s string) bool {
		rest := trimEndJS(s)
		parts = append(parts, s[len(rest):])
		return rest == ""
	})
	var tb strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		tb.WriteString(parts[i])
	}
	return lb.String(), tb.String(), false
}

// isSpaceOnly is /^\s*$/.test(textContent).
func (n *node) isSpaceOnly() bool {
	return n.textNodes(false, func(s string) bool { return isAllJSSpace(s) })
}

// edgeByte is the first (or last) byte of textContent, 0 when it is empty.
func (n *node) edgeByte(last bool) byte {
	var b byte
	n.textNodes(last, func(s string) bool {
		if s == "" {
			return true
		}
		if last {
			b = s[len(s)-1]
		} else {
			b = s[0]
		}
		return false
	})
	return b
}
