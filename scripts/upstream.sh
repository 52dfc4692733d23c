# Sourced by the scripts that run upstream's code: finds the prepared
# upstream trees the environment names and checks, by their files, that
# they are ready. Nothing here installs or builds upstream; how to prepare
# a tree by hand is in docs/upstream.md.
#
#   DSH_REPLAY_UPSTREAM         a prepared DSH tree (deepseek-harness at b150a551b8)
#   DSH_REPLAY_UPSTREAM_LASMEX  a prepared LasmeX tree (LasmeX at bdc153371d)

# upstream_var HOST: the variable naming HOST's tree.
upstream_var() {
	case $1 in
	dsh) echo DSH_REPLAY_UPSTREAM ;;
	lasmex) echo DSH_REPLAY_UPSTREAM_LASMEX ;;
	*) echo "upstream: no host $1 (dsh or lasmex)" >&2; return 2 ;;
	esac
}

# upstream_tree HOST [built]: prints HOST's prepared tree, or says on stderr
# what is missing and returns 2. With "built", the host libraries must be
# built too (a CLI boot needs them).
upstream_tree() {
	local host=$1 need=${2:-} var dir root want commit
	var=$(upstream_var "$host") || return 2
	dir=${!var:-}
	case $host in
	dsh) want=@deepseek-ai/dsh-root commit=b150a551b8d465e31e418e1b2eaf5e79bbb7d28e ;;
	lasmex) want=lasmex-root commit=bdc153371dfe9dcd2917760f79c7c057ebbfb1fa ;;
	esac
	if [ -z "$dir" ]; then
		echo "$var is not set: it names a prepared $host tree (commit $commit, workspace installed${need:+, host libraries built}); see docs/upstream.md" >&2
		return 2
	fi
	if [ ! -f "$dir/package.json" ] || [ ! -d "$dir/packages" ]; then
		echo "$var=$dir: not an upstream tree (no package.json or packages/); see docs/upstream.md" >&2
		return 2
	fi
	root=$(sed -n 's/^  "name": "\([^"]*\)".*/\1/p' "$dir/package.json" | head -n 1)
	if [ "$root" != "$want" ]; then
		echo "$var=$dir: its package.json names \"$root\", not $host's workspace root \"$want\"" >&2
		return 2
	fi
	if [ ! -f "$dir/node_modules/tsx/package.json" ]; then
		echo "$var=$dir: the workspace is not installed (no node_modules/tsx); see docs/upstream.md" >&2
		return 2
	fi
	if [ "$need" = built ] && [ ! -f "$dir/packages/goal/goal/lib/typert.host.js" ]; then
		echo "$var=$dir: the host libraries are not built (no packages/goal/goal/lib/typert.host.js), which a $host CLI boot needs; see docs/upstream.md" >&2
		return 2
	fi
	(cd "$dir" && pwd)
}

# upstream_node: checks that the node first on PATH is one upstream
# accepts (>= 22.19), or says so and returns 2.
upstream_node() {
	local v
	v=$(node --version 2>/dev/null) || { echo "no node on PATH: upstream needs Node >= 22.19 first on PATH; see docs/upstream.md" >&2; return 2; }
	if ! printf '%s\n' "$v" | awk -F'[v.]' '{ exit !($2 > 22 || ($2 == 22 && $3 >= 19)) }'; then
		echo "node on PATH is $v: upstream needs Node >= 22.19 first on PATH; see docs/upstream.md" >&2
		return 2
	fi
}
