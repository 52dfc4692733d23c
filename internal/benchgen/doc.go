// Package benchgen writes large synthetic session logs for throughput
// benchmarks: a realistic mix of streamed assistant chunks (packed rows and
// plain chunk events), assistant messages, and tool/call + tool/result pairs
// carrying the dsh-replay value extension (value, and meta where the tool
// has presentationMeta) for read, edit, grep, bash and web_fetch.
//
// Results are replay-consistent: each result's content and meta come from
// the registered Go ports (render and presentationMeta over the value); a
// tool without a port yet gets a plain text content and no meta. A pool of a
// few hundred call templates is rendered once and then repeated with fresh
// ids, seqs and times, so generation runs at disk speed. Output is
// deterministic for a given Options.
package benchgen
