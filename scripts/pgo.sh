#!/usr/bin/env bash
# Regenerates default.pgo, the CPU profile `go build` uses to optimise the
# binary (profile-guided optimisation, about 4% on verify). The profile comes
# from the tool's own hot paths over a synthetic log: verify and calls. It
# is recorded from a -trimpath build and then stripped of absolute paths.
#
#   PGO_MB  size of the synthetic log in MiB (default 1024)
set -euo pipefail
cd "$(dirname "$0")/.."
MB=${PGO_MB:-1024}
DIR=$(mktemp -d "${TMPDIR:-/tmp}/dsh-replay-pgo.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
go build -o "$DIR/benchgen" ./internal/benchgen/cmd/benchgen
go build -pgo=off -trimpath -o "$DIR/dsh-replay" .
"$DIR/benchgen" -mb "$MB" -o "$DIR/session.jsonl" >/dev/null
"$DIR/dsh-replay" verify --jobs 2 --cpuprofile "$DIR/verify.prof" "$DIR/session.jsonl" >/dev/null
"$DIR/dsh-replay" calls --summary --cpuprofile "$DIR/calls.prof" "$DIR/session.jsonl" >/dev/null
go tool pprof -proto "$DIR/verify.prof" "$DIR/calls.prof" >"$DIR/merged.pgo" 2>/dev/null
# The profile must name no path of this machine (PGO matches by function name).
go run scripts/pgostrip.go "$DIR/merged.pgo" default.pgo
echo "wrote default.pgo ($(wc -c <default.pgo) bytes) from a ${MB} MiB log" >&2
