#!/usr/bin/env bash
# Records the scripted sessions of recorder/driver on both upstream hosts,
# with the recorder plugin loaded (make record / make record-check).
#
#   scripts/record.sh [OUT]        record into OUT (default testdata/recorded)
#   scripts/record.sh --check      record into a temporary directory and diff
#                                  against testdata/recorded
#
# It runs on the prepared trees DSH_REPLAY_UPSTREAM and
# DSH_REPLAY_UPSTREAM_LASMEX name, with Node >= 22.19 first on PATH
# (docs/upstream.md). Message ids are random UUIDs the driver cannot pin in
# every place, and terminal sessions have real process ids; --check compares
# with both masked (README: Recording values).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
. scripts/upstream.sh
dsh=$(upstream_tree dsh) || exit 2
lasmex=$(upstream_tree lasmex) || exit 2
upstream_node || exit 2

check=0
out=$root/testdata/recorded
if [ "${1:-}" = "--check" ]; then
	check=1
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
elif [ -n "${1:-}" ]; then
	out=$1
fi

for host in dsh lasmex; do
	tree=${!host}
	rm -rf "${out:?}/$host"
	(cd "$tree" && node --no-warnings --import tsx/esm "$root/recorder/driver/record.ts" --host "$host" --tree "$tree" --out "$out")
	# The projectors of the tools the two hosts define differently, from
	# each host's own definitions (testdata/hosts).
	mkdir -p "$out/hosts"
	(cd "$tree" && node --no-warnings --import tsx/esm "$root/recorder/driver/vectors.ts" --host "$host" --tree "$tree" --out "$out/hosts/$host.jsonl")
done
# DSH's Agent Teams tools, from the plugin's own definitions.
(cd "$dsh" && node --no-warnings --import tsx/esm "$root/recorder/driver/team-vectors.ts" --tree "$dsh" --out "$out/team-vectors.jsonl")
if [ "$check" = 0 ] && [ "$out" = "$root/testdata/recorded" ]; then
	mkdir -p testdata/hosts
	mv "$out"/hosts/*.jsonl testdata/hosts/
	rmdir "$out/hosts"
	mv "$out/team-vectors.jsonl" projector/agent/testdata/team-vectors.jsonl
fi

if [ "$check" = 1 ]; then
	mask() { sed -E -e 's/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/<uuid>/g' -e 's/("pid":|pid=)[0-9]+/\1<pid>/g' -e 's/"(time0?)":[0-9]+/"\1":<time>/g' "$1"; }
	status=0
	while IFS= read -r f; do
		rel=${f#"$out"/}
		committed=testdata/recorded/$rel
		case $rel in
		hosts/*) committed=testdata/$rel ;;
		team-vectors.jsonl) committed=projector/agent/testdata/$rel ;;
		esac
		if [ ! -f "$committed" ]; then
			echo "record-check: $rel is new (not committed)"; status=1; continue
		fi
		if ! diff -q <(mask "$f") <(mask "$committed") >/dev/null; then
			echo "record-check: $rel differs from the committed recording:"
			diff <(mask "$committed") <(mask "$f") | cut -c1-300 | head -20 || true
			status=1
		fi
	done < <(find "$out" -type f | sort)
	while IFS= read -r f; do
		rel=${f#testdata/recorded/}
		[ -f "$out/$rel" ] || { echo "record-check: $rel is committed but no longer recorded"; status=1; }
	done < <(find testdata/recorded -type f -name '*.jsonl' | sort)
	[ "$status" = 0 ] && echo "record-check: $(find "$out" -type f | wc -l) files match the committed recordings"
	exit $status
fi
