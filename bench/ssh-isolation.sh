#!/usr/bin/env bash
# The SSH isolation load test: one session's key->frame latency and compile
# time alone and while another session compiles a 4 MiB module. Prints the
# medians and ratios (the test fails above 2x). Results go to BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
PASSLENS_LOADTEST=1 PASSLENS_ISOLATION_LOG=1 go test ./tui/serve -run '^TestHeavyCompileIsolation$' -count=1 -v | grep -v '^=== '
