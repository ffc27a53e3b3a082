#!/usr/bin/env bash
# A longer fuzzing campaign with libFuzzer over scenario files, command lines and remembered
# settings (tests/fuzz/fuzz_scenario.cpp), on the sanitizer build (tools/sanitize.sh builds it).
#   bash tools/fuzz.sh [RUNS=1000000] [extra libFuzzer options]
# New inputs go to build-asan/fuzz-corpus; a failing input is written as crash-* here. Copy
# any input worth keeping into tests/fuzz/corpus, where every build runs it as a test.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1000000}
[ $# -gt 0 ] && shift
[ -x build-asan/bin/fuzz_scenario ] || bash tools/sanitize.sh -R fuzz_scenario_corpus
mkdir -p build-asan/fuzz-corpus
export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
exec build-asan/bin/fuzz_scenario -runs="$runs" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
     "$@" build-asan/fuzz-corpus tests/fuzz/corpus
