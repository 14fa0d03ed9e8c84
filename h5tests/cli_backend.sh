#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# gpulz compress/decompress -v say where the work ran and why.  Without a
# usable GPU the reason is "no usable GPU" (a build without CUDA says so for
# every input, small ones included, never "below the GPU threshold"); with
# one, small inputs stay on the CPU "below the GPU threshold".
. "$top_srcdir/h5tests/cli_common.sh"

"$GPULZ" gen quant 1000 -o small.raw || fail "gen"
"$GPULZ" gen quant 2M -o large.raw || fail "gen"

# how the reason of a -v line reads: "..., cpu (no usable GPU)"
reason() {
    sed -n 's/^gpulz: .* bytes, ratio [0-9.]*, \(.*\)$/\1/p' err.log
}

# the GPU situation: not built, built and usable, or built without a device
expect 0 "$GPULZ" version
if grep -q 'CUDA backend not built' out.log; then
    gpu=none
elif "$GPULZ" compress --backend gpu small.raw -o probe.gplz 2>/dev/null; then
    gpu=usable
else
    gpu=unusable
fi
echo "GPU: $gpu"

for f in small large; do
    expect 0 "$GPULZ" compress -v -s 2 "$f.raw" -o "$f.gplz"
    got=$(reason)
    case $gpu/$f in
    usable/small) should="cpu (below the GPU threshold)" ;;
    usable/large) should="gpu (auto, device *" ;;
    unusable/small) should="cpu (*" ;; # CUDA is not started to find out
    *) should="cpu (no usable GPU)" ;;
    esac
    # shellcheck disable=SC2254
    case $got in $should) ;; *) fail "compress -v $f.raw ($gpu GPU): '$got', expected '$should'" ;; esac
    expect 0 "$GPULZ" decompress -v "$f.gplz" -o "$f.back"
    cmp "$f.raw" "$f.back" || fail "$f: round trip differs"
    got=$(reason)
    case $got in $should) ;; *) fail "decompress -v $f.gplz ($gpu GPU): '$got', expected '$should'" ;; esac
done

# --backend cpu is a request, whatever the GPU
expect 0 "$GPULZ" compress -v --backend cpu -f small.raw -o small.gplz
[ "$(reason)" = "cpu (requested)" ] || fail "compress -v --backend cpu: '$(reason)'"
done_ok
