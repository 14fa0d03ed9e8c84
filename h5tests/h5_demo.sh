#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# h5_demo.sh - gpulz-demo (what ./setup.sh and `make demo` show a new user)
# keeps its promises, on its --quick size:
#  - the table: the header, one row per dataset and filter (4 x 4), each with
#    numbers where numbers belong and "verified", the gpulz rows naming the
#    mode (auto: the demo gives the filter no cd_values, so the default) and
#    the backend, and the closing line to quote;
#  - on a machine with a usable GPU, gpulz's chunks are big enough for it:
#    no row says "below the GPU threshold" or "no usable GPU", and every
#    gpulz row says GPU (the GPU runs every mode);
#  - the byte check catches a difference: --inject-mismatch changes one byte
#    of every array read back, and the demo must flag all 16 and fail;
#  - missing data fails loudly (exit 2, naming ferret-datasets), from --data
#    and from GPULZ_DEMO_DATA alike.
# Skips where Debian's ferret-datasets is not installed and GPULZ_DEMO_DATA
# does not point at its files.
DEMO="$top_builddir/gpulz-demo"
GPULZ="$top_builddir/gpulz"
[ -x "$DEMO" ] || { echo "cannot run $DEMO"; exit 99; }
data=${GPULZ_DEMO_DATA:-/usr/share/ferret-vis/data}
out=h5_demo.out err=h5_demo.err
trap 'rm -f $out $err h5_demo_probe.raw h5_demo_probe.gplz' EXIT
fail() { echo "FAIL: $*"; echo "--- stdout"; cat $out; echo "--- stderr"; cat $err; exit 1; }

# missing data: a clear failure, never toy data
"$DEMO" --quick --data /nonexistent/ferret > $out 2> $err
[ $? -eq 2 ] || fail "--data /nonexistent: exit status not 2"
grep -q "ferret-datasets" $err || fail "--data /nonexistent: the message does not name ferret-datasets"
[ -s $out ] && fail "--data /nonexistent: a table on stdout"
GPULZ_DEMO_DATA=/nonexistent/ferret "$DEMO" --quick > $out 2> $err
[ $? -eq 2 ] || fail "GPULZ_DEMO_DATA=/nonexistent: exit status not 2"

if [ ! -f "$data/etopo5.cdf" ] || [ ! -f "$data/levitus_climatology.cdf" ]; then
    echo "no ferret-datasets in $data (apt-get install ferret-datasets): skipped"
    exit 77
fi
export GPULZ_DEMO_DATA="$data"

# the GPU situation, as cli_backend.sh finds it
gpu=no
if [ -x "$GPULZ" ] && "$GPULZ" gen quant 2M -o h5_demo_probe.raw 2>/dev/null &&
   "$GPULZ" compress --backend gpu h5_demo_probe.raw -o h5_demo_probe.gplz 2>/dev/null; then
    gpu=yes
fi
echo "usable GPU: $gpu"

"$DEMO" --quick > $out 2> $err || fail "gpulz-demo --quick: exit status $?"
cat $out

header='^dataset  *type  *shape  *raw MB  *filter  *ratio  *write MB/s  *read MB/s  *check  *backend (write / read)$'
[ "$(grep -c "$header" $out)" -eq 1 ] || fail "not one header line"

datasets="etopo5 etopo5_q1e-3 levitus_temp levitus_temp_q1e-3"
# a row: name, type, shape, raw MB, filter (gpulz's with its mode), ratio,
# two speeds, the check, the backend
num='[0-9][0-9]*\.[0-9][0-9]*'
rows=0
for d in $datasets; do
    for f in 'gpulz ([a-z0-9 ]*)' 'deflate-6' 'shuffle+deflate-6' 'none'; do
        row="^$d  *\(float32\|uint16\)  *[0-9x]*  *$num  *$f  *$num  *$num  *$num  *verified  "
        n=$(grep -c "$row" $out)
        [ "$n" -eq 1 ] || fail "$n rows for $d with $f, not 1 verified one"
        rows=$((rows + 1))
    done
done
[ "$(grep -c '  verified  \|  MISMATCH  ' $out)" -eq $rows ] || fail "rows beside the $rows expected"
grep -q '^etopo5 .* none  *1\.00 ' $out || fail "the unfiltered row's ratio is not 1.00"
where='\(GPU\|CPU ([^)]*)\|GPU [0-9]*, CPU [0-9]* ([^)]*)\)'
grep '^[a-z].*  gpulz (' $out | grep -v "  $where / $where\$" &&
    fail "a gpulz row without its backend for write and read"
[ "$(grep -c '^[a-z].*  gpulz (auto)  ' $out)" -eq 4 ] || fail "not 4 gpulz rows in the default mode, auto"
if [ $gpu = yes ]; then
    grep -q 'below the GPU threshold\|no usable GPU' $out &&
        fail "a usable GPU, yet gpulz stayed on the CPU for a reason the demo must avoid"
    grep '  gpulz (' $out | grep -v '  GPU / GPU$' && fail "a usable GPU, and a gpulz row not on it"
fi

grep -q '^every dataset verified (4 arrays, ' $out || fail "no 'every dataset verified' line"
speed="$num GB/s write, $num GB/s read"
closing="^gpulz (auto, \(GPU\|CPU\|GPU and CPU\)): ratio $num at $speed; deflate-6: ratio $num at $speed; shuffle+deflate-6: ratio $num at $speed$"
[ "$(tail -n 1 $out | grep -c "$closing")" -eq 1 ] || fail "the last line is not the closing line"

# the byte check: one byte changed after every read must fail every row
"$DEMO" --quick --inject-mismatch > $out 2> $err
[ $? -eq 1 ] || fail "--inject-mismatch: exit status not 1"
[ "$(grep -c '  MISMATCH  ' $out)" -eq $rows ] || fail "--inject-mismatch: not $rows MISMATCH rows"
grep -q '  verified  ' $out && fail "--inject-mismatch: a row verified"
[ "$(grep -c 'read back differs from what was written' $err)" -eq $rows ] ||
    fail "--inject-mismatch: not $rows messages on stderr"
grep -q 'did NOT read back as written' $err || fail "--inject-mismatch: no closing failure message"
grep -q 'GB/s' $out && fail "--inject-mismatch: a closing line to quote despite the failures"
echo "gpulz-demo: table as documented, $rows rows verified, and a changed byte caught in each"
