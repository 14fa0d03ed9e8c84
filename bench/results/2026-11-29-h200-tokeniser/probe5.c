/* SPDX-License-Identifier: BSD-3-Clause */
/* device-API compress/decompress of one chunk: wall clock per call, median of R after a warm-up */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpulz.h"
#include "gpu_tune.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec*1e-6;}
static int cmpd(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return (x>y)-(x<y);}
int main(int argc,char**argv){
  if(argc<5){fprintf(stderr,"probe2 FILE MB MODES REPS [S]\n");return 2;}
  FILE*f=fopen(argv[1],"rb"); fseek(f,0,SEEK_END); size_t n=ftell(f); rewind(f);
  size_t chunk=(size_t)atol(argv[2])<<20; if(chunk>n) chunk=n;
  if(getenv("PROBE_APART")) gpu_tune_ck_apart(1);
  if(getenv("PROBE_SEG")) gpu_tune_enc_segment((unsigned)atoi(getenv("PROBE_SEG")));
  int R=atoi(argv[4]); unsigned S=argc>5?atoi(argv[5]):2;
  unsigned char*h=malloc(n); if(fread(h,1,n,f)!=n) return 1; fclose(f);
  void *d_src,*d_dst,*d_back; cudaMalloc(&d_src,chunk); cudaMemcpy(d_src,h,chunk,cudaMemcpyHostToDevice);
  gpulz_params p; gpulz_params_init(&p); p.symbol_size=S;
  size_t cap=gpulz_compress_bound(chunk,&p)*2; cudaMalloc(&d_dst,cap); cudaMalloc(&d_back,chunk);
  unsigned char*back=malloc(chunk);
  char modes[64]; strncpy(modes,argv[3],63); modes[63]=0;
  for(char*name=strtok(modes,",");name;name=strtok(NULL,",")){
    gpulz_mode mode = !strcmp(name,"lz")?GPULZ_MODE_LZ:!strcmp(name,"fast")?GPULZ_MODE_FAST:!strcmp(name,"ratio")?GPULZ_MODE_RATIO:GPULZ_MODE_AUTO;
    p.mode=mode; double tc[64],td[64]; size_t len=0,out=0;
    for(int r=0;r<=R;r++){
      cudaDeviceSynchronize(); double t0=now(); int rc=gpulz_compress_device(d_src,chunk,d_dst,cap,&len,&p,NULL,NULL,0); cudaDeviceSynchronize(); double t1=now();
      if(rc){fprintf(stderr,"compress rc %d %s\n",rc,gpulz_last_error());return 1;}
      rc=gpulz_decompress_device(d_dst,len,d_back,chunk,&out,NULL,NULL,0); cudaDeviceSynchronize(); double t2=now();
      if(rc||out!=chunk){fprintf(stderr,"decompress rc %d\n",rc);return 1;}
      if(r){tc[r-1]=t1-t0; td[r-1]=t2-t1;} }
    cudaMemcpy(back,d_back,chunk,cudaMemcpyDeviceToHost); if(memcmp(back,h,chunk)){fprintf(stderr,"MISMATCH %s\n",name);return 1;}
    qsort(tc,R,8,cmpd); qsort(td,R,8,cmpd);
    printf("%-6s S%u chunk %4zu MB ratio %6.3f comp %8.3f ms (%7.2f GB/s) decomp %8.3f ms (%7.2f GB/s)\n",name,S,chunk>>20,(double)chunk/len,tc[R/2],chunk/tc[R/2]/1e6,td[R/2],chunk/td[R/2]/1e6);
    fflush(stdout);}
  return 0;}
