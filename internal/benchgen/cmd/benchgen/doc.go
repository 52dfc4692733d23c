// Command benchgen writes a synthetic session log for throughput benchmarks.
//
//	benchgen -mb 1024 -o session.jsonl            # plain JSONL
//	benchgen -mb 1024 -zstd -o session.jsonl.zstd # chained zstd frames
//
// Flags:
//
//	-mb N          approximate plaintext size in MiB (default 1024)
//	-o FILE        output file ("-" or empty: stdout)
//	-zstd          write chained zstd frames (header frame, then ~1 MiB batches)
//	-frame-kb N    plaintext per zstd batch frame in KiB (default 1024)
//	-seed N        random seed (default 1); the output is deterministic per seed
//	-templates N   distinct call templates to repeat (default 300)
//	-ports=false   do not use the Go ports for result content/meta
//
// It prints one line of statistics to stderr.
package main
