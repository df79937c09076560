#!/usr/bin/env bash
# bench/hlsl50k.sh: a generated ~50,000-line HLSL compute shader through the
# whole passlens compiler (frontend, default pipeline with the verifier after
# every pass, back end) side by side with glslangValidator on the same file.
#
# Steps: build bench/hlslgen's command and passlens once (no `go run` in
# the timings); generate the shader (deterministic: LINES, SEED); check
# each target on a small shader of the same generator first (a target that
# cannot compile it is reported and skipped at full size); then RUNS rounds,
# each running glslangValidator and then passlens for every target under
# /usr/bin/time (GNU time: `apt-get install time`). passlens runs with
# --time-passes; the script prints median wall, CPU (user+sys) and max RSS
# per tool and the median time of every passlens phase.
#
#   glslangValidator -V -D -e main -S comp --target-env vulkan1.1 -o g.spv gen.hlsl
#   passlens compile --time-passes --target T [--emit bin] -o p.out gen.hlsl
#
# Usage: bench/hlsl50k.sh
# Env:   LINES (50000) SEED (1) RUNS (5) TARGETS ("spirv dxil sm3") OUT (output directory)
#        GLSLANG (1: also time glslangValidator; 0: skip it)
# Output: bench/out/hlsl50k/ (the shader, outputs, raw timings, summary.txt)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/bench/out/hlsl50k}
mkdir -p "$out"
lines=${LINES:-50000}
seed=${SEED:-1}
runs=${RUNS:-5}
targets=${TARGETS:-spirv dxil sm3}
with_glslang=${GLSLANG:-1}

[ -x /usr/bin/time ] || { echo "/usr/bin/time not found (apt-get install time)" >&2; exit 1; }
command -v glslangValidator >/dev/null || { echo "glslangValidator not found (apt-get install glslang-tools)" >&2; exit 1; }

(cd "$root" && go build -o "$out/hlslgen" ./bench/hlslgen/cmd/hlslgen && go build -o "$out/passlens" ./cmd/passlens)
src=$out/gen-$lines-$seed.hlsl
"$out/hlslgen" -lines "$lines" -seed "$seed" -o "$src"
small=$out/gen-small.hlsl
"$out/hlslgen" -lines 600 -seed "$seed" -o "$small" 2>/dev/null

glslang_cmd=(glslangValidator -V -D -e main -S comp --target-env vulkan1.1)

# passlens_args T: the compile flags for target T (binary SPIR-V; the
# assembly text for the others).
passlens_args() {
	case $1 in
	spirv) echo "--target spirv --emit bin" ;;
	*) echo "--target $1" ;;
	esac
}

{
	echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/Mem:/ {print $2}') GB RAM"
	echo "go: $(go version | cut -d' ' -f3), glslang: $(glslangValidator --version | head -1)"
	echo "shader: $src ($(wc -l <"$src") lines, $(wc -c <"$src") bytes)"
	echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out/machine.txt"

# Preflight on the small shader: which targets compile it at all.
ok_targets=()
for t in $targets; do
	# shellcheck disable=SC2046
	if ! msg=$("$out/passlens" compile $(passlens_args "$t") -o "$out/small.$t" "$small" 2>&1); then
		echo "target $t: cannot compile the generated shader (600-line version), skipped at full size:"
		echo "$msg" | head -3 | cut -c1-240 | sed 's/^/    /'
	fi
done | tee "$out/preflight.txt"
for t in $targets; do
	grep -q "^target $t:" "$out/preflight.txt" || ok_targets+=("$t")
done

# timed LABEL CMD...: one run under /usr/bin/time; appends "wall cpu rssKB"
# to $out/LABEL.times; CMD's stderr goes to $out/LABEL.stderr.N.
timed() {
	local label=$1
	shift
	local n
	n=1
	[ -f "$out/$label.times" ] && n=$(($(wc -l <"$out/$label.times") + 1))
	if ! /usr/bin/time -f '%e %U %S %M' -o "$out/time.tmp" "$@" 2>"$out/$label.stderr.$n" >/dev/null; then
		echo "$label failed (run $n):" >&2
		grep -v '^Command exited' "$out/$label.stderr.$n" | head -5 | cut -c1-240 >&2
	fi
	tail -1 "$out/time.tmp" | awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' >>"$out/$label.times"
}

rm -f "$out"/*.times "$out"/*.stderr.*
for ((r = 1; r <= runs; r++)); do
	echo "round $r/$runs (load average $(cut -d' ' -f1-3 /proc/loadavg))"
	if [ "$with_glslang" = 1 ]; then
		timed glslang "${glslang_cmd[@]}" -o "$out/glslang.spv" "$src"
	fi
	for t in "${ok_targets[@]}"; do
		# shellcheck disable=SC2046
		timed "passlens-$t" "$out/passlens" compile --time-passes $(passlens_args "$t") -o "$out/passlens.$t" "$src"
	done
done

# median COLUMN FILE: the median of a column.
median() { awk -v c="$1" '{print $c}' "$2" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

{
	echo
	echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo
	echo "whole process, median of $runs runs (min..max wall):"
	printf '%-16s %10s %12s %12s %14s\n' tool 'wall s' 'user+sys s' 'max RSS MiB' 'wall min..max'
	for f in "$out"/*.times; do
		label=$(basename "$f" .times)
		printf '%-16s %10s %12s %12.0f %14s\n' "$label" "$(median 1 "$f")" "$(median 2 "$f")" \
			"$(median 3 "$f" | awk '{print $1 / 1024}')" "$(sort -g "$f" | awk 'NR==1 {a=$1} {b=$1} END {print a ".." b}')"
	done
	for t in "${ok_targets[@]}"; do
		echo
		echo "passlens --target $t: median time per phase over $runs runs (ms; verify = verifier after the pass)"
		# Rows of --time-passes: time % verify allocs allocMB phase...
		cat "$out/passlens-$t".stderr.* | awk '
			function ms(s) { if (s ~ /ms$/) return substr(s, 1, length(s) - 2) + 0; if (s ~ /s$/) return substr(s, 1, length(s) - 1) * 1000; return 0 }
			$1 ~ /^[0-9.]+m?s$/ && $2 ~ /%$/ && NF >= 6 {
				name = $6; for (i = 7; i <= NF; i++) name = name " " $i
				if (!(name in seen)) { seen[name] = 1; order[++n] = name }
				k = ++cnt[name]; t[name, k] = ms($1); v[name, k] = ms($3); al[name] = $4; mbs[name] = $5
			}
			function med(a, name, c,   i, j, x, tmp) {
				for (i = 1; i <= c; i++) tmp[i] = a[name, i]
				for (i = 2; i <= c; i++) { x = tmp[i]; for (j = i - 1; j >= 1 && tmp[j] > x; j--) tmp[j + 1] = tmp[j]; tmp[j + 1] = x }
				return tmp[int((c + 1) / 2)]
			}
			END {
				printf "%-34s %10s %10s %12s %10s\n", "phase", "time ms", "verify ms", "allocs", "alloc MB"
				for (i = 1; i <= n; i++) { p = order[i]; printf "%-34s %10.1f %10.1f %12s %10s\n", p, med(t, p, cnt[p]), med(v, p, cnt[p]), al[p], mbs[p] }
			}'
	done
} | tee "$out/summary.txt"
