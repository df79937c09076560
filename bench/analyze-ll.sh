#!/usr/bin/env bash
# bench/analyze-ll.sh: the product against opt-22 on a 100k-block .ll file,
# whole process, side by side in one run.
#
#   opt-22 -mtriple=amdgcn-- -passes='print<domtree>' -disable-output F.ll
#   passlens analyze --print=domtree F.ll
#
# F.ll is dense-100000.ll, written by TestUniformityWriteBenchLL of
# compiler/analysis (StructuredFunc + DenseValueOptions: a structured
# program of 100,000 blocks and about 450,000 instructions, deterministic).
# passlens is the real binary (go build ./cmd/passlens): its LLVM reader,
# importer and analyses. The two commands alternate, RUNS times each, under
# /usr/bin/time -v; outputs go through md5sum (the tree printout is about
# 1 GB) and must be identical. PASSLENS_MAX_MODULE_SIZE lifts the 4 MiB
# module bound of local commands for the 14 MB file (docs/limits.md).
#
# With only domtree requested, analyze imports F.ll CFG-only (blocks and
# terminators; docs/llvm-bridge.md). For the full import's figure on the
# same command, pass a build from before that change as BEFORE (e.g. main
# at 535a18e): same reader and output, every instruction kept.
#
# Usage: bench/analyze-ll.sh        Env: RUNS (3) BLOCKS (100000: dense-N of
# TestUniformityWriteBenchLL, one of 1000 5000 10000 20000 100000);
# BEFORE=path/to/an/older/passlens adds it as a third tool ("before").
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/bench/out/analyze-ll
mkdir -p "$out"
runs=${RUNS:-3}
blocks=${BLOCKS:-100000}
ll=$out/dense-$blocks.ll

command -v opt-22 >/dev/null || { echo "opt-22 not found" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time not found (apt-get install time)" >&2; exit 1; }

(cd "$root" && go build -o "$out/passlens" ./cmd/passlens && go test -c -o "$out/uniformity.test" ./compiler/analysis/uniformity)
if [ ! -s "$ll" ]; then
	PASSLENS_UNIFORMITY_BENCH_DIR=$out PASSLENS_UNIFORMITY_BENCH_ONLY=dense-$blocks.ll \
		"$out/uniformity.test" -test.run '^TestUniformityWriteBenchLL$' >/dev/null
fi
echo "input: $ll ($(wc -c <"$ll") bytes, $(grep -c '^[a-z0-9_.]*:' "$ll") labelled blocks, $(wc -l <"$ll") lines)"

# field NAME FILE: a value from /usr/bin/time -v output.
field() { grep -F "$1" "$2" | sed 's/.*: //'; }
# secs H:MM:SS.ss or M:SS.ss -> seconds
secs() { echo "$1" | awk -F: '{s=0; for (i=1;i<=NF;i++) s=s*60+$i; printf "%.2f", s}'; }

rm -f "$out"/*.md5
printf '%-9s %3s %8s %8s %8s %10s  %s\n' tool run 'wall s' 'user s' 'sys s' 'max RSS MB' 'output md5'
for ((i = 1; i <= runs; i++)); do
	tools="opt passlens"
	[ -n "${BEFORE:-}" ] && tools="$tools before"
	for tool in $tools; do
		if [ $tool = opt ]; then
			sum=$( { /usr/bin/time -v -o "$out/time.txt" opt-22 -mtriple=amdgcn-- '-passes=print<domtree>' -disable-output "$ll" 2>&1 >/dev/null; } | md5sum | cut -c1-12)
		else
			bin=$out/passlens
			[ $tool = before ] && bin=$BEFORE
			sum=$(PASSLENS_MAX_MODULE_SIZE=64M /usr/bin/time -v -o "$out/time.txt" "$bin" analyze --print=domtree "$ll" | md5sum | cut -c1-12)
		fi
		echo "$sum" >>"$out/$tool.md5"
		printf '%-9s %3d %8s %8s %8s %10d  %s\n' $tool "$i" \
			"$(secs "$(field 'Elapsed (wall clock)' "$out/time.txt")")" \
			"$(field 'User time' "$out/time.txt")" "$(field 'System time' "$out/time.txt")" \
			$(($(field 'Maximum resident set size' "$out/time.txt") / 1024)) "$sum"
	done
done
if [ "$(cat "$out"/*.md5 | sort -u | wc -l)" = 1 ]; then
	echo "outputs: identical"
else
	echo "outputs: DIFFERENT"
fi
rm -f "$out"/*.md5
