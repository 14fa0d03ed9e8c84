/* SPDX-License-Identifier: BSD-3-Clause */
/* temporary phase timer (not for commit) */
#ifndef GPU_TRACE_H
#define GPU_TRACE_H
#include <stdio.h>
#include <time.h>
extern double tr_acc[40];
extern unsigned long tr_cnt[40];
extern const char *tr_name[40];
static inline double tr_now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec*1e-3;}
#define TR_BEGIN double tr_t = tr_now()
#define TR(k, nm) do { double t_ = tr_now(); tr_acc[k] += t_ - tr_t; tr_name[k] = nm; tr_cnt[k]++; tr_t = t_; } while (0)
#endif
