#!/usr/bin/env bash
# Release archives: one dsh-replay binary per platform (the main package, no
# build tags: everything the README shows), packed with LICENSE and
# README.md into a .tar.gz (a .zip for windows), and checksums.txt (sha256,
# as sha256sum prints it) over all of them.
#
# Reproducible: -trimpath, no VCS stamp (the version comes from VERSION via
# -ldflags), every archive entry with the same mod time (SOURCE_DATE_EPOCH,
# default the commit's time), owner 0:0 and sorted names, gzip without a
# name or time. The same commit and Go toolchain give the same bytes.
#
#   scripts/release.sh [OUTDIR]          (default dist)
#   VERSION=v1.2.3 PLATFORMS="linux/amd64" scripts/release.sh out/
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
out=${1:-dist}
version=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 315532800)}
platforms=${PLATFORMS:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64}
if [ "$platforms" = host ]; then
	platforms="$($GO env GOOS)/$($GO env GOARCH)"
fi
mkdir -p "$out"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
for p in $platforms; do
	os=${p%/*} arch=${p#*/}
	exe=dsh-replay
	[ "$os" = windows ] && exe=dsh-replay.exe
	dir="$stage/$os-$arch"
	mkdir -p "$dir"
	echo "building $os/$arch" >&2
	CGO_ENABLED=0 GOOS=$os GOARCH=$arch $GO build -trimpath -buildvcs=false \
		-ldflags "-s -w -buildid= -X github.com/dsh-replay/dsh-replay/cmd/cmdutil.Version=$version" \
		-o "$dir/$exe" .
	cp LICENSE README.md "$dir/"
	name="dsh-replay_${version#v}_${os}_${arch}"
	ext=tar.gz
	[ "$os" = windows ] && ext=zip
	$GO run scripts/archive.go -mtime "$epoch" -o "$out/$name.$ext" -C "$dir" "$exe" LICENSE README.md
done
$GO run scripts/archive.go -checksums "$out"
