/* SPDX-License-Identifier: BSD-3-Clause */
/* host-API compress/decompress of one chunk (the HDF5 filter's path): wall clock per call, median of R after a warm-up */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpulz.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec*1e-6;}
static int cmpd(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return (x>y)-(x<y);}
int main(int argc,char**argv){
  if(argc<5){fprintf(stderr,"probe4 FILE MB MODES REPS\n");return 2;}
  FILE*f=fopen(argv[1],"rb"); fseek(f,0,SEEK_END); size_t n=ftell(f); rewind(f);
  size_t chunk=(size_t)atol(argv[2])<<20; if(chunk>n) chunk=n;
  int R=atoi(argv[4]);
  unsigned char*h=malloc(chunk); if(fread(h,1,chunk,f)!=chunk) return 1; fclose(f);
  gpulz_params p; gpulz_params_init(&p); p.symbol_size=2; p.backend=GPULZ_BACKEND_GPU;
  size_t cap=gpulz_compress_bound(chunk,&p); unsigned char*c=malloc(cap),*back=malloc(chunk);
  char modes[64]; strncpy(modes,argv[3],63); modes[63]=0;
  for(char*name=strtok(modes,",");name;name=strtok(NULL,",")){
    p.mode = !strcmp(name,"lz")?GPULZ_MODE_LZ:!strcmp(name,"fast")?GPULZ_MODE_FAST:!strcmp(name,"ratio")?GPULZ_MODE_RATIO:GPULZ_MODE_AUTO;
    double tc[256],td[256]; size_t len=0,out=0;
    for(int r=0;r<=R;r++){
      double t0=now(); int rc=gpulz_compress(h,chunk,c,cap,&len,&p); double t1=now();
      if(rc){fprintf(stderr,"compress rc %d %s\n",rc,gpulz_last_error());return 1;}
      rc=gpulz_decompress(c,len,back,chunk,&out,&p); double t2=now();
      if(rc||out!=chunk||memcmp(back,h,chunk)){fprintf(stderr,"decompress rc %d\n",rc);return 1;}
      if(r){tc[r-1]=t1-t0; td[r-1]=t2-t1;} }
    qsort(tc,R,8,cmpd); qsort(td,R,8,cmpd);
    printf("host %-5s chunk %4zu MB ratio %6.3f comp %8.3f ms (%6.2f GB/s) decomp %8.3f ms (%6.2f GB/s)\n",name,chunk>>20,(double)chunk/len,tc[R/2],chunk/tc[R/2]/1e6,td[R/2],chunk/td[R/2]/1e6);
    fflush(stdout);}
  return 0;}
