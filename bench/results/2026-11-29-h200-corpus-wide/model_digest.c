/* SPDX-License-Identifier: BSD-3-Clause */
/* model_digest: a digest of every model, estimate and choice over 256 KiB pieces of the arrays given (S = 2), to compare two builds' models */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpulz_v2.h"
#include "gpulz_entropy.h"
static unsigned long long hm(const gpulz_model*m){unsigned long long h=1469598103934665603ULL;
 #define MIX(x) h=(h^(unsigned long long)(x))*1099511628211ULL
 MIX(m->K);MIX(m->E);MIX(m->escaped);MIX(m->distinct);for(unsigned i=0;i<m->K+m->E;i++){MIX(m->freq[i]);MIX(i<m->K?m->value[i]:0);} return h;}
int main(int argc,char**argv){
  unsigned long long acc=0; unsigned models=0;
  for(int a=1;a<argc;a++){FILE*f=fopen(argv[a],"rb"); fseek(f,0,SEEK_END); long sz=ftell(f);
   for(long off=0; off<sz; off+= 1<<18){ size_t n = 1<<18; if(off+n>(size_t)sz) n=sz-off; uint8_t*b=malloc(n+2); fseek(f,off,SEEK_SET); n=fread(b,1,n,f);
    size_t m=n/2; if(!m){free(b);continue;} uint16_t*s=(uint16_t*)b; uint16_t*d=malloc(m*2+2);
    for(size_t i=0;i<m;i++) d[i]=(i%2048)?(uint16_t)(s[i]-s[i-1]):s[i];
    gpulz_fast_hists H; gpulz_fast_hists_init(&H,2);
    gpulz_units U={b,2,2,m}; gpulz_hist_add(&H.whole[0],&U); gpulz_units V={(uint8_t*)d,2,2,m}; gpulz_hist_add(&H.whole[1],&V);
    if (off & (1<<18)) { gpulz_hist_narrow(&H.whole[0]); gpulz_hist_narrow(&H.whole[1]); }
    gpulz_fast_hists_planes_from_whole(&H);
    for(int dd=0;dd<2;dd++){ gpulz_model M; gpulz_model_build(&M,&H.whole[dd]); acc=acc*31+hm(&M); gpulz_model_free(&M); models++;
      for(int j=0;j<2;j++){gpulz_model_build(&M,&H.plane[dd][j]); acc=acc*31+hm(&M); gpulz_model_free(&M); models++;}
      uint64_t c; gpulz_stream_estimate(&H.whole[dd],14,&c); acc=acc*31+c;}
    int de,sp; gpulz_fast_choose(&H,14,-1,&de,&sp); acc=acc*31+de*2+sp;
    gpulz_fast_hists_free(&H); free(b); free(d);}
   fclose(f);}
  printf("%u models, digest %016llx\n",models,acc); return 0;}
