#!/usr/bin/env bash
# The steps of the GitHub Action (action.yml), one subcommand each, so they
# can be run and tested outside GitHub:
#
#   action.sh resolve   version, platform and install directory -> $GITHUB_OUTPUT
#   action.sh install   download, check against checksums.txt, unpack (or
#                       go install); the directory -> $GITHUB_PATH
#   action.sh verify    dsh-replay verify --format github with JUnit, NDJSON
#                       and HTML reports; exits with verify's exit code
#
# Inputs come as INPUT_* variables (INPUT_VERSION, INPUT_VERSION_FILE,
# INPUT_INSTALL_MODE, INPUT_PATHS, INPUT_ARGS, INPUT_REPORT_DIR), GitHub's
# own as GITHUB_* / RUNNER_*. DSH_REPLAY_DOWNLOAD_URL and DSH_REPLAY_API_URL
# replace github.com and api.github.com (a mirror, or a test's server).
set -euo pipefail

repo=${DSH_REPLAY_REPO:-dsh-replay/dsh-replay}
download=${DSH_REPLAY_DOWNLOAD_URL:-https://github.com/$repo/releases/download}
api=${DSH_REPLAY_API_URL:-https://api.github.com}

die() { echo "::error title=dsh-replay action::$*" >&2; exit 1; }
output() { echo "$1=$2" >>"${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"; }
fetch() { # URL FILE
	curl -fsSL --retry 3 ${GITHUB_TOKEN:+-H "Authorization: Bearer $GITHUB_TOKEN"} -o "$2" "$1" || die "could not download $1"
}

platform() {
	local os arch
	case "${RUNNER_OS:-$(uname -s)}" in
	Linux) os=linux ;;
	macOS | Darwin) os=darwin ;;
	Windows | MINGW* | MSYS* | CYGWIN*) os=windows ;;
	*) die "unsupported runner OS ${RUNNER_OS:-$(uname -s)}" ;;
	esac
	case "${RUNNER_ARCH:-$(uname -m)}" in
	X64 | x86_64 | amd64) arch=amd64 ;;
	ARM64 | aarch64 | arm64) arch=arm64 ;;
	*) die "unsupported runner architecture ${RUNNER_ARCH:-$(uname -m)}" ;;
	esac
	echo "$os $arch"
}

resolve() {
	local version=${INPUT_VERSION:-latest} mode=${INPUT_INSTALL_MODE:-binary}
	if [ -n "${INPUT_VERSION_FILE:-}" ]; then
		[ -f "$INPUT_VERSION_FILE" ] || die "version-file $INPUT_VERSION_FILE: no such file"
		version=$(grep -v '^[[:space:]]*\(#\|$\)' "$INPUT_VERSION_FILE" | head -n1 | tr -d '[:space:]')
		[ -n "$version" ] || die "version-file $INPUT_VERSION_FILE names no version"
	fi
	case "$mode" in binary | go-install) ;; *) die "install-mode must be binary or go-install, not $mode" ;; esac
	if [ "$version" = latest ]; then
		local json
		json=$(curl -fsSL --retry 3 ${GITHUB_TOKEN:+-H "Authorization: Bearer $GITHUB_TOKEN"} "$api/repos/$repo/releases/latest") ||
			die "could not ask $api which release is the latest"
		version=$(printf '%s' "$json" | sed -n 's/.*"tag_name"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p' | head -n1)
		[ -n "$version" ] || die "$api named no latest release"
	fi
	case "$version" in v*) ;; *) version=v$version ;; esac
	read -r os arch < <(platform)
	local dir="${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:?RUNNER_TEMP is not set}}/dsh-replay/$version/$os-$arch-$mode"
	output version "$version"
	output dir "$dir"
	output cache-key "dsh-replay-$version-$os-$arch-$mode"
	echo "dsh-replay $version for $os/$arch ($mode) in $dir"
}

sha256() {
	if command -v sha256sum >/dev/null; then sha256sum "$1" | cut -d' ' -f1; else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

install() {
	local version=${VERSION:?} dir=${DIR:?} mode=${INPUT_INSTALL_MODE:-binary}
	read -r os arch < <(platform)
	local exe=dsh-replay
	[ "$os" = windows ] && exe=dsh-replay.exe
	if [ -x "$dir/$exe" ]; then
		echo "dsh-replay $version from the cache"
	elif [ "$mode" = go-install ]; then
		mkdir -p "$dir"
		GOBIN="$dir" go install "github.com/$repo@$version" || die "go install github.com/$repo@$version failed"
	else
		local ext=tar.gz
		[ "$os" = windows ] && ext=zip
		local name="dsh-replay_${version#v}_${os}_${arch}.$ext"
		local tmp
		tmp=$(mktemp -d "${RUNNER_TEMP:-/tmp}/dsh-replay.XXXXXX")
		fetch "$download/$version/checksums.txt" "$tmp/checksums.txt"
		fetch "$download/$version/$name" "$tmp/$name"
		local want got
		want=$(awk -v n="$name" '$2 == n { print $1 }' "$tmp/checksums.txt")
		[ -n "$want" ] || die "checksums.txt of $version does not list $name"
		got=$(sha256 "$tmp/$name")
		[ "$got" = "$want" ] || die "$name: sha256 $got, but checksums.txt says $want; not installed"
		mkdir -p "$dir"
		if [ "$ext" = zip ]; then unzip -qo "$tmp/$name" -d "$dir"; else tar -xzf "$tmp/$name" -C "$dir"; fi
		rm -rf "$tmp"
		echo "dsh-replay $version: $name checked against checksums.txt"
	fi
	[ -x "$dir/$exe" ] || die "$dir/$exe is missing after the install"
	echo "$dir" >>"${GITHUB_PATH:?GITHUB_PATH is not set}"
	output path "$dir/$exe"
}

verify() {
	local out=${INPUT_REPORT_DIR:-${RUNNER_TEMP:?RUNNER_TEMP is not set}/dsh-replay-report}
	mkdir -p "$out"
	local -a paths args
	read -r -d '' -a paths <<<"${INPUT_PATHS:-.}" || true
	read -r -d '' -a args <<<"${INPUT_ARGS:-}" || true
	output junit "$out/junit.xml"
	output ndjson "$out/report.ndjson"
	output html "$out/report.html"
	local code=0
	dsh-replay verify --format github \
		--report "junit=$out/junit.xml" --report "json=$out/report.ndjson" --report "html=$out/report.html" \
		${args[@]+"${args[@]}"} -- "${paths[@]}" || code=$?
	output exit-code "$code"
	return "$code"
}

case "${1:-}" in
resolve | install | verify) "$1" ;;
*) die "usage: action.sh resolve|install|verify" ;;
esac
