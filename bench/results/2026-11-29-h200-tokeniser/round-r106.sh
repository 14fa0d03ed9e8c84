#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# main (6bfd4b6, c106): the match search's segment per warp swept with gpu_tune_enc_segment (probe5): ncu of
# ratio's tokeniser and format 1's encoder at 1, 4, 8, 16, 256 MB for the policy's segment and 256-1024
START=$(date +%s); R=$PWD; W=/tmp/w106; rm -rf $W; mkdir -p $W/new $W/res
S=$OUT/summary.txt
log() { echo "== $1 $(date -u +%T) ($(( $(date +%s) - START )) s)" >> $S; }
log start; nvidia-smi -L >> $S
( cd $W/new && tar xzf $R/.dev/c106.tar.gz && cd gpulz-* && ./configure -q --with-cuda-arch=90 && make -j16 && gcc -O2 -Ikernels $R/.dev/probe5.c -o probe5 .libs/libgpulz_core.a -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -lpthread -lm -lstdc++ ) > $W/res/build.log 2>&1 || { echo "BUILD FAILED" >> $S; tail -30 $W/res/build.log >> $S; }
log built
cd $W/new/gpulz-*
./gpulz gen quant 256M -o $W/gq.u16
for mb in 1 4 8 16 256; do for seg in policy 256 512 1024; do E=; [ $seg != policy ] && E="PROBE_SEG=$seg"
  ( env $E timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:"lz_kernel|gpulz_encode_kernel" ./probe5 $W/gq.u16 $mb ratio,lz 1 > $W/res/ncu-$seg-$mb.txt 2>&1 )
  echo "ncu $mb MB seg $seg (ratio x2, lz x2):" $(grep -E "gpu__time_duration" $W/res/ncu-$seg-$mb.txt | awk '{print $(NF-1), $NF}' | paste -sd' ') $(grep -c MISMATCH $W/res/ncu-$seg-$mb.txt) >> $S
done; done
log done
