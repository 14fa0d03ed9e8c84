/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_cli_progress.c - the progress line of long commands: one line on
 * stderr, rewritten in place, only where stderr is a terminal.
 *
 * A single step can take a minute (one codec call on a large input, one
 * H5Dwrite through deflate), so a thread redraws the line twice a second with
 * the time elapsed: the line shows the command is alive even when the
 * caller has nothing new to say.  The line is erased with spaces, not
 * terminal escapes, so it works on any terminal that honours '\r'.
 */
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "gpulz_cli.h"

struct cli_progress {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t ticker;
    int has_ticker, stop;
    int visible;   /* text is to be shown (set since the last hide) */
    size_t drawn;  /* characters of the line now on the terminal */
    double start;  /* monotonic seconds at cli_progress_start() */
    char prefix[48];
    char text[400];
};

/* the line started and not yet ended: one per command */
static cli_progress *active;

cli_progress *cli_progress_active(void)
{
    return active;
}

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A line that wraps cannot be rewritten with '\r': keep it within the terminal. */
static size_t terminal_width(void)
{
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 8)
        return ws.ws_col;
    return 80;
}

static void erase_locked(cli_progress *p)
{
    if (!p->drawn)
        return;
    fprintf(stderr, "\r%*s\r", (int)p->drawn, "");
    fflush(stderr);
    p->drawn = 0;
}

static void draw_locked(cli_progress *p)
{
    char line[512];
    if (!p->visible)
        return;
    int n = snprintf(line, sizeof line, "%s%s (%.0f s)", p->prefix, p->text, mono_now() - p->start);
    size_t len = n < 0 ? 0 : (size_t)n >= sizeof line ? sizeof line - 1 : (size_t)n;
    size_t max = terminal_width() - 1;
    if (len > max)
        len = max;
    line[len] = 0;
    /* pad over what a longer previous line left */
    fprintf(stderr, "\r%s%*s", line, p->drawn > len ? (int)(p->drawn - len) : 0, "");
    if (p->drawn > len)
        fprintf(stderr, "\r%s", line);
    fflush(stderr);
    p->drawn = len;
}

static void *ticker_main(void *arg)
{
    cli_progress *p = arg;
    pthread_mutex_lock(&p->lock);
    while (!p->stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 500000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&p->wake, &p->lock, &until);
        if (!p->stop)
            draw_locked(p);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

cli_progress *cli_progress_start(const char *cmd, int quiet)
{
    if (quiet || !isatty(STDERR_FILENO))
        return NULL;
    cli_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL; /* no progress line is no reason to fail the command */
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    snprintf(p->prefix, sizeof p->prefix, "gpulz %s: ", cmd);
    p->start = mono_now();
    /* The ticker blocks every signal: SIGINT and friends must reach the main
     * thread, whose handler removes a temporary output only where the main
     * thread has not blocked them (gpulz_cli_io.c).  Faults stay with the
     * thread that causes them. */
    sigset_t all, old;
    sigfillset(&all);
    sigdelset(&all, SIGSEGV);
    sigdelset(&all, SIGBUS);
    sigdelset(&all, SIGFPE);
    sigdelset(&all, SIGILL);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    p->has_ticker = pthread_create(&p->ticker, NULL, ticker_main, p) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    active = p;
    return p;
}

void cli_progress_set(cli_progress *p, const char *fmt, ...)
{
    va_list ap;
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    va_start(ap, fmt);
    vsnprintf(p->text, sizeof p->text, fmt, ap);
    va_end(ap);
    p->visible = 1;
    draw_locked(p);
    pthread_mutex_unlock(&p->lock);
}

void cli_progress_hide(cli_progress *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->visible = 0;
    erase_locked(p);
    pthread_mutex_unlock(&p->lock);
}

void cli_progress_end(cli_progress *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    p->visible = 0;
    erase_locked(p);
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
    if (p->has_ticker)
        pthread_join(p->ticker, NULL);
    if (active == p)
        active = NULL;
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p);
}
