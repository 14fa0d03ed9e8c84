#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# compute-sanitizer memcheck and racecheck over the GPU codec test on small
# inputs.  Skipped (77) without compute-sanitizer or a usable GPU.
prog=${top_builddir:-.}/h5tests/gpu_codec_test
san=${COMPUTE_SANITIZER:-}
if [ -z "$san" ]; then
    san=$(command -v compute-sanitizer 2>/dev/null)
    [ -n "$san" ] || san=/usr/local/cuda/bin/compute-sanitizer
fi
if [ ! -x "$san" ]; then
    echo "no compute-sanitizer: skipped"
    exit 77
fi
GPULZ_TEST_QUICK=1
export GPULZ_TEST_QUICK
"$prog" >/dev/null 2>&1
rc=$?
if [ $rc -eq 77 ]; then
    echo "no usable GPU: skipped"
    exit 77
fi
status=0
for tool in memcheck racecheck; do
    log=gpu_sanitizer_$tool.log
    # racecheck's tracking of shared memory is far slower: the shorter run
    [ $tool = racecheck ] && GPULZ_TEST_QUICK=2
    if "$san" --tool $tool --error-exitcode 99 --print-limit 20 "$prog" >"$log" 2>&1; then
        echo "$tool: clean ($(grep -c . "$log") lines of log)"
    else
        echo "$tool: FAILED"
        tail -40 "$log"
        status=1
    fi
done
exit $status
