// Package projectortest checks tool ports against the upstream worked
// examples in ../shared/conformance (fs-examples.jsonl, other-examples.jsonl):
// one call each, {tool, args, value, content?, meta?, callView?, resultView?,
// resultInput?, isError?, config?, meta_absent?, nested?}.
package projectortest
