/* SPDX-License-Identifier: BSD-3-Clause */
/* narrow_same: gpulz_hist_narrow against the scan it replaced (kept here), 20,000 random histograms each of u = 1 and 2 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpulz_entropy.h"
static void ref_narrow(gpulz_hist *h){
    const uint32_t V = (uint32_t)1 << (8 * h->u);
    uint32_t first = V, last = 0, gap = 0, gap_end = 0, prev = 0;
    for (uint32_t b = 0; b < V; b += 8) {
        const uint64_t *c = h->count + b;
        if (!(c[0] | c[1] | c[2] | c[3] | c[4] | c[5] | c[6] | c[7])) continue;
        for (uint32_t v = b; v < b + 8; v++) {
            if (!h->count[v]) continue;
            if (first == V) first = v;
            else if (v - prev - 1 > gap) { gap = v - prev - 1; gap_end = v; }
            prev = last = v;
        }
    }
    if (first == V) return;
    if (last - first + 1 <= V - gap) { h->lo = first; h->span = last - first + 1; }
    else { h->lo = gap_end; h->span = V - gap; }
}
static unsigned long long X=88172645463325252ULL; static unsigned long long rnd(void){X^=X<<13;X^=X>>7;X^=X<<17;return X;}
int main(void){
  int bad=0; long trials=0;
  for(int u=1;u<=2;u++){ uint32_t V=1u<<(8*u); uint64_t *c=calloc(V,8);
    for(int t=0;t<20000;t++){ memset(c,0,V*8);
      int kind=rnd()%5; unsigned k = kind==0?0: kind==1?1: kind==2? rnd()%8+1 : kind==3? rnd()%(V/4)+1 : rnd()%V+1;
      uint32_t center=rnd()%V, width= (rnd()%2)? (uint32_t)(rnd()%V)+1 : (uint32_t)(rnd()%64)+1;
      for(unsigned i=0;i<k;i++){ uint32_t v = (rnd()%3==0)? (uint32_t)(rnd()%V) : (center + (uint32_t)(rnd()%width)) % V; c[v]+= rnd()%1000+1; }
      if (t%7==0){ c[0]=1; } if (t%11==0) c[V-1]=5;
      gpulz_hist a={u,1,c,0,V}, b2={u,1,c,0,V};
      ref_narrow(&a); gpulz_hist_narrow(&b2); trials++;
      if(a.lo!=b2.lo||a.span!=b2.span){ if(bad<5) printf("u %d t %d: ref %u/%u new %u/%u\n",u,t,a.lo,a.span,b2.lo,b2.span); bad++; }
    } free(c);}
  printf("%ld trials, %d differ\n",trials,bad); return bad!=0; }
