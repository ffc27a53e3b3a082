#!/usr/bin/env bash
# The sanitizer build: clang with AddressSanitizer + UndefinedBehaviorSanitizer (any undefined
# behaviour fatal) on every target, the fuzz target linked with libFuzzer, and every test run
# under it, including the GUI monkey test. Called by `bash tools/setup.sh test` after the
# ordinary build; run it alone with `bash tools/sanitize.sh` once the packages are installed.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CXX_FLAGS=-O1 \
      -DNAPKIN_SANITIZE=ON -DNAPKIN_FUZZ=ON >/dev/null
cmake --build build-asan -j"$(nproc)"
# A 32 MiB quarantine (default 256) keeps RSS meaningful for the monkey test's growth bound.
export ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1:quarantine_size_mb=32
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# use_tls=0: LeakSanitizer of clang 14 reads glibc 2.36's dynamic TLS vector wrongly ("DTLS 8 at
# 0x17458-0x80001855a", then "Tracer caught signal 11" as it scans that range), which took down
# tst_ui_vectorexport at exit after all of its checks had passed. Without TLS as roots, a block
# only a thread-local holds would be reported as a leak: stricter, not looser.
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0:use_tls=0
cd build-asan
ctest --output-on-failure --timeout 900 "$@"
