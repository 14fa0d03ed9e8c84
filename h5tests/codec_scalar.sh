#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# codec_scalar.sh - the format 2 tests again with the entropy decoder's
# vector rounds turned off (GPULZ_CPU_SIMD=0), so that the scalar rounds,
# which every host without AVX2 runs, are held to the same bytes and the
# same errors on a host that has it.
b=${top_builddir:-.}
GPULZ_CPU_SIMD=0
export GPULZ_CPU_SIMD
for t in codec_golden2 codec_refdec_test codec_v2 codec_stages codec_corrupt; do
    echo "== $t"
    "$b/h5tests/$t" || { echo "FAIL with GPULZ_CPU_SIMD=0: $t"; exit 1; }
done
exit 0
