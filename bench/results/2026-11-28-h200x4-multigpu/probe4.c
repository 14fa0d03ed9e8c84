/* SPDX-License-Identifier: BSD-3-Clause */
/* Host batch API alone (no HDF5) over the devices GPULZ_DEVICE lists: probe4 FILE GIB MODE CHUNK_MIB BATCH_MIB */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpulz.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static int cmpd(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return (x>y)-(x<y);}
int main(int argc,char**argv){
  if(argc<6)return 2;
  size_t total=(size_t)atoi(argv[2])<<30; size_t cs=(size_t)atoi(argv[4])<<20, batch=(size_t)atoi(argv[5])<<20;
  if(batch>total)batch=total; size_t n=batch/cs;
  uint8_t*h=malloc(total),*back=malloc(total);
  FILE*f=fopen(argv[1],"rb"); if(!f||fread(h,1,total,f)!=total)return 1; fclose(f); memset(back,0,total);
  gpulz_params p; gpulz_params_init(&p); p.symbol_size=2;
  p.mode=!strcmp(argv[3],"auto")?GPULZ_MODE_AUTO:!strcmp(argv[3],"fast")?GPULZ_MODE_FAST:GPULZ_MODE_LZ;
  size_t bound=gpulz_compress_bound(cs,&p);
  uint8_t*comp=malloc(total/cs*bound); memset(comp,0,total/cs*bound);
  const void**src=calloc(n,sizeof*src); void**dst=calloc(n,sizeof*dst); size_t*sl=calloc(n,8),*dc=calloc(n,8),*dl=calloc(total/cs,8),*bl=calloc(n,8),*dd=calloc(n,8); int*st=calloc(n,4);
  enum{R=4}; double tc[R],td[R];
  for(int r=0;r<=R;r++){ double c=0,d=0;
    for(size_t b=0;b<total/batch;b++){
      for(size_t i=0;i<n;i++){src[i]=h+b*batch+i*cs;sl[i]=cs;dst[i]=comp+(b*n+i)*bound;dc[i]=bound;}
      double t0=now(); if(gpulz_compress_batch(n,src,sl,dst,dc,dl+b*n,st,&p,GPULZ_MEMORY_HOST,NULL,NULL,0)){fprintf(stderr,"c %s\n",gpulz_last_error());return 1;} c+=now()-t0;
      for(size_t i=0;i<n;i++){src[i]=comp+(b*n+i)*bound;sl[i]=dl[b*n+i];dst[i]=back+b*batch+i*cs;bl[i]=cs;}
      t0=now(); if(gpulz_decompress_batch(n,src,sl,dst,bl,dd,st,&p,GPULZ_MEMORY_HOST,NULL,NULL,0)){fprintf(stderr,"d %s\n",gpulz_last_error());return 1;} d+=now()-t0;
    }
    if(r){tc[r-1]=c;td[r-1]=d;}
  }
  if(memcmp(h,back,total)){fprintf(stderr,"mismatch\n");return 1;}
  qsort(tc,R,8,cmpd);qsort(td,R,8,cmpd);
  printf("devices %-8s %-4s chunk %2zu MiB batch %5zu MiB: comp %6.2f decomp %6.2f GB/s\n",getenv("GPULZ_DEVICE")?getenv("GPULZ_DEVICE"):"-",argv[3],cs>>20,batch>>20,total/((tc[R/2-1]+tc[R/2])/2)/1e9,total/((td[R/2-1]+td[R/2])/2)/1e9);
  return 0;
}
