#!/usr/bin/env bash
# Whole-process timings of the reference workloads W1-W5 (../shared/BENCH.md): builds
# bin/cadrun once (static, as make build does), then runs `bin/cadrun run bench/wN.js -o OUT` as a fresh process RUNS
# times per workload (after one untimed warm-up run) and prints the median, min and max in
# milliseconds, beside the fastest peer figure from BENCH.md. W1-W4 write an SVG; W5 (solids)
# writes a binary STL, or its scene as JSON when the binary (or BASE's) writes no STL.
#
#   bench/run.sh            # every workload, 5 runs each
#   RUNS=11 bench/run.sh w1 # one workload, 11 runs
#   BASE=b536bbc bench/run.sh  # also the binary of that commit, run in turn with this one
#
# With BASE, the commit's tree is built (git archive) into a temporary directory and each round
# runs the base binary, then this one, so that both see the same moments of a shared machine;
# each workload then has two rows, the base's first.
#
# Needs only bash and Go. Wall time is read from bash's $EPOCHREALTIME (no fork per reading);
# without it, from `date +%s%N`, which adds a fork to each measurement.
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
workloads=("$@")
if [ ${#workloads[@]} -eq 0 ]; then
	workloads=(w1 w2 w3 w4 w5)
fi

# Fastest peer per workload in BENCH.md (ms, median of 3 whole-process runs, 2 cores).
declare -A peer=(
	[w1]="230 (plain Node.js)"
	[w2]="121 (OpenSCAD)"
	[w3]="85 (OpenSCAD)"
	[w4]="26 (OpenSCAD)"
	[w5]="about 2280 (manifold-3d: 2.2 s of work, 80 ms to load)"
)

now_us() {
	if [ -n "${EPOCHREALTIME:-}" ]; then
		local t=${EPOCHREALTIME/[.,]/}
		echo "$t"
	else
		echo $(($(date +%s%N) / 1000))
	fi
}

echo "building bin/cadrun" >&2
CGO_ENABLED=0 go build -o bin/cadrun ./cmd/cadrun # as make build does

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

bins=(bin/cadrun)
if [ -n "${BASE:-}" ]; then
	echo "building $BASE" >&2
	mkdir "$out/base"
	git archive "$BASE" | tar -x -C "$out/base"
	# The solids kernel's wasm is fetched by make, never committed: the base gets this tree's
	# (the same package while the lock file pins the same, which is checked).
	wasm=scene/solid/internal/manifold/wasm/manifold.wasm
	lock=scene/solid/internal/manifold/npm/package-lock.json
	if [ -f "$wasm" ] && [ -d "$out/base/$(dirname "$wasm")" ]; then
		if ! cmp -s "$lock" "$out/base/$lock"; then
			echo "$BASE pins another manifold-3d ($lock differs): its binary gets this tree's wasm" >&2
		fi
		cp "$wasm" "$out/base/$wasm"
	fi
	(cd "$out/base" && CGO_ENABLED=0 go build -o "$out/cadrun-base" ./cmd/cadrun)
	bins=("$out/cadrun-base" bin/cadrun)
fi

# The solid workload's output: a binary STL when every binary timed writes one, else the
# scene as JSON (a binary from before STL), so that old and new are timed alike.
solid_ext=stl
echo "drawBox('b', 0, 0, 0, 1, 1, 1)" >"$out/probe.js"
for bin in "${bins[@]}"; do
	if ! "$bin" run "$out/probe.js" -o "$out/probe.stl" >/dev/null 2>&1; then
		solid_ext=json
		echo "$bin writes no STL: W5 writes its scene as JSON" >&2
	fi
done
declare -A ext=([w5]=$solid_ext)

# wrote checks that a run's output is what its extension says: an SVG, a binary STL whose
# size is 84 bytes plus 50 a triangle, or a JSON object.
wrote() {
	local f=$1
	[ -s "$f" ] || return 1
	case $f in
	*.svg) grep -q '<svg' "$f" ;;
	*.stl) [ "$(wc -c <"$f")" -eq $((84 + 50 * $(od -An -tu4 -j80 -N4 "$f"))) ] ;;
	*.json) [ "$(head -c1 "$f")" = "{" ] ;;
	esac
}

# run_once runs one workload and prints its wall time in microseconds; a failed run stops
# the script with cadrun's own message.
run_once() {
	local w=$1 bin=$2 t0 t1
	local f="$out/$w.${ext[$w]:-svg}"
	rm -f "$f"
	t0=$(now_us)
	# Solids run under a longer limit than the default 5 s, which W5 can pass on a busy
	# machine; a limit changes no work.
	local limit=()
	if [ "$w" = w5 ]; then
		limit=(-timeout 60s)
	fi
	if ! "$bin" run "bench/$w.js" -o "$f" "${limit[@]}" 2>"$out/$w.err"; then
		echo "bench/$w.js failed:" >&2
		cat "$out/$w.err" >&2
		exit 1
	fi
	t1=$(now_us)
	if ! wrote "$f"; then
		echo "bench/$w.js wrote no ${f##*.} file" >&2
		exit 1
	fi
	echo $((t1 - t0))
}

printf '%-8s %10s %10s %10s %6s   %s\n' workload median_ms min_ms max_ms runs "fastest peer, ms (BENCH.md)"
for w in "${workloads[@]}"; do
	if [ ! -f "bench/$w.js" ]; then
		echo "no workload bench/$w.js" >&2
		exit 2
	fi
	declare -A times=()
	for bin in "${bins[@]}"; do
		run_once "$w" "$bin" >/dev/null # warm-up: page cache, not counted
	done
	for _ in $(seq "$RUNS"); do
		for bin in "${bins[@]}"; do
			times[$bin]+=" $(run_once "$w" "$bin")"
		done
	done
	for bin in "${bins[@]}"; do
		at=""
		if [ "$bin" != bin/cadrun ]; then
			at="@$BASE"
		fi
		printf '%s\n' ${times[$bin]} | sort -n | awk -v w="$w" -v at="$at" -v peer="${peer[$w]:-}" '
			{ t[NR] = $1 }
			END {
				m = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
				printf "%-8s %10.1f %10.1f %10.1f %6d   %s\n", toupper(w) at, m / 1000, t[1] / 1000, t[NR] / 1000, NR, peer
			}'
	done
	unset times
done
