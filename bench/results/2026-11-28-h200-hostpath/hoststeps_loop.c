/* SPDX-License-Identifier: BSD-3-Clause */
/* The host steps of format 2 statistics (narrow, planes, fast's choice, the model) on histograms shaped like genquant's, averaged over N passes; linked against a build's libgpulz. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>
#include "gpulz_entropy.h"
#include "gpulz_v2.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
int main(int argc,char**argv){
  int reps=argc>1?atoi(argv[1]):2000;
  uint64_t *cnt=calloc(2*65536,8);
  for(int i=-500;i<500;i++) cnt[32768+i]=(uint64_t)(1e6*exp(-fabs(i)/60.0))+1;
  for(int i=-1000;i<1000;i++) cnt[65536+((i+65536)&65535)]=(uint64_t)(1e6*exp(-fabs(i)/80.0))+1;
  uint64_t N0=0,N1=0; for(int v=0;v<65536;v++){N0+=cnt[v];N1+=cnt[65536+v];}
  double tn=0,tp=0,tc=0,tm=0;
  for(int rep=0;rep<reps;rep++){
  gpulz_fast_hists H; gpulz_fast_hists_init_planes(&H,2);
  double t0=now();
  for(int d=0;d<2;d++){H.whole[d].count=cnt+65536*d;H.whole[d].N=d?N1:N0;gpulz_hist_narrow(&H.whole[d]);}
  double t1=now();
  gpulz_fast_hists_planes_from_whole(&H);
  double t2=now();
  int delta,split; gpulz_fast_choose(&H,14,&delta,&split);
  double t3=now();
  gpulz_model m; memset(&m,0,sizeof m); gpulz_model_build(&m,&H.whole[delta]);
  double t4=now();
  tn+=t1-t0;tp+=t2-t1;tc+=t3-t2;tm+=t4-t3;
  gpulz_model_free(&m); H.whole[0].count=H.whole[1].count=NULL; gpulz_fast_hists_free(&H);}
  printf("narrow %.1f planes %.1f choose %.1f model %.1f us\n",tn/reps,tp/reps,tc/reps,tm/reps);
}
