/* SPDX-License-Identifier: BSD-3-Clause */
/* host_steps: the host's steps of fast's choice on one chunk of S = 2 (narrow, planes, choice, model, encoder entries), us each, mean of 30; built against libgpulz_core.a: gcc -O2 -Ikernels -I<build> host_steps.c <build>/.libs/libgpulz_core.a -lpthread -lm */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpulz_v2.h"
#include "gpulz_entropy.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
typedef struct { uint32_t thr, r, cfl, c; } enc;
int main(int argc,char**argv){
  FILE*f=fopen(argv[1],"rb"); size_t n=(size_t)atol(argv[2])<<10; uint8_t*b=malloc(n); n=fread(b,1,n,f); fclose(f);
  size_t m=n/2; uint16_t*s=(uint16_t*)b; uint16_t*d=malloc(m*2);
  for(size_t i=0;i<m;i++) d[i]=(i%2048)?(uint16_t)(s[i]-s[i-1]):s[i];
  uint64_t *c0=calloc(65536,8),*c1=calloc(65536,8); for(size_t i=0;i<m;i++){c0[s[i]]++;c1[d[i]]++;}
  enc *E=malloc(65536*sizeof*E); int R=30; double T[6]={0};
  for(int r=0;r<R;r++){
    gpulz_fast_hists H; gpulz_fast_hists_init_planes(&H,2);
    double t0=now();
    H.whole[0].count=c0;H.whole[0].N=m;H.whole[0].u=2;H.whole[0].lo=0;H.whole[0].span=65536;
    H.whole[1].count=c1;H.whole[1].N=m;H.whole[1].u=2;H.whole[1].lo=0;H.whole[1].span=65536;
    gpulz_hist_narrow(&H.whole[0]); gpulz_hist_narrow(&H.whole[1]);
    double t1=now(); gpulz_fast_hists_planes_from_whole(&H);
    double t2=now(); int de,sp; gpulz_fast_choose(&H,14,-1,&de,&sp);
    double t3=now(); gpulz_model M; gpulz_model_build(&M,&H.whole[de]);
    double t4=now(); for(uint32_t v=0;v<65536;v++){unsigned i=M.entry[v]; E[v].thr=M.freq[i]; E[v].r=i; E[v].cfl=M.cum[i]; E[v].c=i==M.K;}
    double t5=now(); gpulz_model_free(&M);
    H.whole[0].count=NULL;H.whole[1].count=NULL; gpulz_fast_hists_free(&H);
    T[0]+=t1-t0;T[1]+=t2-t1;T[2]+=t3-t2;T[3]+=t4-t3;T[4]+=t5-t4;}
  printf("%s %s KB: narrow %.1f planes %.1f choose %.1f model %.1f entries %.1f us\n",argv[1],argv[2],T[0]/R*1e6,T[1]/R*1e6,T[2]/R*1e6,T[3]/R*1e6,T[4]/R*1e6);
}
