#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r144: two H200s: direct chunk I/O batches ramped (new) against even batches (base):
# mpi_bench 1 and 2 ranks (direct-own, direct-device, memory files, auto), h5direct_bench one GPU
set -u
O=${OUT:-/tmp/out}; mkdir -p $O; W=/tmp/w; rm -rf $W; mkdir -p $W/sys/pc $W/plugins
for d in .dk/kit/*.deb; do dpkg-deb -x $d $W/sys; done
cat > $W/sys/pc/hdf5-openmpi.pc <<PC
Name: HDF5
Description: Debian's openmpi HDF5
Version: 1.10.8
Requires: ompi
Cflags: -I$W/sys/usr/include/hdf5/openmpi
Libs: -L$W/sys/usr/lib/x86_64-linux-gnu/hdf5/openmpi -lhdf5
PluginDir=$W/plugins
PC
export PKG_CONFIG_PATH=$W/sys/pc LD_LIBRARY_PATH=$W/sys/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for v in base new; do
  ( mkdir -p $W/$v && tar xzf .dk/ab/$v.tar.gz -C $W/$v --strip-components=1 && cd $W/$v &&
    ./configure -q --with-hdf5-pkg=hdf5-openmpi --with-cuda-arch=90 > $O/conf-$v.log 2>&1 &&
    make -j16 bench/mpi_bench bench/h5direct_bench h5tests/h5_direct h5tests/h5_gpu > $O/build-$v.log 2>&1; echo "$v build $?" >> $O/log.txt ) &
done; wait
cd $W/new && make -j16 check TESTS="h5tests/h5_direct h5tests/h5_gpu" check_PROGRAMS="h5tests/h5_direct h5tests/h5_gpu" > $O/check-new.log 2>&1; grep -E "^(PASS|FAIL|SKIP|ERROR):" $O/check-new.log >> $O/log.txt
export GPULZ_BACKEND=gpu GPULZ_DEVICE=local-rank
for rep in 1 2; do for v in base new; do for n in 1 2; do
  cd $W/$v; GPULZ_THREADS=$((32 / n)) timeout 120 mpiexec --oversubscribe --bind-to none -n $n -x GPULZ_DEVICE -x GPULZ_BACKEND -x GPULZ_THREADS -x LD_LIBRARY_PATH \
    bench/mpi_bench --size 1G --mode auto --chunks 4,16 --paths direct-own,direct-device --files memory --repeats 5 --csv $O/mpi-$v-n$n-r$rep.csv > $O/mpi-$v-n$n-r$rep.txt 2>&1
  echo "mpi $v n$n rep$rep rc $?" >> $O/log.txt
done; done; done
for v in base new; do for n in 1 2; do
  cd $W/$v; GPULZ_THREADS=$((32 / n)) timeout 120 mpiexec --oversubscribe --bind-to none -n $n -x GPULZ_DEVICE -x GPULZ_BACKEND -x GPULZ_THREADS -x LD_LIBRARY_PATH \
    bench/mpi_bench --size 4G --mode auto --chunks 4,16 --paths direct-device --files memory --repeats 3 --csv $O/mpi4g-$v-n$n.csv > $O/mpi4g-$v-n$n.txt 2>&1
  echo "mpi4g $v n$n rc $?" >> $O/log.txt
done; done
unset GPULZ_DEVICE
for v in base new; do cd $W/$v; timeout 150 bench/h5direct_bench --size 1G --files memory --chunks 4,16 --mode auto --paths direct-host,direct-device,filter --repeats 3 --csv $O/h5d-$v.csv > $O/h5d-$v.txt 2>&1; echo "h5d $v rc $?" >> $O/log.txt; done
{ cat $O/log.txt; for f in $O/mpi-*.csv $O/mpi4g-*.csv; do echo "== $(basename $f)"; tail -n +2 $f | cut -d, -f1-3,6,10,11,17; done
  for v in base new; do echo "== h5d $v"; sed -n '/^file /,/^$/p' $O/h5d-$v.txt; done; } > $O/summary.txt
cd $O && tar czf res.tgz --exclude=summary.txt *.csv *.txt *.log && rm -f *.csv mpi*.txt h5d*.txt *.log log.txt
