#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# recipes.sh - the command-line recipes for gpulz, runnable on any HDF5 file.
#
#   sh recipes.sh IN.h5 [FILTER_ID]      (FILTER_ID default 34791, the provisional ID)
#
# HDF5 finds the plugin in its plugin directory, or where HDF5_PLUGIN_PATH says:
#   export HDF5_PLUGIN_PATH=/usr/local/lib/hdf5/plugins
set -e
in=${1:?usage: sh recipes.sh IN.h5 [FILTER_ID]}
id=${2:-34791}
base=$(basename "$in" .h5)

# 1. Compress every dataset: UD=<id>,<flag>,<count>,<cd_values...>
#    flag 0 = mandatory (fail rather than store uncompressed), 1 = optional.
#    cd_values: version 0, symbol size 0 (from the type), window 0 (128),
#    block 0 (2048 symbols), flags 0: the defaults, mode auto (chunk format 2).
#    Contiguous datasets get chunked as a whole;
#    choose chunks yourself with -l, e.g. -l CHUNK=1048576 or -l /grid:CHUNK=16x256x256
#    (1-16 MiB chunks are best, docs/usage.md).
h5repack -f UD=$id,0,5,0,0,0,0,0 "$in" "$base.gpulz.h5"

# 2. Only some datasets, with explicit parameters (window 255, 4096-symbol blocks,
#    adaptive symbol size), for one dataset:
#    h5repack -f /tpch/l_orderkey:UD=$id,0,5,0,4,255,4096,1 in.h5 out.h5

# 3. See what was stored: filter ID, name, the resolved cd_values, ratio per dataset.
h5dump -pH "$base.gpulz.h5" | grep -E 'DATASET|SIZE|FILTER_ID|PARAMS'
h5ls -v -r "$base.gpulz.h5" | grep -E 'Filter|Storage' | head -20

# 4. Check that nothing changed (exit status 0 and no output means identical).
h5diff "$in" "$base.gpulz.h5" && echo "h5diff: identical"

# 5. Paste what h5dump shows: PARAMS { 2 4 128 2048 0 4194304 3 } becomes
#    UD=$id,0,7,2,4,128,2048,0,4194304,3 (the sixth value, the chunk size in
#    bytes, is recomputed for the new layout; the seventh is the mode, 3 auto,
#    the default).  Mode lz (chunk format 1, which gpulz 0.1 reads):
#    UD=$id,0,5,1,4,128,2048,0 (a 1 first and no mode: lz), or
#    gpulz h5repack-args --mode lz; docs/usage.md section 2 has the rule.

# 6. Back to uncompressed (readable without the plugin).
h5repack -f NONE "$base.gpulz.h5" "$base.plain.h5"

# 7. Error details when something goes wrong (plugin not found, bad parameters):
#    h5dump --enable-error-stack -d /dataset file.h5
#    h5repack --enable-error-stack ...

# 8. netCDF-4: nccopy applies the same filter to named variables (chunked as needed):
#    nccopy -F "temp,$id,0,0,0,0,0" in.nc out.nc
#    nccopy -F "*,$id,0,0,0,0,0" in.nc out.nc          (every variable)
#    ncdump -s -h out.nc | grep _Filter               (shows "$id,2,4,128,2048,0,<chunk bytes>,3")
#    In CDL (ncgen):  temp:_Filter = "$id,0,0,0,0,0" ;
#    In C:  nc_def_var_filter(ncid, varid, $id, 5, (unsigned[]){0, 0, 0, 0, 0});
