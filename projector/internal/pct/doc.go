// Package pct is the percent-decoding the URL and URI ports share (the
// WHATWG URL parser's host and path steps, decodeURIComponent).
package pct
