/* SPDX-License-Identifier: BSD-3-Clause */
/* hreg: what registering a caller's pageable buffer costs, and the copies it saves. */
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
#define CK(x) do{cudaError_t e=(x); if(e){printf("%s: %s\n",#x,cudaGetErrorString(e));exit(1);}}while(0)
typedef struct { int dev; char *h; void *d; size_t n; int dir; double gbs; } job;
static void *xfer(void *a){ job *j=a; CK(cudaSetDevice(j->dev)); cudaStream_t s; CK(cudaStreamCreate(&s));
  for(int r=0;r<2;r++){ double t=now();
  CK(cudaMemcpyAsync(j->dir? (void*)j->h: j->d, j->dir? j->d:(void*)j->h, j->n, j->dir?cudaMemcpyDeviceToHost:cudaMemcpyHostToDevice, s));
  CK(cudaStreamSynchronize(s)); j->gbs=j->n/(now()-t)/1e9; } return NULL; }
typedef struct { char *d,*s; size_t n; } mc;
static void *mcp(void *a){ mc *m=a; memcpy(m->d,m->s,m->n); return NULL; }
int main(int argc,char**argv){
  size_t G=(size_t)1<<30; int ng=0; CK(cudaGetDeviceCount(&ng));
  for (int huge=0; huge<2; huge++) {
    char *a=aligned_alloc(2<<20,G), *b=aligned_alloc(2<<20,G);
    if(huge){madvise(a,G,MADV_HUGEPAGE);madvise(b,G,MADV_HUGEPAGE);} else {madvise(a,G,MADV_NOHUGEPAGE);madvise(b,G,MADV_NOHUGEPAGE);}
    memset(a,1,G); memset(b,2,G);
    for(int th=1; th<=16; th*=4){ pthread_t t[16]; mc m[16]; double best=0; for(int r=0;r<3;r++){ double t0=now();
      for(int k=0;k<th;k++){m[k]=(mc){b+k*(G/th),a+k*(G/th),G/th}; pthread_create(&t[k],0,mcp,&m[k]);}
      for(int k=0;k<th;k++)pthread_join(t[k],0); double g=G/(now()-t0)/1e9; if(g>best)best=g;}
      printf("huge=%d memcpy 1 GiB on %d threads: %.1f GB/s\n",huge,th,best); }
    for (size_t n = G/4; n <= G; n *= 4) for(int r=0;r<3;r++){
      double t0=now(); CK(cudaHostRegister(a,n,cudaHostRegisterDefault)); double t1=now(); CK(cudaHostUnregister(a)); double t2=now();
      printf("huge=%d register %zu MiB: %.2f ms (%.1f GB/s), unregister %.2f ms\n",huge,n>>20,(t1-t0)*1e3,n/(t1-t0)/1e9,(t2-t1)*1e3); }
    CK(cudaHostRegister(a,G,cudaHostRegisterDefault));
    void *d[8]; for(int k=0;k<ng&&k<8;k++){CK(cudaSetDevice(k)); CK(cudaMalloc(&d[k],G));}
    for(int dir=0;dir<2;dir++){
      job j={0,a,d[0],G,dir,0}; xfer(&j); printf("huge=%d registered %s 1 GiB one GPU: %.1f GB/s\n",huge,dir?"D2H":"H2D",j.gbs);
      job jp={0,b,d[0],G,dir,0}; xfer(&jp); printf("huge=%d pageable %s 1 GiB one GPU: %.1f GB/s\n",huge,dir?"D2H":"H2D",jp.gbs);
      if(ng>=2){ job J[8]; pthread_t t[8]; for(int k=0;k<ng&&k<8;k++){J[k]=(job){k,a+k*(G/ng),d[k],G/ng,dir,0}; pthread_create(&t[k],0,xfer,&J[k]);}
        double sum=0; for(int k=0;k<ng&&k<8;k++){pthread_join(t[k],0); sum+=J[k].gbs;}
        printf("huge=%d registered %s %d GPUs at once, sum of each's GB/s: %.1f\n",huge,dir?"D2H":"H2D",ng,sum);}
    }
    CK(cudaHostUnregister(a));
    for(int k=0;k<ng&&k<8;k++){CK(cudaSetDevice(k)); CK(cudaFree(d[k]));}
    free(a); free(b);
  }
  return 0;
}
