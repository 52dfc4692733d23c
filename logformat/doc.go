// Package logformat reads DSH and LasmeX session logs: files and directories,
// plain JSONL and chained zstd frames, the header and event envelope of every
// session format DSH has written (0 to 4, formats.go), packed chunk rows,
// legacy shapes, projected envelopes, wrapped event streams, torn tails
// versus corruption, and the pairing of events into tool calls. A directory
// walk reads the newest generation of each session (generations.go). It
// also rewrites logs in place, in their own format. Values are jsonv's (the
// lossless JSON model).
package logformat
