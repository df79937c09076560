#!/usr/bin/env bash
# bench/cfg.sh: whole-process timing of passlens's CFG analyses against
# opt-22 on the same large function.
#
# For each shape it writes one function with BLOCKS blocks as LLVM IR
# (deterministic; see benchFunc in compiler/analysis/bench_test.go), then
# alternately runs, RUNS times each, under /usr/bin/time:
#
#   opt-22 -mtriple=amdgcn-- -passes='print<domtree>' -disable-output f.ll
#   PASSLENS_CFG_FILE=f.ll analysis.test -test.run '^TestCFGFile$'
#
# The passlens side is the compiled test binary of compiler/analysis (no
# `go run`): it reads the .ll with the package's small CFG reader, builds the
# tree and prints it in opt's format. Both outputs are compared byte for
# byte. MODE=require times computation without printing instead
# (opt's require<domtree> vs PASSLENS_CFG_PRINT=0); chain and nested are
# only run in that mode, because their printed trees are quadratic in size.
#
# Usage: bench/cfg.sh [shape...]   shapes: reducible irreducible local chain nested
# Env:   BLOCKS (100000) RUNS (5) PASS (domtree|postdomtree|cycles) MODE (print|require|both)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/bench/out/cfg
mkdir -p "$out"
blocks=${BLOCKS:-100000}
runs=${RUNS:-5}
pass=${PASS:-domtree}
mode=${MODE:-both}
shapes=("$@")
[ ${#shapes[@]} -gt 0 ] || shapes=(reducible irreducible local chain nested)

command -v opt-22 >/dev/null || { echo "opt-22 not found" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time not found (apt-get install time)" >&2; exit 1; }

bin=$out/analysis.test
(cd "$root" && go test -c -o "$bin" ./compiler/analysis)

# stats FILE...: "min median" of the numbers in the given one-number files.
stats() { sort -g "$@" | awk '{v[NR]=$1} END {printf "%.3f %.3f", v[1], v[int((NR+1)/2)]}'; }

# run LABEL OUTFILE CMD...: times CMD once; appends wall, user+sys and max RSS
# (KiB) to $out/LABEL.{wall,cpu,rss}; CMD's stderr goes to OUTFILE.
run() {
	local label=$1 outfile=$2
	shift 2
	/usr/bin/time -f '%e %U %S %M' -o "$out/time.tmp" "$@" 2>"$outfile" >/dev/null
	read -r wall user sys rss <"$out/time.tmp"
	echo "$wall" >>"$out/$label.wall"
	echo "$user $sys" | awk '{print $1+$2}' >>"$out/$label.cpu"
	echo "$rss" >>"$out/$label.rss"
}

printf '%-12s %-8s %-9s %22s %22s %10s %s\n' shape mode tool 'wall s (min median)' 'cpu s (min median)' 'max RSS MB' output
for shape in "${shapes[@]}"; do
	ll=$out/$shape-$blocks.ll
	PASSLENS_CFG_WRITE=$ll PASSLENS_CFG_SHAPE=$shape PASSLENS_CFG_BLOCKS=$blocks \
		"$bin" -test.run '^TestCFGFile$' >/dev/null
	modes=(print require)
	case $mode in print) modes=(print) ;; require) modes=(require) ;; esac
	case $shape in chain | nested) modes=(require) ;; esac
	for m in "${modes[@]}"; do
		rm -f "$out"/{opt,passlens}.{wall,cpu,rss}
		for ((i = 0; i < runs; i++)); do
			if [ "$m" = print ]; then
				run opt "$out/opt.txt" opt-22 -mtriple=amdgcn-- "-passes=print<$pass>" -disable-output "$ll"
				run passlens "$out/passlens.txt" env PASSLENS_CFG_FILE="$ll" PASSLENS_CFG_PASSES="$pass" \
					"$bin" -test.run '^TestCFGFile$'
			else
				run opt "$out/opt.txt" opt-22 -mtriple=amdgcn-- "-passes=require<$pass>" -disable-output "$ll"
				run passlens "$out/passlens.txt" env PASSLENS_CFG_FILE="$ll" PASSLENS_CFG_PASSES="$pass" \
					PASSLENS_CFG_PRINT=0 "$bin" -test.run '^TestCFGFile$'
			fi
		done
		same=n/a
		if [ "$m" = print ]; then
			if cmp -s "$out/opt.txt" "$out/passlens.txt"; then
				same="identical ($(wc -c <"$out/opt.txt") bytes)"
			else
				same=DIFFERENT
			fi
		fi
		for tool in opt passlens; do
			rss=$(sort -g "$out/$tool.rss" | tail -1)
			printf '%-12s %-8s %-9s %22s %22s %10d %s\n' "$shape" "$m" "$tool" \
				"$(stats "$out/$tool.wall")" "$(stats "$out/$tool.cpu")" $((rss / 1024)) "$same"
		done
	done
done
