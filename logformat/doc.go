// Package logformat reads DSH and LasmeX session logs: files and directories,
// plain JSONL and chained zstd frames, the header and event envelope, packed
// chunk rows, legacy shapes, projected envelopes, wrapped event streams, torn
// tails versus corruption, and the pairing of events into tool calls. It also
// rewrites logs in place. Values are jsonv's (the lossless JSON model).
package logformat
