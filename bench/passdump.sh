#!/usr/bin/env bash
# bench/passdump.sh: opening a large LLVM pass log (a generated 500 MB
# -print-after-all log in the shape clang -O2 prints for a big module:
# bench/dumpgen) with the real passlens binary, whole process.
#
#   1. passlens dump LOG --time-steps   (RUNS times, under GNU time)
#      index time, the first frame's step (compose + split the last step),
#      step latency over 200 steps spread over the log, wall and peak RSS;
#   2. the explorer in tmux: time from launch until the first frame (the
#      log's first part, drawn while the rest is indexed) and until the
#      whole log's last step shows (polling every 5-10 ms), then 100 steps
#      backwards, Home, End, diffs; peak RSS of the explorer (VmHWM).
#
# Usage: bench/passdump.sh
# Env:   SIZE (500M) RUNS (3) OUT (output directory, default bench/out/passdump)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/bench/out/passdump}
size=${SIZE:-500M}
runs=${RUNS:-3}
mkdir -p "$out"
cd "$root"
go build -o "$out/dumpgen" ./bench/dumpgen/cmd
go build -o "$out/passlens" ./cmd/passlens
log=$out/big.log
if [ ! -s "$log" ] || [ "$(cat "$out/size" 2>/dev/null)" != "$size" ]; then
  "$out/dumpgen" -size "$size" > "$log"
  echo "$size" > "$out/size"
fi
bytes=$(stat -c %s "$log")
echo "log: $log, $((bytes / 1048576)) MB; load average: $(cut -d" " -f1-3 /proc/loadavg) on $(nproc) cores" | tee "$out/summary.txt"
cat "$log" > /dev/null # warm the page cache: every run reads it from memory

for r in $(seq 1 "$runs"); do
  /usr/bin/time -f "wall %e s, cpu user %U s + sys %S s, peak RSS %M KB" -o "$out/time.$r" \
    "$out/passlens" dump "$log" --time-steps 2> "$out/steps.$r"
  { echo "--- passlens dump --time-steps, run $r"; cat "$out/steps.$r" "$out/time.$r"; } | tee -a "$out/summary.txt"
done

if command -v tmux > /dev/null; then
  sock=passlens-bench-$$
  tm() { tmux -L "$sock" "$@"; }
  trap 'tm kill-server 2>/dev/null || true' EXIT
  # Count the steps first: indexing the log in another process while the
  # explorer starts would take the CPU the first frame is measured on.
  steps=$("$out/passlens" dump "$log" --steps | wc -l)
  last=$((steps - 1))
  t0=$(date +%s%N)
  tm new-session -d -s b -x 120 -y 40 "exec env NO_COLOR=1 XDG_CONFIG_HOME=/nonexistent $out/passlens $log"
  pid=$(tm list-panes -t b -F '#{pane_pid}')
  # First frame: the first screen showing a step (the log's first part,
  # drawn while the rest is indexed); then the whole log (its last step).
  until tm capture-pane -p -t b 2>/dev/null | grep -q "step [0-9]*/[0-9]*"; do
    sleep 0.005
    if [ $(( ($(date +%s%N) - t0) / 1000000 )) -gt 60000 ]; then echo "no first frame in 60 s"; exit 1; fi
  done
  tf=$(date +%s%N)
  shown=$(tm capture-pane -p -t b | grep -o "step [0-9]*/[0-9]*" | head -1)
  until tm capture-pane -p -t b 2>/dev/null | grep -qF "step $last/$last"; do
    sleep 0.01
    if [ $(( ($(date +%s%N) - t0) / 1000000 )) -gt 60000 ]; then echo "whole log not shown in 60 s"; exit 1; fi
  done
  t1=$(date +%s%N)
  echo "--- explorer in tmux: first frame after $(( (tf - t0) / 1000000 )) ms ($shown), whole log after $(( (t1 - t0) / 1000000 )) ms" | tee -a "$out/summary.txt"
  for _ in $(seq 1 100); do tm send-keys -t b Left; done
  until tm capture-pane -p -t b | grep -qF "step $((last - 100))/$last"; do sleep 0.01; done
  t2=$(date +%s%N)
  echo "100 steps (100 key presses through tmux, drawn): $(( (t2 - t1) / 1000000 )) ms" | tee -a "$out/summary.txt"
  tm send-keys -t b 2 Home End 1
  sleep 2
  echo "explorer peak RSS: $(grep VmHWM /proc/"$pid"/status | awk '{print $2, $3}')" | tee -a "$out/summary.txt"
  tm send-keys -t b q
fi
