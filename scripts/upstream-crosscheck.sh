#!/usr/bin/env bash
# Loads upstream's own first-party tool plugins through --plugin's sandbox,
# holds their projectors and presenters to the Go ports on the worked
# conformance vectors (TestUpstreamCrossCheck), and verifies the recorded
# sessions through them (TestVerifyRecordedWithUpstreamPlugins), for DSH and
# LasmeX; then loads the tree as --host does (TestUpstreamHost) and verifies
# the recorded sessions and the drift table through it
# (TestVerifyRecordedWithHost).
#
#   scripts/upstream-crosscheck.sh [dsh|lasmex|all]
#
# It runs on the prepared trees DSH_REPLAY_UPSTREAM (DSH) and
# DSH_REPLAY_UPSTREAM_LASMEX (LasmeX) name: sources at the pinned commit with
# the workspace installed (docs/upstream.md). Nothing of upstream's lands in
# this repository.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/upstream.sh

which=${1:-all}
case $which in
  dsh|lasmex) hosts=("$which") ;;
  all) hosts=(dsh lasmex) ;;
  *) echo "usage: $0 [dsh|lasmex|all]" >&2; exit 2 ;;
esac
for host in "${hosts[@]}"; do
  upstream_tree "$host" >/dev/null || exit 2
done

status=0
for host in "${hosts[@]}"; do
  var=$(upstream_var "$host")
  echo "== $host: ${!var}" >&2
  out=$(mktemp)
  # Only this host's variable: the tests run a subtest per tree they are given.
  if env -u DSH_REPLAY_UPSTREAM -u DSH_REPLAY_UPSTREAM_LASMEX "$var=${!var}" \
    go test -count=1 -run '^(TestUpstreamCrossCheck|TestVerifyRecordedWithUpstreamPlugins|TestUpstreamHost|TestVerifyRecordedWithHost)$' -v ./projector/jsplugin ./projector/hostdir ./cmd >"$out" 2>&1; then
    grep -E '^(upstream plugins|recorded sessions)' "$out"
    # A subtest skipped here would be a check that did not run.
    if grep -E -e "--- SKIP: Test(UpstreamCrossCheck|VerifyRecordedWithUpstreamPlugins|UpstreamHost|VerifyRecordedWithHost)/$host" "$out"; then status=1; fi
  else
    cat "$out"
    status=1
  fi
  rm -f "$out"
done
exit $status
