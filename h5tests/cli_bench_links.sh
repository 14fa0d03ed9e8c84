#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# gpulz bench FILE.h5[:/path] through links (h5_mkfile --links): a dataset
# under two hard links, a soft link and a group cycle is benched once, under
# the path h5repack knows it by (its first path in the file, by name), and
# the h5repack arguments printed give it the filter; a path asked for that
# names it otherwise says what it was benched as; what an external link
# reaches is skipped, naming the other file and path, with no arguments;
# an external link to a group of the file itself is no other file.  A path
# longer than h5repack's -f takes (255 bytes) gets no h5repack arguments.
# Without h5repack and h5dump the repacking is not checked and the test
# ends as skipped (77) after the rest passed.
. "$top_srcdir/h5tests/cli_common.sh"
"$top_builddir/h5tests/h5_mkfile" --links links.h5 other.h5 || exit 99

use_test_plugins
untested=
[ -n "$H5REPACK" ] && [ -n "$H5DUMP" ] || untested="h5repack or h5dump not found"

# rows of out.log: "dataset type shape chunk filter" of each, in a file
figures=' +([0-9.]+ +[0-9.]+ +[0-9.]+|- +- +-  \(.*\))$'
rows() {
    grep -E "^/[^ ]+ +[a-z0-9]+ +[0-9x]+ +[0-9x]+\\*? +.*$figures" out.log |
        sed -E "s/$figures//" >"$1"
}

# once DATASET...: the rows name exactly these datasets, each with the same
# filters and none twice
once() {
    rows rows.txt
    [ -s rows.txt ] || fail "no rows: $(cat out.log)"
    dup=$(sort rows.txt | uniq -d)
    [ -z "$dup" ] || fail "benched twice: $dup; all: $(cat out.log)"
    got=$(cut -d' ' -f1 rows.txt | sort -u | tr '\n' ' ')
    want=$(printf '%s\n' "$@" | sort -u | tr '\n' ' ')
    [ "$got" = "$want" ] || fail "datasets benched: '$got', expected '$want': $(cat out.log)"
    n=$(grep -c "^$1 " rows.txt)
    for ds in "$@"; do
        [ "$(grep -c "^$ds " rows.txt)" = "$n" ] || fail "$ds: not $n rows: $(cat out.log)"
    done
}

# repacked OUT DATASET...: each dataset of OUT (written by h5repack) has a filter
repacked() {
    out=$1
    shift
    for ds in "$@"; do
        "$H5DUMP" -pH -d "$ds" "$out" | grep -Eq 'FILTER_ID|COMPRESSION|PREPROCESSING' ||
            fail "h5repack as printed left $ds without a filter: $("$H5DUMP" -pH -d "$ds" "$out")"
    done
}

# best DATASET...: the best block names exactly these, each once, and its
# h5repack command names no other path; run as printed, it filters each
best() {
    sed -n '/^# best trade-off/,/^h5repack /p' out.log | sed '1d;$d' | cut -d' ' -f1 |
        sort >best.txt
    [ "$(tr '\n' ' ' <best.txt)" = "$(printf '%s\n' "$@" | sort | tr '\n' ' ')" ] ||
        fail "best lines for '$(tr '\n' ' ' <best.txt)', expected '$*': $(cat out.log)"
    cmd=$(grep '^h5repack ' out.log)
    [ -n "$cmd" ] || fail "no h5repack command: $(cat out.log)"
    printf '%s\n' "$cmd" | grep -oE -- '-[fl] [^ :]+:' | sed 's/^-[fl] //; s/:$//' | sort -u >named
    while read -r p; do
        grep -qx -- "$p" best.txt || fail "the h5repack command names $p: $cmd"
    done <named
    [ -z "$untested" ] || return 0
    rm -f links-repacked.h5
    eval "set -- ${cmd#h5repack }"
    "$H5REPACK" "$@" || fail "$cmd"
    repacked links-repacked.h5 $(cat best.txt)
}

# The whole file: /data (also /grp/copy, /soft, /grp/loop/copy) and the
# dataset made as /grp/field (also /grp/near, /sgrp/field), as /a_first, its
# first path by name: once each, under h5repack's paths; the external links
# skipped, naming the file.
expect 0 "$GPULZ" bench links.h5 -r 1 -l 1 -s 1
[ -s err.log ] && fail "stderr: $(cat err.log)"
once /a_first /data
grep -q '^# skipped /ext: in another file, [^ ]*other\.h5:/target ' out.log ||
    fail "/ext not skipped as in other.h5:/target: $(cat out.log)"
grep -q '^# skipped /extgrp: in another file, [^ ]*other\.h5:/ ' out.log ||
    fail "/extgrp not skipped as in other.h5:/: $(cat out.log)"
grep -Eq '^# (skipped )?/(soft|sgrp|dangling|grp|selfgrp)' out.log &&
    fail "a link reported: $(cat out.log)"
best /a_first /data

# Paths through links: soft links to a dataset and a group, a cycle, one
# dataset named three ways, external links at the end and on the way.
expect 0 "$GPULZ" bench links.h5:/soft links.h5:/grp/loop/field links.h5:/sgrp links.h5:/grp/copy \
    links.h5:/ext links.h5:/extgrp/target links.h5:/grp/near -r 1 -l 1 -s 1
once /a_first /data
for note in '/soft: benched as /data' '/grp/loop/field: benched as /a_first' \
    '/grp/copy: benched as /data' '/grp/near: benched as /a_first'; do
    grep -q "^# $note, the same dataset" out.log || fail "no note '$note': $(cat out.log)"
done
grep -q '^# skipped /ext: in another file, [^ ]*other\.h5:/target ' out.log ||
    fail "/ext: $(cat out.log)"
grep -q '^# skipped /extgrp/target: in another file, [^ ]*other\.h5:/target ' out.log ||
    fail "/extgrp/target: $(cat out.log)"
best /a_first /data

# one path in the cycle: a group, its datasets under h5repack's paths
expect 0 "$GPULZ" bench links.h5:/grp/loop -r 1 -l 1 -s 1
once /a_first /data
best /a_first /data

# an external link to this file's /grp: the same datasets, in this file
expect 0 "$GPULZ" bench links.h5:/selfgrp links.h5:/selfgrp/copy -r 1 -l 1 -s 1
[ -s err.log ] && fail "stderr: $(cat err.log)"
once /a_first /data
grep -q '^# /selfgrp/copy: benched as /data, the same dataset' out.log ||
    fail "no note for /selfgrp/copy: $(cat out.log)"
grep -q '^# skipped' out.log && fail "skipped in this file: $(cat out.log)"
best /a_first /data

# paths of 255 and 256 bytes: h5repack's -f copies a path into 256 bytes, so
# the longer one is described, not named (nor does the bench crash on it)
"$top_builddir/h5tests/h5_mkfile" --deep deep.h5 || exit 99
expect 0 "$GPULZ" bench deep.h5 -r 1 -l 1 -s 1
[ -s err.log ] && fail "stderr: $(cat err.log)"
p255=$(grep -oE '^/[^ ]*/d255_x+ ' out.log | head -n 1 | tr -d ' ')
p256=$(grep -oE '^/[^ ]*/d256_x+ ' out.log | head -n 1 | tr -d ' ')
[ ${#p255} = 255 ] && [ ${#p256} = 256 ] || fail "rows of deep.h5: $(cat out.log)"
sed -n '/^# best trade-off/,$p' out.log >tail.log
grep -q "^$p255 .*-f $p255:" tail.log || fail "no h5repack arguments for $p255: $(cat tail.log)"
grep -q "^$p256 .*h5repack cannot name this dataset" tail.log ||
    fail "$p256 not said to be unnamed: $(cat tail.log)"
cmd=$(grep '^h5repack ' tail.log)
case $cmd in *"$p256"*) fail "the h5repack command names $p256: $cmd" ;; esac
# a newline in a name: shown as \n, no line of its own, not given to h5repack
grep -q '^FAKE LINE' out.log && fail "a name's newline started a line: $(cat out.log)"
grep -q '^/evil\\nFAKE LINE ' out.log || fail "no row of /evil\\nFAKE LINE: $(cat out.log)"
grep -q '^/evil\\nFAKE LINE .*h5repack cannot name this dataset' tail.log ||
    fail "/evil\\nFAKE LINE given to h5repack: $(cat tail.log)"
# and an error that names such a path stays one line
expect 3 "$GPULZ" bench "deep.h5:/no
such" -r 1
[ "$(wc -l <err.log)" = 1 ] && grep -q 'no dataset or group /no\\nsuch$' err.log ||
    fail "the error on a path with a newline: $(cat err.log)"
if [ -z "$untested" ]; then
    eval "set -- ${cmd#h5repack }"
    "$H5REPACK" "$@" || fail "$cmd"
    repacked deep-repacked.h5 "$p255"
fi

# CSV: the rows name h5repack's path; the note and the skip on stderr
expect 0 "$GPULZ" bench links.h5:/soft links.h5:/ext -r 1 -l 1 -s 1 --csv -q
[ "$(grep -c '^links\.h5,' out.log)" = "$(grep -c '^links\.h5,/data,' out.log)" ] ||
    fail "CSV rows other than /data: $(cat out.log)"
grep -q '^links\.h5,/data,' out.log || fail "CSV: no /data rows: $(cat out.log)"
grep -q '^gpulz: bench: links\.h5:/soft: benched as /data, ' err.log ||
    fail "CSV note: $(cat err.log)"
grep -q '^gpulz: bench: links\.h5:/ext: skipped: in another file, [^ ]*other\.h5:/target ' \
    err.log || fail "CSV skip: $(cat err.log)"
if [ -z "$untested" ]; then
    grep '^links\.h5,' out.log | sed 's/.*,"\(-f [^"]*\)",[^,]*$/\1/' >args
    while read -r args; do
        rm -f one.h5
        eval "set -- $args"
        "$H5REPACK" "$@" links.h5 one.h5 || fail "h5repack $args refused"
        repacked one.h5 /data
    done <args
fi

# An external link to a file that is not there: skipped, naming it, and so
# is a path through one; a soft link naming nothing is no dataset
mv other.h5 gone.h5 || exit 99
expect 0 "$GPULZ" bench links.h5:/ext -r 1
grep -q '^# skipped /ext: an external link to other\.h5:/target, in another file ' out.log ||
    fail "/ext to a missing file: $(cat out.log)"
grep -q '^h5repack ' out.log && fail "an h5repack command for another file: $(cat out.log)"
# a path through such a link: skipped alike, naming the link's file
expect 0 "$GPULZ" bench links.h5:/extgrp/target -r 1
grep -q '^# skipped /extgrp/target: an external link to other\.h5:/, in another file ' out.log ||
    fail "/extgrp/target through a link to a missing file: $(cat out.log)"
expect 0 "$GPULZ" bench links.h5 -r 1 -l 1 -s 1
once /a_first /data
grep -q '^# skipped /extgrp: an external link to other\.h5:/, in another file ' out.log ||
    fail "/extgrp to a missing file: $(cat out.log)"
expect 3 "$GPULZ" bench links.h5:/dangling

if [ -n "$untested" ]; then
    echo "SKIP: the printed h5repack arguments were not run ($untested)"
    exit 77
fi
done_ok
