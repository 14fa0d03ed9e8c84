#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# codec_valgrind.sh - the decoder's corruption test, the golden vectors, the
# corpus replay and the thread pool under valgrind memcheck: an invalid read
# or write fails the test even where it changes no result (a token cut off
# at the end of the chunk, say).  Skipped (77) when configure found no
# valgrind.
if test -z "$VALGRIND"; then
    echo "valgrind not found by configure: skipped"
    exit 77
fi
b=${top_builddir:-.}
run() {
    echo "== $*"
    # the test programs may be libtool wrappers: let libtool run the real one.
    # Only definite leaks are shown, as only they fail: the thread pool's
    # threads live until exit, and glibc's record of each one's thread-local
    # storage counts as possibly lost.
    "$b/libtool" --mode=execute $VALGRIND -q --error-exitcode=1 --leak-check=full \
        --errors-for-leak-kinds=definite --show-leak-kinds=definite "$@" ||
        { echo "FAIL under valgrind: $*"; exit 1; }
}
run "$b/h5tests/codec_corrupt" 30
run "$b/h5tests/codec_golden"
run "$b/h5tests/codec_corpus"
run "$b/h5tests/codec_pool" valgrind
exit 0
