// Package web ports the tool-web plugin: web_search and web_fetch.
//
// Configuration lives under plugins["tool-web"] with upstream's option names
// and shipped defaults:
//
//   - search (default true) and fetch (default true): whether each tool is
//     registered.
//   - searchMaxResults (default 8), searchTimeoutMs and fetchTimeoutMs
//     (default 30000): checked as upstream does at load (positive integers);
//     they do not change any projector.
//   - fetchMaxOutputChars (default 200000): the UTF-16 cap of the whole
//     web_fetch text and of the HTML converted synchronously.
//   - searchMaxQueries (DSH only, default 4): appears in DSH's parameter
//     description.
//
// The two forks disagree on web_search's arguments: LasmeX takes one
// `query` string, DeepSeek Harness takes `queries: string[]` (and titles its
// cards with the queries joined by ", "); render and presentationMeta are the
// same. A log does not say which harness wrote it, so each call's arguments
// choose: LasmeX's definition is the registry's and DSH's a fork variant
// that draws a call in its shape. An option that is this tool's own (upstream
// has no such key), plugins["tool-web"].fork = "lasmex" or "dsh", pins one
// host; each fork's presenters then soft-fail (no view) on the other's
// argument shape, as upstream's would. web_fetch is identical in both forks.
package web
