// Package turndown converts HTML to markdown exactly as upstream's web_fetch
// does: turndown 7.2.4 with @joplin/turndown-plugin-gfm 1.0.67 over the
// domino DOM, with the options headingStyle "atx", codeBlockStyle "fenced",
// bulletListMarker "-", script/style/noscript removed, and web_fetch's own
// table cell and row rules that ignore colspan.
//
// The HTML is parsed by a copy of golang.org/x/net/html's tree builder
// adjusted to build the tree domino builds (internal/htmlparse); text
// semantics are JavaScript's (UTF-16 lengths, Unicode \s, trim).
//
// Convert returns an error where upstream's conversion throws (for example
// a document whose body a <frameset> replaced, an SVG <tr>, or nesting deep
// enough to overflow the JavaScript stack); web_fetch then keeps the raw
// HTML.
package turndown
