/* SPDX-License-Identifier: BSD-3-Clause */
/* dev-only: R calls of compress and decompress on one chunk; marks before the last pair */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpulz.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec*1e-3;}
int main(int argc,char**argv){
  FILE*f=fopen(argv[1],"rb"); size_t chunk=(size_t)atol(argv[2])<<20; const char*mode=argv[3]; int R=atoi(argv[4]);
  unsigned char*h=malloc(chunk); if(fread(h,1,chunk,f)!=chunk) return 1; fclose(f);
  void *d_src,*d_dst,*d_back; cudaMalloc(&d_src,chunk); cudaMemcpy(d_src,h,chunk,cudaMemcpyHostToDevice);
  gpulz_params p; gpulz_params_init(&p); p.symbol_size=2; p.mode=!strcmp(mode,"fast")?GPULZ_MODE_FAST:GPULZ_MODE_AUTO;
  size_t cap=gpulz_compress_bound(chunk,&p); cudaMalloc(&d_dst,cap); cudaMalloc(&d_back,chunk);
  size_t len=0,out=0;
  for(int r=0;r<R;r++){
    cudaDeviceSynchronize(); double t0=now();
    if(gpulz_compress_device(d_src,chunk,d_dst,cap,&len,&p,NULL,NULL,0)) return 1;
    double t1=now();
    if(gpulz_decompress_device(d_dst,len,d_back,chunk,&out,NULL,NULL,0)) return 1;
    double t2=now();
    if(r==R-1) printf("MARK %.1f %.1f %.1f\n",t0,t1,t2);
  }
  return 0;}
