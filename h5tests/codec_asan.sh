#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# codec_asan.sh - builds the CPU codec and the codec tests with clang's
# AddressSanitizer and UndefinedBehaviorSanitizer in a temporary folder and
# runs them with reduced counts.  Skipped (77) without clang or its
# sanitizer runtimes.  CLANG may name another clang.  The libraries' C files
# (relative to top_srcdir) come from make check: CODEC_ASAN_LIB_SOURCES
# (h5tests/codec.inc), the CPU-only codec and the data generators.
CLANG=${CLANG:-clang}
if [ -z "${CODEC_ASAN_LIB_SOURCES:-}" ]; then
    echo "CODEC_ASAN_LIB_SOURCES is not set: run this test through make check"
    exit 99
fi
if ! command -v "$CLANG" >/dev/null 2>&1; then
    echo "$CLANG not found: skipped"
    exit 77
fi
src=${top_srcdir:-.}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpulz-asan.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
flags="-std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
incs="-I$src/kernels -I$src/tools -I$src/h5tests"
printf 'int main(void) { return 0; }\n' > "$tmp/probe.c"
if ! "$CLANG" $flags "$tmp/probe.c" -o "$tmp/probe" >/dev/null 2>&1 || ! "$tmp/probe"; then
    echo "$CLANG cannot build with -fsanitize=address,undefined here: skipped"
    exit 77
fi

set -e
objs=
# shellcheck disable=SC2086
for f in $CODEC_ASAN_LIB_SOURCES \
         h5tests/codec_refenc.c h5tests/codec_golden_parse.c h5tests/fuzz/fuzz_decompress.c \
         h5tests/codec_refdec.c; do
    o="$tmp/$(printf %s "$f" | tr / _).o"
    "$CLANG" $flags $incs -c "$src/$f" -o "$o"
    objs="$objs $o"
done
for t in codec_roundtrip codec_canonical codec_golden codec_corrupt codec_corpus codec_pool codec_threads codec_v2 \
         codec_golden2 codec_refdec_test codec_env codec_batch codec_ratio_window codec_concurrent; do
    "$CLANG" $flags $incs "$src/h5tests/$t.c" $objs -o "$tmp/$t" -lm -lpthread
done
set +e

ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS top_srcdir
status=0
# codec_pool without its forks under ASan: see the head of codec_pool.c
for cmd in "codec_roundtrip quick" "codec_canonical 600" "codec_golden" "codec_corrupt 300" \
           "codec_corpus" "codec_pool nofork" "codec_threads" "codec_v2" "codec_golden2" \
           "codec_refdec_test 400" "codec_env" "codec_batch" "codec_ratio_window" "codec_concurrent"; do
    echo "== $cmd (ASan, UBSan)"
    # shellcheck disable=SC2086
    "$tmp/"$cmd || { echo "FAIL under sanitizers: $cmd"; status=1; }
done
exit $status
