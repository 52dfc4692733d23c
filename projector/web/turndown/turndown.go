package turndown

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dsh-replay/dsh-replay/projector/web/turndown/internal/htmlparse"
)

// MaxDepth is the element nesting beyond which conversion fails, standing
// in for the stack overflow (a RangeError, caught by web_fetch) of
// upstream's recursive walk. Upstream's own limit is not a constant: under
// Node 20 a warmed-up process converts 1562 nested <div>, <span> or <b> and
// overflows at 1563, a cold one already overflows between 1300 and 1400,
// and other element mixes differ again (nested ul/li converts up to 1726
// elements when warm). MaxDepth takes the warm <div> figure. web_fetch's
// 512-element lexical guard keeps real pages far below any of them.
const MaxDepth = 1562

// throw is a JavaScript exception raised while converting.
type throw struct{ msg string }

func (t *throw) Error() string { return t.msg }

func throwf(format string, a ...any) { panic(&throw{fmt.Sprintf(format, a...)}) }

// ErrTooDeep is returned for documents nested beyond MaxDepth.
var ErrTooDeep = errors.New("turndown: nesting too deep")

// Options are the differences between the converters web_fetch shipped.
type Options struct {
	// RemoveNonVisible is the removeNonVisibleContent rule of DSH 0.1.6
	// (script, style, noscript, template, iframe, object and embed, hidden,
	// aria-hidden="true", <input type=hidden>, and display:none or
	// visibility:hidden|collapse styles render as nothing), ranked below the
	// table row and cell rules and above every other; without it only script,
	// style and noscript are removed, and only after every other rule.
	RemoveNonVisible bool
}

// Convert is turndownService.turndown(html) under web_fetch's configuration
// as DSH 0.1.1-rc.2 shipped it.
func Convert(input string) (md string, err error) { return ConvertWith(input, Options{}) }

// ConvertWith is Convert under the configuration o describes.
func ConvertWith(input string, o Options) (md string, err error) {
	if input == "" {
		return "", nil
	}
	defer func() {
		if r := recover(); r != nil {
			t, ok := r.(*throw)
			if !ok {
				panic(r)
			}
			md, err = "", t
		}
	}()
	doc, perr := htmlparse.Parse(strings.NewReader(`<x-turndown id="turndown-root">` + input + `</x-turndown>`))
	if perr != nil {
		return "", perr
	}
	d := build(doc)
	root := d.getElementByID("turndown-root")
	if root == nil {
		return "", &throw{"Cannot read properties of null (reading 'firstChild')"}
	}
	if depth(root) > MaxDepth {
		return "", ErrTooDeep
	}
	collapseWhitespace(root)
	c := &converter{skipCache: map[*node]bool{}, removeNonVisible: o.RemoveNonVisible}
	out := c.process(root)
	return postProcess(out), nil
}

// depth is the element nesting below n.
func depth(n *node) int {
	max := 0
	type frame struct {
		n *node
		d int
	}
	stack := []frame{{n, 0}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f.d > max {
			max = f.d
		}
		for c := f.n.first; c != nil; c = c.next {
			if c.typ == elementNode {
				stack = append(stack, frame{c, f.d + 1})
			}
		}
	}
	return max
}

type converter struct {
	skipCache        map[*node]bool // tableShouldBeSkipped memo
	removeNonVisible bool           // Options.RemoveNonVisible
}

// process is turndown's process(parentNode): the children's replacements
// joined with join().
func (c *converter) process(parent *node) string {
	var out []byte // join() applied in place: JavaScript's ropes make it cheap
	for n := parent.first; n != nil; n = n.next {
		wrapNode(n)
		replacement := ""
		switch n.typ {
		case textNode:
			if n.isCode {
				replacement = n.data
			} else {
				replacement = escapeMarkdown(n.data)
			}
		case elementNode:
			replacement = c.replacementForNode(n)
		}
		out = appendJoin(out, replacement)
	}
	return string(out)
}

// appendJoin is join(output, replacement) on a growing buffer.
func appendJoin(out []byte, replacement string) []byte {
	k := 0
	for k < len(out) && out[len(out)-1-k] == '\n' {
		k++
	}
	out = out[:len(out)-k]
	s2 := trimLeadingNewlines(replacement)
	nls := k
	if l := len(replacement) - len(s2); l > nls {
		nls = l
	}
	if nls > 2 {
		nls = 2
	}
	out = append(out, "\n\n"[:nls]...)
	return append(out, s2...)
}

// wrapNode is turndown's Node(): the per-node flags.
func wrapNode(n *node) {
	n.isBlock = isBlock(n)
	n.isCode = n.name == "CODE" || (n.parent != nil && n.parent.isCode)
	n.isBlank = isBlankNode(n)
}

func (c *converter) replacementForNode(n *node) string {
	r := c.ruleFor(n)
	content := c.process(n)
	leading, trailing := flankingWhitespace(n)
	if leading != "" || trailing != "" {
		content = trimJS(content)
	}
	return leading + r(c, content, n) + trailing
}

// join appends a replacement, keeping at most two newlines between them.
func join(output, replacement string) string {
	s1 := trimTrailingNewlines(output)
	s2 := trimLeadingNewlines(replacement)
	nls := len(output) - len(s1)
	if k := len(replacement) - len(s2); k > nls {
		nls = k
	}
	if nls > 2 {
		nls = 2
	}
	return s1 + "\n\n"[:nls] + s2
}

func trimLeadingNewlines(s string) string { return strings.TrimLeft(s, "\n") }

func trimTrailingNewlines(s string) string { return strings.TrimRight(s, "\n") }

func trimNewlines(s string) string { return trimTrailingNewlines(trimLeadingNewlines(s)) }

// postProcess: the rules' append hooks (the reference-link rule appends ""
// through join, which caps trailing newlines at two), then the final trim
// of leading tabs/newlines and trailing whitespace.
func postProcess(out string) string {
	out = join(out, "")
	out = strings.TrimLeft(out, "\t\r\n")
	return trimEndJS(out)
}
