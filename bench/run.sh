#!/usr/bin/env bash
# Whole-process timings of the reference workloads W1-W4 (../shared/BENCH.md): builds
# bin/cadrun once (static, as make build does), then runs `bin/cadrun run bench/wN.js -o OUT.svg` as a fresh process RUNS
# times per workload (after one untimed warm-up run) and prints the median, min and max in
# milliseconds, beside the fastest peer figure from BENCH.md.
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
	workloads=(w1 w2 w3 w4)
fi

# Fastest peer per workload in BENCH.md (ms, median of 3 whole-process runs, 2 cores).
declare -A peer=(
	[w1]="230 (plain Node.js)"
	[w2]="121 (OpenSCAD)"
	[w3]="85 (OpenSCAD)"
	[w4]="26 (OpenSCAD)"
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
	(cd "$out/base" && CGO_ENABLED=0 go build -o "$out/cadrun-base" ./cmd/cadrun)
	bins=("$out/cadrun-base" bin/cadrun)
fi

# run_once runs one workload and prints its wall time in microseconds; a failed run stops
# the script with cadrun's own message.
run_once() {
	local w=$1 bin=$2 t0 t1
	t0=$(now_us)
	if ! "$bin" run "bench/$w.js" -o "$out/$w.svg" 2>"$out/$w.err"; then
		echo "bench/$w.js failed:" >&2
		cat "$out/$w.err" >&2
		exit 1
	fi
	t1=$(now_us)
	if [ ! -s "$out/$w.svg" ]; then
		echo "bench/$w.js wrote no SVG" >&2
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
