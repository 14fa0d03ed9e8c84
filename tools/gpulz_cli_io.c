/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gpulz_cli_io.c - whole files into memory, outputs of every kind (files,
 * devices, FIFOs, links, stdout) out of it, and the rule that a failed
 * command leaves no output file behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpulz_cli.h"
#include "gpulz_format.h"

/* Linux moves at most about 2 GiB per read() or write(); larger files loop. */
#define IO_STEP ((size_t)1 << 30)

int cli_is_std(const char *path)
{
    return !path || !strcmp(path, "-");
}

const char *cli_name(const char *path, int output)
{
    return cli_is_std(path) ? (output ? "stdout" : "stdin") : path;
}

/* Steps of a read or write that reports progress: a few per second. */
#define PROGRESS_STEP ((size_t)16 << 20)
#define MIB(n) ((double)(n) / (1 << 20))

/* "reading 512 of 1024 MiB" once the input is known to be large. */
static void report_read(cli_progress *pg, const char *name, size_t n, size_t hint)
{
    if (hint >= CLI_PROGRESS_MIN_BYTES && n <= hint)
        cli_progress_set(pg, "%s: reading %.0f of %.0f MiB", name, MIB(n), MIB(hint));
    else if (n >= CLI_PROGRESS_MIN_BYTES)
        cli_progress_set(pg, "%s: reading %.0f MiB", name, MIB(n));
}

/* Read fd to its end into a buffer grown geometrically from hint bytes;
 * with chunk, stop as soon as the first bytes are not a gpulz chunk's
 * magic (a stream such as /dev/zero would otherwise be read until memory
 * runs out): CLI_DATA. */
static int read_fd(int fd, const char *name, size_t hint, uint8_t **buf, size_t *len,
                   cli_progress *pg, int chunk)
{
    size_t cap = hint ? hint + 1 : (size_t)1 << 20, n = 0;
    size_t step = pg ? PROGRESS_STEP : IO_STEP;
    uint8_t *b = malloc(cap);
    if (!b)
        return cli_error(CLI_IO, name, "cannot allocate %zu bytes", cap);
    for (;;) {
        if (n == cap) {
            size_t grown = cap < SIZE_MAX / 2 ? cap * 2 : SIZE_MAX;
            uint8_t *nb = grown > cap ? realloc(b, grown) : NULL;
            if (!nb) {
                free(b);
                return cli_error(CLI_IO, name, "cannot allocate %zu bytes", grown);
            }
            b = nb;
            cap = grown;
        }
        size_t want = cap - n < step ? cap - n : step;
        ssize_t got = read(fd, b + n, want);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(b);
            return cli_error(CLI_IO, name, "read failed: %s", strerror(e));
        }
        if (got == 0)
            break;
        const size_t before = n;
        n += (size_t)got;
        if (chunk && before < GPULZ_MAGIC_SIZE && n >= GPULZ_MAGIC_SIZE && !gpulz_magic_ok(b)) {
            const int rc = cli_error(CLI_DATA, name, "bad magic %02x %02x %02x %02x: not a gpulz chunk", b[0],
                                     b[1], b[2], b[3]);
            free(b);
            return rc;
        }
        if (pg)
            report_read(pg, name, n, hint);
    }
    *buf = b;
    *len = n;
    return 0;
}

int cli_read_all(const char *path, uint8_t **buf, size_t *len)
{
    return cli_read_all_progress(path, buf, len, NULL);
}

static int read_path(const char *path, uint8_t **buf, size_t *len, cli_progress *pg, int chunk);

int cli_read_all_progress(const char *path, uint8_t **buf, size_t *len, cli_progress *pg)
{
    return read_path(path, buf, len, pg, 0);
}

int cli_read_chunk_progress(const char *path, uint8_t **buf, size_t *len, cli_progress *pg)
{
    return read_path(path, buf, len, pg, 1);
}

static int read_path(const char *path, uint8_t **buf, size_t *len, cli_progress *pg, int chunk)
{
    if (cli_is_std(path))
        return read_fd(STDIN_FILENO, "stdin", 0, buf, len, pg, chunk);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return cli_error(CLI_IO, path, "%s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        return cli_error(CLI_IO, path, "is a directory");
    }
    /* the size is only a hint: a file may grow or shrink while we read it */
    size_t hint = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size < SIZE_MAX
                      ? (size_t)st.st_size
                      : 0;
    int rc = read_fd(fd, path, hint, buf, len, pg, chunk);
    close(fd);
    return rc;
}

static int write_fd(int fd, const uint8_t *b, size_t len)
{
    while (len) {
        ssize_t put = write(fd, b, len < IO_STEP ? len : IO_STEP);
        if (put < 0 && errno == EINTR)
            continue;
        if (put < 0)
            return -1;
        b += put;
        len -= (size_t)put;
    }
    return 0;
}

/* The mode of a new output file, or the kept one of the file it replaces. */
static int set_mode(int fd, const struct stat *old)
{
    if (!old) {
        mode_t mask = umask(0);
        umask(mask);
        return fchmod(fd, 0666 & ~mask);
    }
    /* Owner and group are kept where the process may set them (root, or a
     * group of ours); where not, the new file is ours, and the set-id bits,
     * which would now grant our identity, go. */
    mode_t keep = old->st_mode & 07777;
    if (fchown(fd, old->st_uid, old->st_gid) != 0) {
        keep &= 0777;
        (void)!fchown(fd, (uid_t)-1, old->st_gid);
    }
    return fchmod(fd, keep);
}

/* An existing device or FIFO: written in place, never created or truncated. */
static int open_stream(cli_output *o, const char *path)
{
    struct stat st;
    o->fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (o->fd < 0)
        return cli_error(CLI_IO, path, "cannot open: %s", strerror(errno));
    /* the name may have been replaced since lstat(): write in place only
     * into what was checked to be a stream */
    if (fstat(o->fd, &st) != 0 ||
        !(S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISFIFO(st.st_mode)))
        return cli_error(CLI_IO, path, "changed while it was opened");
    if (!o->force && isatty(o->fd))
        return cli_error(CLI_USAGE, path, "refusing to write binary data to a terminal (use -f)");
    return 0;
}

/*
 * A temporary output can be hundreds of megabytes, and SIGINT (Ctrl-C),
 * SIGTERM or SIGHUP usually arrive during the long work before its rename:
 * the handler removes it, then dies of the signal so that the parent sees
 * how the command ended.  The path lives in a static buffer, set and
 * cleared with those signals blocked: a handler may make async-signal-safe
 * calls only, which rules out malloc'd memory and stdio.
 */
static const int fatal_signals[] = {SIGHUP, SIGINT, SIGTERM};
static char temp_path[PATH_MAX];
static volatile sig_atomic_t temp_armed;

static void on_fatal_signal(int sig)
{
    if (temp_armed)
        unlink(temp_path);
    signal(sig, SIG_DFL);
    raise(sig); /* delivered, now fatal, when the handler returns */
}

#define N_FATAL (sizeof fatal_signals / sizeof *fatal_signals)

static void fatal_set(sigset_t *set)
{
    sigemptyset(set);
    for (size_t i = 0; i < N_FATAL; i++)
        sigaddset(set, fatal_signals[i]);
}

/* Block the fatal signals; old receives the mask to restore. */
static void block_fatal(sigset_t *old)
{
    sigset_t set;
    fatal_set(&set);
    sigprocmask(SIG_BLOCK, &set, old);
}

/* Install the handler once; a signal ignored at start (nohup, a background
 * job's SIGINT) stays ignored. */
static void catch_fatal_signals(void)
{
    static int done;
    struct sigaction sa = {.sa_handler = on_fatal_signal}, was;
    if (done)
        return;
    done = 1;
    fatal_set(&sa.sa_mask); /* one handler at a time */
    for (size_t i = 0; i < N_FATAL; i++)
        if (sigaction(fatal_signals[i], NULL, &was) == 0 && was.sa_handler != SIG_IGN)
            sigaction(fatal_signals[i], &sa, NULL);
}

#define TEMP_SUFFIX ".tmp-XXXXXX"

/*
 * How much of path (its folder and all of its name but what a temporary's
 * suffix needs) names the temporary: a name of up to the folder's longest
 * is a file the command may write, and its temporary must fit there too.
 * A cut name ends before a UTF-8 sequence, not inside one.
 */
static size_t temp_stem(const char *path)
{
    const size_t len = strlen(path);
    const char *slash = strrchr(path, '/');
    const size_t base_at = slash ? (size_t)(slash - path) + 1 : 0;
    char *dir = base_at ? strndup(path, base_at) : NULL;
    /* the folder's longest name; NAME_MAX where it cannot be told */
    const long got = base_at && !dir ? -1 : pathconf(dir ? dir : ".", _PC_NAME_MAX);
    const long most = got > 0 ? got : NAME_MAX;
    free(dir);
    const size_t room = (size_t)most > sizeof TEMP_SUFFIX ? (size_t)most - (sizeof TEMP_SUFFIX - 1) : 1;
    if (len - base_at <= room)
        return len;
    size_t cut = base_at + room;
    while (cut > base_at + 1 && ((unsigned char)path[cut] & 0xC0) == 0x80)
        cut--;
    return cut;
}

/* A regular file: a temporary beside o->target, with the mode of old (NULL: a new file). */
static int open_temporary(cli_output *o, const struct stat *old)
{
    size_t len = temp_stem(o->target);
    sigset_t mask;
    if (!(o->tmp = malloc(len + sizeof TEMP_SUFFIX)))
        return cli_error(CLI_IO, o->name, "out of memory");
    memcpy(o->tmp, o->target, len);
    memcpy(o->tmp + len, TEMP_SUFFIX, sizeof TEMP_SUFFIX);
    catch_fatal_signals();
    block_fatal(&mask);
    o->fd = mkstemp(o->tmp);
    /* a path too long for the buffer is too long for mkstemp() as well */
    if (o->fd >= 0 && strlen(o->tmp) < sizeof temp_path) {
        memcpy(temp_path, o->tmp, strlen(o->tmp) + 1);
        temp_armed = 1;
    }
    sigprocmask(SIG_SETMASK, &mask, NULL);
    if (o->fd < 0) {
        int e = errno;
        free(o->tmp); /* a template, not a file of ours to remove */
        o->tmp = NULL;
        return cli_error(CLI_IO, o->name, "cannot create: %s", strerror(e));
    }
    if (set_mode(o->fd, old) != 0)
        return cli_error(CLI_IO, o->name, "cannot set the mode: %s", strerror(errno));
    return 0;
}

/* The descriptor number a path names that stands for one of the process's
 * open descriptors (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N),
 * else -1: resolved as links, such a path would lead to the file behind a
 * shell's > or >>, which must be written through the descriptor, not
 * replaced. */
static int named_descriptor(const char *path)
{
    static const char *const dirs[] = {"/dev/fd/", "/proc/self/fd/"};
    if (!strcmp(path, "/dev/stdout"))
        return STDOUT_FILENO;
    if (!strcmp(path, "/dev/stderr"))
        return STDERR_FILENO;
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        const size_t len = strlen(dirs[i]);
        if (strncmp(path, dirs[i], len) || !path[len])
            continue;
        char *end;
        errno = 0;
        const long fd = strtol(path + len, &end, 10);
        if (!*end && !errno && fd >= 0 && fd <= INT_MAX && path[len] >= '0' && path[len] <= '9')
            return (int)fd;
    }
    return -1;
}

int cli_output_is_input(const char *cmd, const char *in, const char *out)
{
    struct stat a, b;
    /* standard output and named descriptors by what they are open on: a
     * shell's 1<>FILE or >>FILE makes them the input itself */
    const int fd = cli_is_std(out) ? STDOUT_FILENO : named_descriptor(out);
    if (cli_is_std(in) || stat(in, &a) != 0 || (fd >= 0 ? fstat(fd, &b) : stat(out, &b)) != 0 ||
        !S_ISREG(b.st_mode))
        return 0;
    if (a.st_dev != b.st_dev || a.st_ino != b.st_ino)
        return 0;
    cli_usage_error(cmd, "the output %s is the input %s: it would be replaced", out, in);
    return 1;
}

/* cli_output_open() without the cleanup of a failure. */
static int output_open(cli_output *o, const char *path)
{
    struct stat st;
    if (path && !*path) /* before the work, not at its end */
        return cli_error(CLI_USAGE, "output", "an empty name (use - for standard output)");
    if (cli_is_std(path)) {
        o->fd = STDOUT_FILENO;
        return 0;
    }
    const int named = named_descriptor(path);
    if (named >= 0) {
        if ((o->fd = fcntl(named, F_DUPFD_CLOEXEC, 3)) < 0)
            return cli_error(CLI_IO, path, "cannot write to descriptor %d: %s", named, strerror(errno));
        if (!o->force && isatty(o->fd))
            return cli_error(CLI_USAGE, path, "refusing to write binary data to a terminal (use -f)");
        return 0;
    }
    if (lstat(path, &st) != 0) {
        if (errno != ENOENT)
            return cli_error(CLI_IO, path, "%s", strerror(errno));
        if (!(o->target = strdup(path)))
            return cli_error(CLI_IO, path, "out of memory");
        return open_temporary(o, NULL);
    }
    if (S_ISLNK(st.st_mode)) {
        /* write through the link: the file it resolves to is the one replaced */
        if (!(o->target = realpath(path, NULL)))
            return errno == ENOENT
                       ? cli_error(CLI_IO, path, "a dangling symbolic link (its target does not "
                                                 "exist: name the target itself)")
                       : cli_error(CLI_IO, path, "%s", strerror(errno));
        if (stat(o->target, &st) != 0)
            return cli_error(CLI_IO, path, "%s", strerror(errno));
    }
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISFIFO(st.st_mode))
        return open_stream(o, path);
    if (S_ISDIR(st.st_mode))
        return cli_error(CLI_IO, path, "is a directory");
    if (S_ISSOCK(st.st_mode))
        return cli_error(CLI_IO, path, "is a socket");
    if (!S_ISREG(st.st_mode))
        return cli_error(CLI_IO, path, "is not a regular file, a device or a FIFO");
    if (!o->force)
        return cli_error(CLI_IO, path, "already exists (use -f to overwrite)");
    if (!o->target && !(o->target = strdup(path)))
        return cli_error(CLI_IO, path, "out of memory");
    return open_temporary(o, &st);
}

int cli_output_open(cli_output *o, const char *path, int force)
{
    *o = (cli_output){.name = cli_name(path, 1), .fd = -1, .force = force};
    int rc = output_open(o, path);
    if (rc)
        cli_output_abort(o);
    return rc;
}

int cli_output_write(cli_output *o, const void *buf, size_t len)
{
    return cli_output_write_progress(o, buf, len, NULL);
}

int cli_output_write_progress(cli_output *o, const void *buf, size_t len, cli_progress *pg)
{
    const uint8_t *b = buf;
    size_t step = pg && len >= CLI_PROGRESS_MIN_BYTES ? PROGRESS_STEP : len, done = 0;
    do {
        size_t n = len - done < step ? len - done : step;
        if (step < len)
            cli_progress_set(pg, "%s: writing %.0f of %.0f MiB", o->name, MIB(done), MIB(len));
        if (write_fd(o->fd, b + done, n))
            return cli_error(CLI_IO, o->name, "write failed: %s", strerror(errno));
        done += n;
    } while (done < len);
    return 0;
}

int cli_output_commit(cli_output *o)
{
    int rc = 0;
    if (o->fd == STDOUT_FILENO) /* main() closes stdout, and checks that */
        o->fd = -1;
    if (o->fd >= 0 && close(o->fd) != 0)
        rc = cli_error(CLI_IO, o->name, "write failed: %s", strerror(errno));
    o->fd = -1;
    if (!rc && o->tmp) {
        /* Without force, link() refuses a file that appeared meanwhile, where
         * rename() would replace it; filesystems without hard links get rename. */
        int linked = 0;
        sigset_t mask;
        block_fatal(&mask); /* the handler must not remove the name once it is the output */
        if (!o->force) {
            linked = link(o->tmp, o->target) == 0;
            if (!linked && errno == EEXIST)
                rc = cli_error(CLI_IO, o->name, "already exists (use -f to overwrite)");
        }
        if (!rc && !linked && rename(o->tmp, o->target))
            rc = cli_error(CLI_IO, o->name, "cannot create: %s", strerror(errno));
        if (!rc && !linked) { /* renamed: nothing left to remove */
            temp_armed = 0;
            free(o->tmp);
            o->tmp = NULL;
        }
        sigprocmask(SIG_SETMASK, &mask, NULL);
    }
    cli_output_abort(o);
    return rc;
}

void cli_output_abort(cli_output *o)
{
    if (o->fd >= 0 && o->fd != STDOUT_FILENO)
        close(o->fd);
    o->fd = -1;
    if (o->tmp) {
        sigset_t mask;
        block_fatal(&mask);
        unlink(o->tmp);
        temp_armed = 0;
        sigprocmask(SIG_SETMASK, &mask, NULL);
    }
    free(o->tmp);
    free(o->target);
    o->tmp = o->target = NULL;
}

/* The errno of stdout's first failed flush: stdio drops the buffer then, so
 * a later flush succeeds and only ferror() remembers that text was lost. */
static int stdout_errno;

int cli_flush_stdout(void)
{
    errno = 0;
    if (fflush(stdout) != 0 && !stdout_errno)
        stdout_errno = errno ? errno : EIO;
    if (ferror(stdout) && !stdout_errno)
        stdout_errno = EIO; /* an implicit flush inside printf failed */
    return stdout_errno;
}

int cli_check_binary_stdout(const char *cmd, const char *path, int force)
{
    if (cli_is_std(path) && !force && isatty(STDOUT_FILENO))
        return cli_usage_error(cmd, "refusing to write binary data to a terminal "
                                    "(use -o FILE, a pipe, or -f)");
    return 0;
}
