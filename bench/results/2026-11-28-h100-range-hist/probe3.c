/* SPDX-License-Identifier: BSD-3-Clause */
/* host-API (pageable buffers, backend gpu) compress/decompress of one chunk,
 * as the filter calls it: wall clock per call, median of R after a warm-up */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpulz.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec*1e-6;}
static int cmpd(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return (x>y)-(x<y);}
int main(int argc,char**argv){
  if(argc<5){fprintf(stderr,"probe3 FILE KB MODES REPS [S] [backend gpu|cpu]\n");return 2;}
  FILE*f=fopen(argv[1],"rb"); fseek(f,0,SEEK_END); size_t n=ftell(f); rewind(f);
  size_t chunk=(size_t)atol(argv[2])<<10; if(chunk>n) chunk=n;
  int R=atoi(argv[4]); unsigned S=argc>5?atoi(argv[5]):2;
  unsigned char*h=malloc(n); if(fread(h,1,n,f)!=n) return 1; fclose(f);
  gpulz_params p; gpulz_params_init(&p); p.symbol_size=S;
  p.backend = argc>6 && !strcmp(argv[6],"cpu") ? GPULZ_BACKEND_CPU : GPULZ_BACKEND_GPU;
  size_t cap=gpulz_compress_bound(chunk,&p)*2; unsigned char*dst=malloc(cap),*back=malloc(chunk);
  char modes[64]; strncpy(modes,argv[3],63); modes[63]=0;
  for(char*name=strtok(modes,",");name;name=strtok(NULL,",")){
    gpulz_mode mode = !strcmp(name,"lz")?GPULZ_MODE_LZ:!strcmp(name,"fast")?GPULZ_MODE_FAST:!strcmp(name,"ratio")?GPULZ_MODE_RATIO:GPULZ_MODE_AUTO;
    p.mode=mode; double tc[256],td[256]; size_t len=0,out=0; if(R>256)R=256;
    for(int r=0;r<=R;r++){
      double t0=now(); int rc=gpulz_compress(h,chunk,dst,cap,&len,&p); double t1=now();
      if(rc){fprintf(stderr,"compress rc %d %s\n",rc,gpulz_last_error());return 1;}
      rc=gpulz_decompress(dst,len,back,chunk,&out,&p); double t2=now();
      if(rc||out!=chunk){fprintf(stderr,"decompress rc %d %s\n",rc,gpulz_last_error());return 1;}
      if(r){tc[r-1]=t1-t0; td[r-1]=t2-t1;} }
    if(memcmp(back,h,chunk)){fprintf(stderr,"MISMATCH %s\n",name);return 1;}
    qsort(tc,R,8,cmpd); qsort(td,R,8,cmpd);
    printf("%-6s S%u chunk %7zu KB ratio %6.3f comp %8.3f ms (%6.2f GB/s) decomp %8.3f ms (%6.2f GB/s)\n",name,S,chunk>>10,(double)chunk/len,tc[R/2],chunk/tc[R/2]/1e6,td[R/2],chunk/td[R/2]/1e6);
    fflush(stdout);}
  return 0;}
