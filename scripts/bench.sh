#!/usr/bin/env bash
# End-to-end throughput table (called by `make bench` after `go test -bench`).
#
# Generates a synthetic session log (default 1 GiB of plaintext; BENCH_MB
# overrides) as plain JSONL and as chained zstd frames into a temporary
# directory, then runs over the same data, side by side:
#   dsh-replay calls --summary   (plain and zstd)
#   dsh-replay verify --jobs 2 and --jobs 1 (every call carries a value)
#   the same two commands over a format 4 log of the same size
#   cat, jq -c ., and Node's JSON.parse per line   (where installed)
# and prints MB/s of plaintext and peak RSS for each.
#
# Environment:
#   BENCH_MB    plaintext size in MiB (default 1024)
#   BENCH_DIR   where to write the logs (default: a new temporary directory,
#               removed afterwards unless BENCH_KEEP=1)
#   BENCH_KEEP  keep the generated logs
#   BENCH_SKIP  space-separated rows to skip (e.g. "jq node")
#   BIN         the dsh-replay binary (default bin/dsh-replay, built if missing)
#   BENCH_RUNS  runs of each dsh-replay row (default 3); the row shows the
#               median and lists every run's wall time
#   NODE        Node for the yardstick rows (default: node on PATH)
#   BENCH_TREE_COPIES  copies of ../shared/fixtures in the many-small-logs
#               tree (default 34: about 6,000 logs, 67 MB of them)
#   BENCH_START_RUNS   paired runs of each start-up row (default 21)
#   BENCH_TREE_PAIRS   paired runs of the tree against Node (default 9)
#   BENCH_PAIRS paired runs of calls --summary and verify --jobs 2 against
#               Node's parse of the big log (default 9)
#   DSH_REPLAY_UPSTREAM  a prepared DSH tree (docs/upstream.md; checked
#               before anything runs): adds whole-command plugin loads
#               (`tools --plugin` of each upstream package that ships a
#               ported tool, its bundle cached)
#
# Then: each big-log row as a ratio to Node in the same run; many small
# logs (verify --jobs 2 over copies of the real fixture logs in
# ../shared/fixtures, skipped when absent, against Node walking the same
# tree and parsing every line); start-up (--version, tools, verify of the
# example log, and the floor: a program linking the same third-party
# packages, whose initialisers alone run; each paired run by run with a
# one-line Go program); the binary's size. BENCH_SKIP also takes tree and startup.
#
# The generator is reusable on its own (e.g. for a verify row):
#   go run ./internal/benchgen/cmd/benchgen -mb 1024 -o FILE [-zstd] [-seed N]
#       [-frame-kb 1024] [-templates 300] [-ports=false] [-format 0|2|3|4]
# It is deterministic per seed and renders result content and meta with the
# registered Go ports (a tool without a port gets plain text and no meta).
set -euo pipefail

cd "$(dirname "$0")/.."
NODE=${NODE:-node}
NODE_VERSION=$("$NODE" --version 2>/dev/null || true)
MB=${BENCH_MB:-1024}
BENCH_RUNS=${BENCH_RUNS:-3}
BIN=${BIN:-bin/dsh-replay}
SKIP=" ${BENCH_SKIP:-} "
UPSTREAM=
if [[ $SKIP != *" plugins "* && -n ${DSH_REPLAY_UPSTREAM:-} ]]; then
  . scripts/upstream.sh
  UPSTREAM=$(upstream_tree dsh) || exit 2
fi
if [[ ! -x $BIN ]]; then
  make build BIN="$BIN" >/dev/null
fi

DIR=${BENCH_DIR:-}
if [[ -z $DIR ]]; then
  DIR=$(mktemp -d "${TMPDIR:-/tmp}/dsh-replay-bench.XXXXXX")
  [[ -n ${BENCH_KEEP:-} ]] || trap 'rm -rf "$DIR"' EXIT
fi
mkdir -p "$DIR"
PLAIN=$DIR/session.jsonl
ZSTD=$DIR/session.jsonl.zstd
V4=$DIR/v4/session.v4.jsonl # the same kind of session in format 4
GEN=$DIR/benchgen
if ! go build -o "$GEN" ./internal/benchgen/cmd/benchgen 2>"$DIR/.build"; then
  echo "note: the tool ports do not build right now; generating plain text results" >&2
  go build -tags noports -o "$GEN" ./internal/benchgen/cmd/benchgen
fi

if [[ ! -s $PLAIN ]]; then
  echo "generating ${MB} MiB synthetic log in $DIR ..." >&2
  "$GEN" -mb "$MB" -o "$PLAIN"
  "$GEN" -mb "$MB" -zstd -o "$ZSTD"
fi
if [[ ! -s $V4 ]]; then
  mkdir -p "$(dirname "$V4")"
  "$GEN" -mb "$MB" -format 4 -o "$V4"
fi
BYTES=$(stat -c %s "$PLAIN")
V4BYTES=$(stat -c %s "$V4")
ZBYTES=$(stat -c %s "$ZSTD")

TIME=/usr/bin/time
have_time=0
if [[ -x $TIME ]] && $TIME -f %M true >/dev/null 2>&1; then have_time=1; fi

# measure NAME INPUT_DESC CMD... : runs CMD RUNS times (RUNS=1 unless set),
# prints one table row for the median wall time (peak RSS: the highest of all
# runs), with every run's wall time at the end: a shared machine's noise
# shows instead of being hidden.
measure() {
  local name=$1 input=$2
  shift 2
  local out=$DIR/.time.$$ wall rss cpu mbs runs=${RUNS:-1} i rows=() walls=""
  for ((i = 0; i < runs; i++)); do
    if [[ $have_time == 1 ]]; then
      if ! $TIME -o "$out" -f '%e %M %U %S' "$@" >/dev/null 2>"$DIR/.stderr"; then
        printf '%-36s %-6s %8s %8s %11s  %s\n' "$name" "$input" "failed" "-" "-" "$(tail -c 200 "$DIR/.stderr" | tr '\n' ' ')"
        return
      fi
      read -r wall rss usr sys < <(tail -1 "$out")
      cpu=$(awk -v u="$usr" -v s="$sys" 'BEGIN{printf "%.2f", u+s}')
    else
      local t0 t1
      t0=$(date +%s.%N)
      "$@" >/dev/null 2>"$DIR/.stderr" || true
      t1=$(date +%s.%N)
      wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", b-a}')
      rss=0 cpu="-"
    fi
    rows+=("$wall $rss $cpu")
    walls+=" $wall"
  done
  read -r wall rss cpu < <(printf '%s\n' "${rows[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p")
  rss=$(printf '%s\n' "${rows[@]}" | awk '$2 > m { m = $2 } END { print m + 0 }') # the highest peak of all runs
  mbs=$(awk -v b="$BYTES" -v w="$wall" 'BEGIN{ if (w <= 0) w = 0.001; printf "%.0f", b/1048576/w }')
  mbcpu=$(awk -v b="$BYTES" -v c="$cpu" 'BEGIN{ if (c+0 <= 0) { print "-"; exit } printf "%.0f", b/1048576/c }')
  local all=""
  [[ $runs -gt 1 ]] && all="  runs:$walls"
  printf '%-36s %-6s %8s %8s %11s %8s %10s%s\n' "$name" "$input" "$mbs" "$wall" "$(awk -v r="$rss" 'BEGIN{printf "%.1f MB", r/1024}')" "$cpu" "$mbcpu" "$all"
}

NODE_SCRIPT=$DIR/parse.js
cat >"$NODE_SCRIPT" <<'EOF'
const fs = require('fs');
const readline = require('readline');
const rl = readline.createInterface({ input: fs.createReadStream(process.argv[2], { highWaterMark: 1 << 20 }), crlfDelay: Infinity });
let n = 0;
rl.on('line', (l) => { JSON.parse(l); n++; });
rl.on('close', () => { process.stdout.write(n + '\n'); });
EOF

echo
printf 'synthetic log: %s MiB plaintext (%d bytes), zstd %d bytes, %s cores\n' "$MB" "$BYTES" "$ZBYTES" "$(nproc 2>/dev/null || echo ?)"
printf 'MB/s: MiB of plaintext per wall-clock second (dsh-replay rows: median of %s runs); MB/cpu-s:\n' "$BENCH_RUNS"
printf 'per second of CPU time (user+sys),\n'
printf 'which is what a busy machine cannot distort. Load average now: %s\n\n' "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?)"
printf '%-36s %-6s %8s %8s %11s %8s %10s\n' "program" "input" "MB/s" "wall s" "peak RSS" "cpu s" "MB/cpu-s"
printf '%-36s %-6s %8s %8s %11s %8s %10s\n' "-------" "-----" "----" "------" "--------" "-----" "--------"
cat "$PLAIN" >/dev/null # warm the page cache
BIG_ROWS=()
big() {
  local row
  row=$(RUNS=$BENCH_RUNS measure "$@")
  echo "$row"
  BIG_ROWS+=("$row")
}
big "dsh-replay calls --summary" plain "$BIN" calls --summary "$PLAIN"
big "dsh-replay calls --summary" zstd "$BIN" calls --summary "$ZSTD"
big "dsh-replay calls --summary --jobs 1" plain "$BIN" calls --summary --jobs 1 "$PLAIN"
big "dsh-replay verify --jobs 2" plain "$BIN" verify --jobs 2 "$PLAIN"
big "dsh-replay verify --jobs 1" plain "$BIN" verify --jobs 1 "$PLAIN"
big "dsh-replay verify --jobs 2" zstd "$BIN" verify --jobs 2 "$ZSTD"
# Format 4 (DSH 0.1.7 on): the stream inside assistant/message, tool-role
# results; the same throughput class as format 0 is the aim.
BYTES=$V4BYTES big "dsh-replay calls --summary (format 4)" plain "$BIN" calls --summary "$V4"
BYTES=$V4BYTES big "dsh-replay verify --jobs 2 (format 4)" plain "$BIN" verify --jobs 2 "$V4"
[[ $SKIP == *" cat "* ]] || measure "cat" plain cat "$PLAIN"
NODE_ROW=""
if [[ $SKIP != *" node "* ]] && command -v "$NODE" >/dev/null; then
  NODE_ROW=$(measure "node $NODE_VERSION JSON.parse per line" plain "$NODE" "$NODE_SCRIPT" "$PLAIN")
  echo "$NODE_ROW"
fi
if [[ $SKIP != *" jq "* ]] && command -v jq >/dev/null; then
  measure "jq -c ." plain jq -c . "$PLAIN"
fi

# ratio WALL_A WALL_B: how many times faster A ran than B.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a <= 0) a = 0.001; printf "%.1f", b / a }'; }
# wall_of ROW: the wall seconds of a table row (the field before peak RSS).
wall_of() { awk '{ for (i = 1; i <= NF; i++) if ($i == "MB") { print $(i - 2); exit } }' <<<"$1"; }
# paired LABEL N NODE_CMD... -- DSH_CMD...: the two commands run in turn N
# times (dsh-replay, Node, dsh-replay, ...); prints the median of the
# per-pair ratios, which a machine whose speed drifts does not skew.
paired() {
  local label=$1 pairs=$2 i t0 t1 t2 rows=() node=()
  shift 2
  while [[ $1 != -- ]]; do
    node+=("$1")
    shift
  done
  shift
  for ((i = 0; i < pairs; i++)); do
    t0=${EPOCHREALTIME/./}
    "$@" >/dev/null 2>&1 || true
    t1=${EPOCHREALTIME/./}
    "${node[@]}" >/dev/null 2>&1 || true
    t2=${EPOCHREALTIME/./}
    rows+=("$((t1 - t0)) $((t2 - t1))")
  done
  printf '%s\n' "${rows[@]}" | awk -v n="$pairs" -v label="$label" '
    { r[NR] = $2 / ($1 > 0 ? $1 : 1) }
    END {
      for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }
      printf "  %spaired over %d runs: %.1fx as fast (median of the per-pair ratios; %.1f-%.1fx)\n", label, n, r[int((NR + 1) / 2)], r[1], r[NR]
    }'
}
if [[ -n $NODE_ROW ]]; then
  node_wall=$(wall_of "$NODE_ROW")
  echo
  echo "times faster than Node's JSON.parse per line in this run (median wall):"
  for row in "${BIG_ROWS[@]}"; do
    printf '  %-44s %sx\n' "${row:0:43}" "$(ratio "$(wall_of "$row")" "$node_wall")"
  done
  # The rows above compare medians taken minutes apart; these pair the runs.
  for args in "calls --summary" "verify --jobs 2"; do
    # shellcheck disable=SC2086 # args is two words on purpose
    paired "$(printf '%-36s plain  ' "dsh-replay $args")" "${BENCH_PAIRS:-9}" "$NODE" "$NODE_SCRIPT" "$PLAIN" -- "$BIN" $args "$PLAIN"
  done
fi

# Many small logs: the real fixture logs copied BENCH_TREE_COPIES times.
FIXTURES=../shared/fixtures
if [[ $SKIP != *" tree "* && -d $FIXTURES ]]; then
  TREE=$DIR/tree
  if [[ ! -d $TREE ]]; then
    for ((c = 1; c <= ${BENCH_TREE_COPIES:-34}; c++)); do
      (cd "$FIXTURES" && find . -name '*.jsonl' -type f) | while read -r f; do
        mkdir -p "$TREE/c$c/$(dirname "$f")"
        cp "$FIXTURES/$f" "$TREE/c$c/$f"
      done
    done
  fi
  cat >"$DIR/walk.js" <<'JS'
const fs = require('fs');
const path = require('path');
let files = 0, lines = 0;
function walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith('.jsonl')) {
      files++;
      for (const l of fs.readFileSync(p, 'utf8').split('\n')) if (l.length) { JSON.parse(l); lines++; }
    }
  }
}
walk(process.argv[2]);
process.stdout.write(files + ' files, ' + lines + ' lines\n');
JS
  BYTES=$(find "$TREE" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
  echo
  printf 'many small logs: %d logs, %d bytes (../shared/fixtures copied %s times)\n\n' "$(find "$TREE" -type f | wc -l)" "$BYTES" "${BENCH_TREE_COPIES:-34}"
  printf '%-36s %-6s %8s %8s %11s %8s %10s\n' "program" "input" "MB/s" "wall s" "peak RSS" "cpu s" "MB/cpu-s"
  printf '%-36s %-6s %8s %8s %11s %8s %10s\n' "-------" "-----" "----" "------" "--------" "-----" "--------"
  find "$TREE" -type f -exec cat {} + >/dev/null # warm the page cache
  tree_row=$(RUNS=$BENCH_RUNS measure "dsh-replay verify --jobs 2 DIR" tree "$BIN" verify --jobs 2 "$TREE")
  echo "$tree_row"
  if [[ $SKIP != *" node "* ]] && command -v "$NODE" >/dev/null; then
    node_tree=$(RUNS=$BENCH_RUNS measure "node $NODE_VERSION walk + parse" tree "$NODE" "$DIR/walk.js" "$TREE")
    echo "$node_tree"
    printf '  verify over the tree: %sx as fast as Node walking and parsing it (medians of the runs above)\n' "$(ratio "$(wall_of "$tree_row")" "$(wall_of "$node_tree")")"
    # The same, run by run in pairs (dsh-replay, Node, dsh-replay, ...):
    # the median of the per-pair ratios, which a drifting machine does not skew.
    paired "" "${BENCH_TREE_PAIRS:-9}" "$NODE" "$DIR/walk.js" "$TREE" -- "$BIN" verify --jobs 2 "$TREE"
  fi
fi

# Start-up: each command paired run by run with a Go binary that prints one
# line (the floor of any Go program's start); the row gives the medians and
# the median of the per-pair ratios, which a drifting machine does not skew.
if [[ $SKIP != *" startup "* ]]; then
  mkdir -p "$DIR/hello"
  printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n' >"$DIR/hello/main.go"
  printf 'module hello\n\ngo 1.21\n' >"$DIR/hello/go.mod"
  # Copied after linking, as make build installs dsh-replay (see the Makefile).
  (cd "$DIR/hello" && CGO_ENABLED=0 go build -o hello.link . && cp hello.link hello.new && mv -f hello.new hello && rm -f hello.link)
  startup() {
    local name=$1 n=${BENCH_START_RUNS:-21} i t0 t1 t2 rows=()
    shift
    for ((i = 0; i < n; i++)); do
      t0=${EPOCHREALTIME/./} # microseconds, without forking a clock
      "$DIR/hello/hello" >/dev/null
      t1=${EPOCHREALTIME/./}
      "$@" >/dev/null 2>&1 || true
      t2=${EPOCHREALTIME/./}
      rows+=("$((t1 - t0)) $((t2 - t1))")
    done
    printf '%s\n' "${rows[@]}" | awk -v name="$name" '
      function median(x, n,   i, j, t) {
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
        return x[int((n + 1) / 2)]
      }
      { h[NR] = $1; a[NR] = $2; r[NR] = $2 / ($1 > 0 ? $1 : 1) }
      END { printf "%-52s %8.1f %8.1f %8.1fx\n", name, median(a, NR) / 1000, median(h, NR) / 1000, median(r, NR) }'
  }
  echo
  printf 'start-up: wall ms, median of %s runs paired with a one-line Go program (target: ratio <= 3x)\n\n' "${BENCH_START_RUNS:-21}"
  printf '%-52s %8s %8s %9s\n' "command" "ms" "hello ms" "ratio"
  startup "dsh-replay --version" "$BIN" --version
  startup "dsh-replay tools" "$BIN" tools
  startup "dsh-replay verify testdata/example/session.jsonl" "$BIN" verify testdata/example/session.jsonl
  # The floor under those rows: a program that links every third-party
  # package dsh-replay links (their initialisers run) and prints one line.
  # Built through an overlay, so nothing is written into the tree.
  mkdir -p "$DIR/floor"
  {
    printf 'package main\n\nimport (\n\t"fmt"\n\n'
    go list -deps . | grep '\.' | grep -v '^github.com/dsh-replay/\|/internal/\|/internal$\|^vendor/' | sed 's/.*/\t_ "&"/'
    printf ')\n\nfunc main() { fmt.Println("hello") }\n'
  } >"$DIR/floor/main.go"
  printf '{"Replace":{"%s/internal/startfloor/main.go":"%s/floor/main.go"}}\n' "$PWD" "$DIR" >"$DIR/floor/overlay.json"
  CGO_ENABLED=0 go build -overlay "$DIR/floor/overlay.json" -o "$DIR/floor/floor.link" ./internal/startfloor
  cp "$DIR/floor/floor.link" "$DIR/floor/floor" && rm -f "$DIR/floor/floor.link"
  startup "its dependencies' initialisers alone (the floor)" "$DIR/floor/floor"
fi

# Plugin loads: `tools --plugin PKG` as a whole command, bundle cached (a
# first run warms the cache), median of BENCH_START_RUNS; the bare `tools`
# row is what the command costs without a plugin. The in-process figures
# (bundle + compile + first projector call) are BenchmarkUpstreamLoad's.
if [[ -n $UPSTREAM ]]; then
  printf '{"plugins":{"tool-todo":{"allowParallelInProgress":true},"tool-fs-search":{"sampleOverCapGlobResults":true},"tool-subagent":{"provider":"spawn"},"plan-mode":{"section":"Plan first."},"tool-memory":{"mutationPolicy":"approval","defaultResultLimit":20,"pinnedContextMaxBytes":4096,"pinnedContextMaxItems":16}}}\n' >"$DIR/plugins.json"
  median_ms() {
    local n=${BENCH_START_RUNS:-21} i t0 t1 xs=()
    for ((i = 0; i < n; i++)); do
      t0=${EPOCHREALTIME/./}
      "$@" >/dev/null 2>&1 || true
      t1=${EPOCHREALTIME/./}
      xs+=("$((t1 - t0))")
    done
    printf '%s\n' "${xs[@]}" | sort -n | awk '{ x[NR] = $1 } END { printf "%.1f", x[int((NR + 1) / 2)] / 1000 }'
  }
  echo
  printf 'plugin loads (%s): wall ms, median of %s runs, bundle cached\n\n' "$(basename "$UPSTREAM")" "${BENCH_START_RUNS:-21}"
  printf '%-40s %8s %8s\n' "tools --plugin" "ms" "load ms"
  bare=$(median_ms "$BIN" tools --config "$DIR/plugins.json")
  printf '%-40s %8s %8s\n' "(no plugin)" "$bare" "-"
  "$BIN" tools --json | sed -n 's/.*"plugin":"\([^"]*\)".*/\1/p' | sort -u | while read -r name; do
    pkg=$(find "$UPSTREAM/packages" -path '*/node_modules' -prune -o -path "*/$name/package.json" -print | head -1)
    pkg=${pkg%/package.json}
    [[ -n $pkg ]] || continue
    if ! "$BIN" tools --config "$DIR/plugins.json" --plugin "$pkg" >/dev/null 2>&1; then
      printf '%-40s %8s %8s\n' "$name" "-" "(not a plugin on its own)"
      continue
    fi
    ms=$(median_ms "$BIN" tools --config "$DIR/plugins.json" --plugin "$pkg")
    printf '%-40s %8s %8s\n' "$name" "$ms" "$(awk -v a="$ms" -v b="$bare" 'BEGIN { printf "%.1f", a - b }')"
  done
fi

echo
printf 'binary: %s, %d bytes\n' "$BIN" "$(stat -c %s "$BIN")"
rm -f "$DIR/.time.$$" "$DIR/.stderr"
