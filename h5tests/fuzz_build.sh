#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# fuzz_build.sh - the targets `make fuzz` and `make fuzz-h5read` run
# (docs/FORMAT.md section 9) build from this tree as make builds them, with
# clang's libFuzzer, ASan and UBSan, and take their seed corpora (each
# input run once, -runs=0): the commands the docs give keep working between
# fuzzing sessions.  Skipped (77) without clang or its fuzzer runtime.
: "${top_srcdir:?}" "${MAKE:?}"
CLANG=clang
if ! command -v "$CLANG" >/dev/null 2>&1; then
    echo "$CLANG not found: skipped"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpulz-fuzz.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
    >"$tmp/probe.c"
if ! "$CLANG" -fsanitize=fuzzer,address,undefined "$tmp/probe.c" -o "$tmp/probe" >/dev/null 2>&1; then
    echo "$CLANG cannot build with -fsanitize=fuzzer,address,undefined here: skipped"
    exit 77
fi
status=0
for t in fuzz_decompress fuzz_h5read; do
    if ! $MAKE h5tests/fuzz/$t >"$tmp/$t.log" 2>&1; then
        echo "FAIL: make h5tests/fuzz/$t does not build:"
        tail -20 "$tmp/$t.log"
        status=1
    fi
done
[ $status = 0 ] || exit 1
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
export ASAN_OPTIONS top_srcdir
h5tests/fuzz/fuzz_decompress -runs=0 -max_len=8192 "$top_srcdir/h5tests/fuzz/corpus" >"$tmp/run1.log" 2>&1 ||
    { echo "FAIL: fuzz_decompress over its seed corpus:"; tail -20 "$tmp/run1.log"; status=1; }
h5tests/fuzz/fuzz_h5read -runs=0 -max_len=70000 "$top_srcdir/h5tests/fuzz/corpus_h5read" >"$tmp/run2.log" 2>&1 ||
    { echo "FAIL: fuzz_h5read over its seed corpus:"; tail -20 "$tmp/run2.log"; status=1; }
grep -h "Done\|INITED" "$tmp/run1.log" "$tmp/run2.log" | tail -4
exit $status
