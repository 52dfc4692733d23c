#!/usr/bin/env bash
# Boots a real host CLI with the recorder installed as recorder/README.md
# says (the packed package installed into a profile with npm, the profile's
# bundles named, the plugin enabled in its cordis.patch.yml), drives
# one prompt through the upstream mock LLM server (a read tool call, then a
# reply), and leaves the host's session log and the recorder's sidecar in OUT.
#
#   scripts/recorder-profile.sh dsh|lasmex OUT
#
# The host's tree is the prepared one DSH_REPLAY_UPSTREAM (dsh) or
# DSH_REPLAY_UPSTREAM_LASMEX (lasmex) names, with its host libraries built,
# which the CLI needs, and Node >= 22.19 first on PATH (docs/upstream.md).
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 dsh|lasmex OUT" >&2; exit 2; }
host=$1 out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
case $host in
dsh) home_var=DSH_HOME bundles='"@deepseek-ai/dsh-base", "@deepseek-ai/dsh-headless"' ;;
lasmex) home_var=LASMEX_HOME bundles='"lasmex-base", "lasmex-headless"' ;;
*) echo "usage: $0 dsh|lasmex OUT" >&2; exit 2 ;;
esac
. "$root/scripts/upstream.sh"
tree=$(upstream_tree "$host" built) || exit 2
upstream_node || exit 2
work=$(mktemp -d)
trap 'kill "$mock" 2>/dev/null || true; rm -rf "$work"' EXIT
home=$work/home
profile=$home/profiles/recorded
mkdir -p "$profile/node_modules" "$work/ws" "$out"
printf 'hello from a file\n' > "$work/ws/hello.txt"
cat > "$profile/package.json" <<JSON
{"name": "profile-recorded", "private": true,
 "dsh": {"profile": {"bundles": [$bundles]}}, "lasmex": {"profile": {"bundles": [$bundles]}}}
JSON
# The packed package (RECORDER_TARBALL, else packed now), installed as
# recorder/README.md says.
tarball=${RECORDER_TARBALL:-$("$root/scripts/recorder-pack.sh" "$work/pack" | tail -n 1)}
(cd "$profile" && npm install --no-audit --no-fund --loglevel=error "$tarball" >/dev/null)
cat > "$profile/cordis.patch.yml" <<'YAML'
- insert:
    - id: dsh-replay-recorder
      name: dsh-replay-recorder
YAML
cd "$tree"
node --import tsx packages/test-support/llm-mock-server/src/bin.ts --port 0 --api-key mock-key \
	--sequence tool_call_success,success --repeat-last --tool-name read \
	--tool-arguments "{\"file_path\":\"$work/ws/hello.txt\"}" > "$work/mock.log" 2>&1 &
mock=$!
for _ in $(seq 100); do grep -q '"ready"' "$work/mock.log" 2>/dev/null && break; sleep 0.1; done
base=$(sed -n 's/.*"baseURL":"\([^"]*\)".*/\1/p' "$work/mock.log" | head -n 1)
[ -n "$base" ] || { echo "recorder-profile: the mock LLM server did not start:" >&2; cat "$work/mock.log" >&2; exit 1; }
env "$home_var=$home" DEEPSEEK_BASE_URL="$base" DEEPSEEK_API_KEY=mock-key \
	timeout 120 node --import tsx/esm apps/cli/src/bin.ts --profile recorded "read hello.txt" > "$work/cli.log" 2>&1 || {
	echo "recorder-profile: the $host CLI failed:" >&2; tail -20 "$work/cli.log" >&2; exit 1; }
found=0
while IFS= read -r log; do
	cp "$log" "$out/"
	side="${log%.jsonl*}.values.jsonl"
	[ -f "$side" ] && cp "$side" "$out/" && found=1
done < <(find "$home/sessions" -name 'session*.jsonl*' -not -name '*.values.jsonl')
[ "$found" = 1 ] || { echo "recorder-profile: no sidecar beside the $host session log" >&2; exit 1; }
