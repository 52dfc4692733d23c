// Package htmlparse is the HTML5 tree builder of golang.org/x/net/html,
// copied and adjusted so that it builds the tree domino builds (the DOM
// upstream's turndown runs on under Node); the tokenizer is x/net/html's own,
// re-exported. README.md lists every change from the original.
package htmlparse
