#!/usr/bin/env bash
# Packs recorder/ as the npm package dsh-replay-recorder into OUTDIR and
# prints the tarball's path. npm pack runs the package's prepack script
# (TypeScript via npx into dist/); the version is dsh-replay's (VERSION,
# default git describe) without its leading v, 0.0.0-dev when it is not a
# release version. Works on a copy: the clone is left as it was.
#
#   scripts/recorder-pack.sh OUTDIR
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:?usage: recorder-pack.sh OUTDIR}" && cd "$1" && pwd)
version=${VERSION:-$(git -C "$root" describe --tags --always --dirty 2>/dev/null || true)}
version=${version#v}
if ! [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
	version=0.0.0-dev
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/recorder"
cp "$root/LICENSE" "$work/"
cp -R "$root/recorder/src" "$root/recorder/package.json" "$root/recorder/tsconfig.build.json" "$root/recorder/README.md" "$work/recorder/"
cd "$work/recorder"
npm pkg set version="$version" >/dev/null
name=$(npm pack --silent --pack-destination "$out" | tail -n 1)
echo "$out/$name"
