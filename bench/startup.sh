#!/usr/bin/env bash
# Start-up time of the real passlens binary (whole process), for
# BENCHMARKS.md "Start-up". Usage: bench/startup.sh [BINARY...]
# (default: a fresh build of ./cmd/passlens). Needs hyperfine
# (apt-get install -y hyperfine). Prints, per command and binary, the
# minimum, median and mean wall time and the mean user+system CPU time
# (the CPU time is the number that a loaded machine disturbs least).
# (-i: a binary without --version still gets measured; it exits 2.)
set -eu
cd "$(dirname "$0")/.."
if [ $# -eq 0 ]; then
  go build -o /tmp/passlens-startup ./cmd/passlens
  set -- /tmp/passlens-startup
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for bin in "$@"; do
  hyperfine -N -i -w 5 -r "${RUNS:-100}" --export-json "$out/r.json" \
    "$bin --help" "$bin --version" "$bin passes" "$bin samples" \
    "$bin compile samples/add-mul.hlsl" \
    "$bin compile --target spirv -o $out/x.spv samples/add-mul.hlsl" \
    "$bin analyze samples/divergent-loop.pir" >/dev/null
  python3 - "$out/r.json" "$bin" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    cmd = r["command"].replace(sys.argv[2], "passlens").replace(sys.argv[1].rsplit("/", 1)[0] + "/", "")
    t = sorted(r["times"])
    print(f"{cmd:<62} min {t[0]*1e3:6.1f} ms  median {r['median']*1e3:6.1f} ms  mean {r['mean']*1e3:6.1f} ms  cpu {(r['user']+r['system'])*1e3:5.1f} ms")
PY
done
