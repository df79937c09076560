#!/usr/bin/env bash
# The SSH isolation load test: one session's key->frame latency and compile
# time alone and while another session compiles a 4 MiB module. Prints
# p50/p90/p99/max and their ratios (the test fails when p50 or p90 is over
# 2x) and where the slow keys fell. PASSLENS_ISOLATION_INPROCESS=1 measures
# the server with heavy work in process (before the compile worker).
# Results go to BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)  cpu pressure: $(head -1 /proc/pressure/cpu 2>/dev/null)"
PASSLENS_LOADTEST=1 PASSLENS_ISOLATION_LOG=1 go test ./tui/serve -run '^TestHeavyCompileIsolation$' -count=1 -v | grep -v '^=== '
