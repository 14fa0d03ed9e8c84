#!/bin/sh
# codec_valgrind.sh - the decoder's corruption test, the golden vectors and
# the corpus replay under valgrind memcheck: an invalid read or write fails
# the test even where it changes no result (a token cut off at the end of
# the chunk, say).  Skipped (77) when configure found no valgrind.
if test -z "$VALGRIND"; then
    echo "valgrind not found by configure: skipped"
    exit 77
fi
b=${top_builddir:-.}
run() {
    echo "== $*"
    # the test programs may be libtool wrappers: let libtool run the real one
    "$b/libtool" --mode=execute $VALGRIND -q --error-exitcode=1 --leak-check=full \
        --errors-for-leak-kinds=definite "$@" || { echo "FAIL under valgrind: $*"; exit 1; }
}
run "$b/h5tests/codec_corrupt" 30
run "$b/h5tests/codec_golden"
run "$b/h5tests/codec_corpus"
exit 0
