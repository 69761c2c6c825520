#!/usr/bin/env bash
# Side by side with peers: the reference workloads W1-W5 of BENCH.md run by cadrun, by JSCAD
# (@jscad/modeling, written out by @jscad/svg-serializer), by manifold-3d and by OpenSCAD,
# each as a whole process that writes an SVG (W5, solids: a binary STL), all timed alike: one
# untimed warm-up run, then the median of RUNS runs, spawn to exit. Prints a Markdown table in
# milliseconds with each peer's time as a multiple of cadrun's. W5 is run by cadrun and
# manifold-3d only (JSCAD and OpenSCAD have no script for it: BENCH.md has OpenSCAD at 426 s),
# and by a cadrun that writes no STL yet as its scene in JSON.
#
#   make bench-peers                   # every workload, 5 runs each
#   RUNS=9 bench/peers/run.sh w1 w4    # some workloads, more runs
#
# Installs what it runs: the Node peers pinned in bench/peers/package-lock.json (npm ci into
# bench/peers/node_modules, once; needs the network), and OpenSCAD from Debian when it is
# missing, the script runs as root and apt has it. Without OpenSCAD its column is left out
# with a note saying why. Needs bash, Go, Node.js and npm.
set -euo pipefail

cd "$(dirname "$0")/../.."
RUNS=${RUNS:-5}
workloads=("$@")
if [ ${#workloads[@]} -eq 0 ]; then
	workloads=(w1 w2 w3 w4 w5)
fi
for w in "${workloads[@]}"; do
	if [ ! -f "bench/$w.js" ]; then
		echo "no workload bench/$w.js; the workloads are w1 w2 w3 w4 w5" >&2
		exit 2
	fi
done
if ! [[ $RUNS =~ ^[1-9][0-9]*$ ]]; then
	echo "RUNS must be a whole number of runs >= 1, got '$RUNS'" >&2
	exit 2
fi

# The Node peers, reinstalled only when the lock file changed (as .ci/deps does for .tools).
stamp=bench/peers/node_modules/.cadrun-lock
if ! cmp -s bench/peers/package-lock.json "$stamp" 2>/dev/null; then
	echo "installing the Node peers (bench/peers/package-lock.json)" >&2
	(cd bench/peers && npm ci --no-audit --no-fund --loglevel=error >&2)
	cp bench/peers/package-lock.json "$stamp"
fi

# OpenSCAD from Debian: installed only as root and only when apt offers it.
notes=()
if ! command -v openscad >/dev/null 2>&1; then
	if [ "$(id -u)" -ne 0 ]; then
		notes+=("OpenSCAD is not installed and this is not root, so its column is left out: install it with 'apt-get install openscad' (as root) and run again.")
	elif ! [[ $(apt-cache policy openscad 2>/dev/null) =~ Candidate:\ [^\(] ]]; then
		notes+=("OpenSCAD is not installed and apt has no openscad package here, so its column is left out.")
	else
		echo "installing OpenSCAD (apt-get install -y openscad)" >&2
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq >&2
		apt-get install -y -qq openscad >&2
	fi
fi

echo "building bin/cadrun" >&2
go build -o bin/cadrun ./cmd/cadrun

# W5 writes a binary STL, or the scene as JSON when this cadrun writes no STL yet.
solid_ext=stl
probe=$(mktemp -d)
echo "drawBox('b', 0, 0, 0, 1, 1, 1)" >"$probe/box.js"
if ! bin/cadrun run "$probe/box.js" -o "$probe/box.stl" >/dev/null 2>&1; then
	solid_ext=json
	echo "bin/cadrun writes no STL: its W5 writes the scene as JSON" >&2
fi
rm -rf "$probe"

# Columns: label and the command for workload $1 writing $2. cadrun's solids run under a
# longer limit than the default 5 s, which W5 can pass on a busy machine (it changes no work).
labels=(cadrun)
cmd_cadrun() {
	if [ "$1" = w5 ]; then
		bin/cadrun run "bench/$1.js" -o "$2" -timeout 60s
	else
		bin/cadrun run "bench/$1.js" -o "$2"
	fi
}
version() { node -p "require('./bench/peers/node_modules/$1/package.json').version"; }
labels+=("JSCAD $(version @jscad/modeling)")
cmd_jscad() { node "bench/peers/jscad/$1.js" "$2"; }
has_jscad() { [ -f "bench/peers/jscad/$1.js" ]; }
labels+=("manifold-3d $(version manifold-3d)")
cmd_manifold() { node "bench/peers/manifold/$1.mjs" "$2"; }
has_manifold() { [ -f "bench/peers/manifold/$1.mjs" ]; }
tools=(cadrun jscad manifold)
if command -v openscad >/dev/null 2>&1; then
	v=$(openscad --version 2>&1 | sed -n 's/^OpenSCAD version //p')
	labels+=("OpenSCAD ${v:-(version unknown)}")
	cmd_openscad() { openscad -q -o "$2" "bench/peers/openscad/$1.scad"; }
	has_openscad() { [ -f "bench/peers/openscad/$1.scad" ]; }
	tools+=(openscad)
fi

now_us() {
	if [ -n "${EPOCHREALTIME:-}" ]; then
		echo "${EPOCHREALTIME/[.,]/}"
	else
		echo $(($(date +%s%N) / 1000))
	fi
}

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

has_cadrun() { true; }

# wrote checks that a tool wrote what the extension says: an SVG, a binary STL of 84 bytes
# plus 50 a triangle, or a JSON object.
wrote() {
	local f=$1
	[ -s "$f" ] || return 1
	case $f in
	*.svg) grep -q '<svg' "$f" ;;
	*.stl) [ "$(wc -c <"$f")" -eq $((84 + 50 * $(od -An -tu4 -j80 -N4 "$f"))) ] ;;
	*.json) [ "$(head -c1 "$f")" = "{" ] ;;
	esac
}

# run_once runs one tool on one workload and prints its wall time in microseconds; a failed
# run, or one that writes no SVG (W5: no STL), stops the script with the tool's own output.
run_once() {
	local tool=$1 w=$2 t0 t1 e=svg
	if [ "$w" = w5 ]; then
		e=stl
		if [ "$tool" = cadrun ]; then
			e=$solid_ext
		fi
	fi
	local f="$out/$tool-$w.$e"
	rm -f "$f"
	t0=$(now_us)
	if ! "cmd_$tool" "$w" "$f" >"$out/log" 2>&1; then
		echo "$tool failed on $w:" >&2
		cat "$out/log" >&2
		exit 1
	fi
	t1=$(now_us)
	if ! wrote "$f"; then
		echo "$tool wrote no ${e^^} for $w:" >&2
		cat "$out/log" >&2
		exit 1
	fi
	echo $((t1 - t0))
}

# median_ms runs one tool on one workload RUNS times after a warm-up and prints the median.
median_ms() {
	local tool=$1 w=$2 times=()
	run_once "$tool" "$w" >/dev/null
	for _ in $(seq "$RUNS"); do
		times+=("$(run_once "$tool" "$w")")
	done
	printf '%s\n' "${times[@]}" | sort -n | awk '
		{ t[NR] = $1 }
		END { printf "%.1f\n", ((NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2) / 1000 }'
}

load_start=$(cut -d' ' -f1 /proc/loadavg)
header="| workload |"
rule="|---|"
for l in "${labels[@]}"; do
	header+=" $l |"
	rule+="---|"
done
rows=()
for w in "${workloads[@]}"; do
	row="| ${w^^} |"
	base=""
	for tool in "${tools[@]}"; do
		if ! "has_$tool" "$w"; then
			row+=" – |"
			continue
		fi
		echo "timing $tool on ${w^^}" >&2
		ms=$(median_ms "$tool" "$w")
		if [ -z "$base" ]; then
			base=$ms
			row+=" $ms |"
		else
			row+=" $ms ($(awk -v a="$ms" -v b="$base" 'BEGIN { printf "%.1f", a / b }')x) |"
		fi
	done
	rows+=("$row")
done

echo
echo "Whole processes writing an SVG (W5: a binary STL), median of $RUNS runs after one warm-up, milliseconds; (Nx) is the time as a multiple of cadrun's."
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, one-minute load average $load_start at the start and $(cut -d' ' -f1 /proc/loadavg) at the end."
echo
echo "$header"
echo "$rule"
printf '%s\n' "${rows[@]}"
for n in "${notes[@]}"; do
	echo
	echo "$n"
done
