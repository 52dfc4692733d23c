// Package htmlparse is the HTML5 tree builder and tokenizer of
// golang.org/x/net/html, copied and adjusted so that it builds the tree
// domino builds (the DOM upstream's turndown runs on under Node) and builds
// its entity tables on first use. README.md lists every change from the
// original.
package htmlparse
