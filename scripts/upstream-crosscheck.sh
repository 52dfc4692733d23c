#!/usr/bin/env bash
# Loads upstream's own first-party tool plugins through --plugin's sandbox,
# holds their projectors and presenters to the Go ports on the worked
# conformance vectors (TestUpstreamCrossCheck), and verifies the recorded
# sessions through them (TestVerifyRecordedWithUpstreamPlugins), for DSH and
# LasmeX.
#
#   scripts/upstream-crosscheck.sh [dsh|lasmex|all] [TREE]
#
# Without TREE each pinned tree is prepared by ../shared/upstream/prepare.sh
# (unpacked from its archive with its workspace installed, once; SHARED
# overrides ../shared). Nothing of upstream's lands in this repository.
set -euo pipefail
cd "$(dirname "$0")/.."

which=${1:-all}
tree=${2:-}
shared=${SHARED:-../shared}
case $which in
  dsh) hosts=(deepseek-harness) ;;
  lasmex) hosts=(lasmex) ;;
  all) hosts=(deepseek-harness lasmex) ;;
  *) echo "usage: $0 [dsh|lasmex|all] [TREE]" >&2; exit 2 ;;
esac
if [[ -n $tree && ${#hosts[@]} -ne 1 ]]; then
  echo "$0: a TREE goes with one host (dsh or lasmex)" >&2; exit 2
fi

status=0
for host in "${hosts[@]}"; do
  dir=$tree
  if [[ -z $dir ]]; then
    [[ -x $shared/upstream/prepare.sh ]] || { echo "$0: $shared/upstream/prepare.sh not found (set SHARED)" >&2; exit 2; }
    dir=$("$shared/upstream/prepare.sh" "$host" | tail -n 1)
  fi
  echo "== $host: $dir" >&2
  out=$(mktemp)
  if DSH_REPLAY_UPSTREAM=$dir go test -count=1 -run '^(TestUpstreamCrossCheck|TestVerifyRecordedWithUpstreamPlugins)$' -v ./projector/jsplugin ./cmd >"$out" 2>&1; then
    grep -E '^(upstream plugins|recorded sessions)' "$out"
  else
    cat "$out"
    status=1
  fi
  rm -f "$out"
done
exit $status
