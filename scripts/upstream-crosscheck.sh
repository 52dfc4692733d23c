#!/usr/bin/env bash
# Loads upstream's own first-party tool plugins through --plugin's sandbox
# and compares their projectors and presenters with the Go ports on the
# conformance vectors (TestUpstreamCrossCheck).
#
#   scripts/upstream-crosscheck.sh [lasmex|dsh] [CHECKOUT]
#
# Without CHECKOUT the repository is fetched at the pinned commit into a
# temporary directory (needs network access to github.com) and removed
# afterwards unless KEEP=1. Its workspace packages are installed with pnpm
# (from the npm registry, scripts not run) so that the plugins' own
# imports resolve. Nothing of upstream's lands in this repository.
set -euo pipefail
cd "$(dirname "$0")/.."

which=${1:-lasmex}
case $which in
  lasmex) repo=https://github.com/lasme-ephrem/LasmeX commit=bdc153371d ;;
  dsh) repo=https://github.com/deepseek-ai/deepseek-harness commit=b150a551b8 ;;
  *) echo "usage: $0 [lasmex|dsh] [CHECKOUT]" >&2; exit 2 ;;
esac

dir=${2:-}
if [[ -z $dir ]]; then
  dir=$(mktemp -d "${TMPDIR:-/tmp}/dsh-replay-upstream.XXXXXX")
  [[ -n ${KEEP:-} ]] || trap 'rm -rf "$dir"' EXIT
  echo "fetching $repo at $commit into $dir ..." >&2
  git clone --quiet --filter=blob:none --no-checkout "$repo" "$dir"
  git -C "$dir" checkout --quiet "$commit"
fi
[[ -d $dir/packages ]] || { echo "$dir has no packages/ directory: not an upstream checkout" >&2; exit 2; }

# Resolve the workspace's imports the way upstream's own build does.
if [[ -f $dir/pnpm-lock.yaml && ! -d $dir/node_modules ]]; then
  echo "installing the workspace's packages (pnpm, --ignore-scripts) ..." >&2
  (cd "$dir" && npx --yes pnpm@9 install --frozen-lockfile --ignore-scripts --reporter=silent)
fi

DSH_REPLAY_UPSTREAM=$dir go test -count=1 -run '^TestUpstreamCrossCheck$' -v ./projector/jsplugin
