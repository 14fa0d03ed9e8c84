/* SPDX-License-Identifier: BSD-3-Clause */
/* GPU probe: batch codec throughput on device buffers, and copy speeds */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpulz.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static int cmpd(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return (x>y)-(x<y);}
#define CK(x) do{cudaError_t e=(x); if(e){fprintf(stderr,"%s:%d %s\n",__FILE__,__LINE__,cudaGetErrorString(e));exit(1);}}while(0)
int main(int argc,char**argv){
  size_t total=(size_t)1<<30; uint8_t*h=malloc(total);
  FILE*f=fopen(argv[1],"rb"); if(!f||fread(h,1,total,f)!=total){fprintf(stderr,"need 1 GiB file\n");return 1;} fclose(f);
  /* copies */
  size_t cb=300u<<20; uint8_t*d,*pin,*pg=malloc(cb); CK(cudaMalloc((void**)&d,cb)); CK(cudaMallocHost((void**)&pin,cb)); memset(pg,1,cb);
  for(int r=0;r<3;r++){double t0=now();CK(cudaMemcpy(pg,d,cb,cudaMemcpyDeviceToHost));double t1=now();CK(cudaMemcpy(pin,d,cb,cudaMemcpyDeviceToHost));double t2=now();
   CK(cudaMemcpy(d,pg,cb,cudaMemcpyHostToDevice));double t3=now();CK(cudaMemcpy(d,pin,cb,cudaMemcpyHostToDevice));double t4=now();
   printf("copy 300MB: d2h pageable %.1f pinned %.1f | h2d pageable %.1f pinned %.1f GB/s\n",cb/(t1-t0)/1e9,cb/(t2-t1)/1e9,cb/(t3-t2)/1e9,cb/(t4-t3)/1e9);}
  for(int r=0;r<3;r++){void*x;double t0=now();CK(cudaMalloc(&x,total));double t1=now();CK(cudaFree(x));double t2=now();
   void*y;CK(cudaMallocHost(&y,cb));double t3=now();CK(cudaFreeHost(y));double t4=now();
   printf("cudaMalloc 1GiB %.2f ms free %.2f ms | cudaMallocHost 300MB %.2f ms free %.2f ms\n",(t1-t0)*1e3,(t2-t1)*1e3,(t3-t1-(t2-t1))*1e3,(t4-t3)*1e3);}
  cudaFree(d);cudaFreeHost(pin);free(pg);
  uint8_t*din,*dout,*dback; CK(cudaMalloc((void**)&din,total)); CK(cudaMemcpy(din,h,total,cudaMemcpyHostToDevice));
  const char*modes[]={"lz","fast","auto"}; gpulz_mode mv[]={GPULZ_MODE_LZ,GPULZ_MODE_FAST,GPULZ_MODE_AUTO};
  size_t chunks[]={4u<<20,16u<<20};
  for(int ci=0;ci<2;ci++)for(int mi=0;mi<3;mi++){
    size_t cs=chunks[ci], batch=(size_t)256<<20, n=batch/cs;
    gpulz_params p; gpulz_params_init(&p); p.symbol_size=2; p.mode=mv[mi];
    size_t bound=gpulz_compress_bound(cs,&p);
    const void**src=calloc(n,sizeof*src); void**dst=calloc(n,sizeof*dst); size_t*sl=calloc(n,8),*dc=calloc(n,8),*dl=calloc(n,8),*bl=calloc(n,8); int*st=calloc(n,4);
    const void**src2=calloc(n,sizeof*src2); void**dst2=calloc(n,sizeof*dst2);
    CK(cudaMalloc((void**)&dout,n*bound)); CK(cudaMalloc((void**)&dback,batch));
    double tc[5],td[5]; size_t comp=0;
    for(int r=0;r<6;r++){
      double c=0,dd=0; comp=0;
      for(size_t b=0;b<total/batch;b++){
        for(size_t i=0;i<n;i++){src[i]=din+b*batch+i*cs;sl[i]=cs;dst[i]=dout+i*bound;dc[i]=bound;}
        double t0=now(); int rc=gpulz_compress_batch(n,src,sl,dst,dc,dl,st,&p,GPULZ_MEMORY_DEVICE,NULL,NULL,0); CK(cudaDeviceSynchronize()); double t1=now();
        if(rc){fprintf(stderr,"compress %s\n",gpulz_last_error());return 1;}
        for(size_t i=0;i<n;i++){comp+=dl[i];src2[i]=dst[i];dst2[i]=dback+i*cs;bl[i]=cs;}
        double t2=now(); rc=gpulz_decompress_batch(n,src2,dl,dst2,bl,dc,st,&p,GPULZ_MEMORY_DEVICE,NULL,NULL,0); CK(cudaDeviceSynchronize()); double t3=now();
        if(rc){fprintf(stderr,"decompress %s\n",gpulz_last_error());return 1;}
        c+=t1-t0; dd+=t3-t2;
      }
      if(r) {tc[r-1]=c;td[r-1]=dd;}
    }
    qsort(tc,5,8,cmpd);qsort(td,5,8,cmpd);
    printf("batch %s chunk %zu MiB lanes=%s: ratio %.3f comp %.2f GB/s decomp %.2f GB/s\n",modes[mi],cs>>20,getenv("GPULZ_GPU_LANES")?getenv("GPULZ_GPU_LANES"):"default",(double)total/comp,total/tc[2]/1e9,total/td[2]/1e9);
    cudaFree(dout);cudaFree(dback);
  }
  return 0;
}
