/* SPDX-License-Identifier: BSD-3-Clause */
/* GPU probe: host-memory batches (the direct path's host calls) against device ones, and memcpy bandwidth */
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpulz.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static int cmpd(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return (x>y)-(x<y);}
#define CK(x) do{cudaError_t e=(x); if(e){fprintf(stderr,"%s:%d %s\n",__FILE__,__LINE__,cudaGetErrorString(e));exit(1);}}while(0)
typedef struct {uint8_t*d,*s;size_t n;} cp;
static void*cpy(void*a){cp*c=a;memcpy(c->d,c->s,c->n);return NULL;}
int main(int argc,char**argv){
  size_t total=(size_t)1<<30; uint8_t*h=malloc(total),*back=malloc(total);
  FILE*f=fopen(argv[1],"rb"); if(!f||fread(h,1,total,f)!=total)return 1; fclose(f); memset(back,0,total);
  uint8_t*pin; CK(cudaMallocHost((void**)&pin,total));
  for(int th=1;th<=16;th*=2){ double best=1e9; for(int r=0;r<3;r++){ pthread_t t[16]; cp c[16]; double t0=now();
    for(int k=0;k<th;k++){c[k].d=back+k*(total/th);c[k].s=pin+k*(total/th);c[k].n=total/th;pthread_create(&t[k],0,cpy,&c[k]);}
    for(int k=0;k<th;k++)pthread_join(t[k],0); double dt=now()-t0; if(dt<best)best=dt;}
    printf("memcpy pinned->pageable 1 GiB, %2d threads: %.1f GB/s\n",th,total/best/1e9);}
  cudaFreeHost(pin);
  gpulz_mode mv[]={GPULZ_MODE_LZ,GPULZ_MODE_AUTO}; const char*mn[]={"lz","auto"};
  size_t chunks[]={4u<<20,16u<<20}, batches[]={(size_t)256<<20,(size_t)1<<30};
  for(int ci=0;ci<2;ci++)for(int mi=0;mi<2;mi++)for(int bi=0;bi<2;bi++){
    size_t cs=chunks[ci],batch=batches[bi],n=batch/cs;
    gpulz_params p; gpulz_params_init(&p); p.symbol_size=2; p.mode=mv[mi];
    size_t bound=gpulz_compress_bound(cs,&p);
    uint8_t*comp=malloc(total/cs*bound); memset(comp,0,total/cs*bound);
    const void**src=calloc(n,sizeof*src); void**dst=calloc(n,sizeof*dst); size_t*sl=calloc(n,8),*dc=calloc(n,8),*dl=calloc(total/cs,8),*bl=calloc(n,8),*dd=calloc(n,8); int*st=calloc(n,4);
    double tc[5],td[5];
    for(int r=0;r<6;r++){ double c=0,d=0;
      for(size_t b=0;b<total/batch;b++){
        for(size_t i=0;i<n;i++){src[i]=h+b*batch+i*cs;sl[i]=cs;dst[i]=comp+(b*n+i)*bound;dc[i]=bound;}
        double t0=now(); if(gpulz_compress_batch(n,src,sl,dst,dc,dl+b*n,st,&p,GPULZ_MEMORY_HOST,NULL,NULL,0)){fprintf(stderr,"c %s\n",gpulz_last_error());return 1;} c+=now()-t0;
        for(size_t i=0;i<n;i++){src[i]=comp+(b*n+i)*bound;sl[i]=dl[b*n+i];dst[i]=back+b*batch+i*cs;bl[i]=cs;}
        t0=now(); if(gpulz_decompress_batch(n,src,sl,dst,bl,dd,st,&p,GPULZ_MEMORY_HOST,NULL,NULL,0)){fprintf(stderr,"d %s\n",gpulz_last_error());return 1;} d+=now()-t0;
      }
      if(r){tc[r-1]=c;td[r-1]=d;}
    }
    if(memcmp(h,back,total)){fprintf(stderr,"mismatch\n");return 1;}
    qsort(tc,5,8,cmpd);qsort(td,5,8,cmpd);
    printf("host batch %s chunk %zu MiB batch %zu MiB lanes=%s: comp %.2f decomp %.2f GB/s\n",mn[mi],cs>>20,batch>>20,getenv("GPULZ_GPU_LANES")?getenv("GPULZ_GPU_LANES"):"default",total/tc[2]/1e9,total/td[2]/1e9);
    free(comp);free(src);free(dst);free(sl);free(dc);free(dl);free(bl);free(dd);free(st);
  }
  return 0;
}
