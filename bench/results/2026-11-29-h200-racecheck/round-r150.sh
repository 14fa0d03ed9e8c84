#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r150: gpu_codec_test at GPULZ_TEST_QUICK=2 (the racecheck run's inputs) and 1, without the sanitizer, on c150
START=$(date +%s); R=$PWD; W=/tmp/w150; rm -rf $W; mkdir -p $W/new
S=$OUT/summary.txt
( cd $W/new && tar xzf $R/.dk/c150.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j16 libgpulz.la && make -j16 h5tests/gpu_codec_test ) > $OUT/build.log 2>&1 || echo "BUILD FAILED" >> $S
echo "built $(( $(date +%s) - START )) s" >> $S
cd $W/new/gpulz-*
for q in 2 1; do GPULZ_TEST_QUICK=$q timeout 40 ./h5tests/gpu_codec_test > $OUT/gct$q.log 2>&1; echo "gpu_codec_test QUICK=$q: exit $?" >> $S; grep -h "checksum trials\|FAIL\|PASS" $OUT/gct$q.log | tail -3 >> $S; done
echo "done $(( $(date +%s) - START )) s" >> $S
