/* SPDX-License-Identifier: BSD-3-Clause */
/* HDF5 direct chunk writes and reads into one memory file, rewritten in place after a warm-up */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int argc,char**argv){
  size_t nch=atoi(argv[1]), clen=atoi(argv[2]); hsize_t chunk=(hsize_t)atoi(argv[3])<<19; /* MiB of uint16 */
  hsize_t dims=nch*chunk;
  char*buf=malloc(clen*nch); memset(buf,1,clen*nch);
  hid_t fapl=H5Pcreate(H5P_FILE_ACCESS); H5Pset_fapl_core(fapl,256<<20,0);
  hid_t f=H5Fcreate("x.h5",H5F_ACC_TRUNC,H5P_DEFAULT,fapl);
  hid_t sp=H5Screate_simple(1,&dims,NULL), dc=H5Pcreate(H5P_DATASET_CREATE); H5Pset_chunk(dc,1,&chunk);
  hid_t d=H5Dcreate2(f,"d",H5T_NATIVE_UINT16,sp,H5P_DEFAULT,dc,H5P_DEFAULT);
  for(int pass=0;pass<4;pass++){
    double t0=now();
    for(size_t i=0;i<nch;i++){hsize_t off=i*chunk; if(H5Dwrite_chunk(d,H5P_DEFAULT,0,&off,clen,buf+i*clen)<0)return 1;}
    H5Fflush(f,H5F_SCOPE_LOCAL);
    double tw=now()-t0; t0=now();
    for(size_t i=0;i<nch;i++){hsize_t off=i*chunk; uint32_t fm; if(H5Dread_chunk(d,H5P_DEFAULT,&off,&fm,buf+i*clen)<0)return 1;}
    double tr=now()-t0;
    printf("pass %d: %zu chunks of %zu B stored: write %.2f GB/s stored (%.1f us/chunk), read %.2f GB/s stored (%.1f us/chunk); raw equiv %.1f / %.1f GB/s\n",pass,nch,clen,nch*clen/tw/1e9,tw/nch*1e6,nch*clen/tr/1e9,tr/nch*1e6,nch*chunk*2/tw/1e9,nch*chunk*2/tr/1e9);
  }
  return 0;
}
