/*
 * gpulz_cli_io.c - whole files in and out of memory, stdin and stdout, and
 * the rule that a failed command leaves no output file behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpulz_cli.h"

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

/* Read fd to its end into a buffer grown geometrically from hint bytes. */
static int read_fd(int fd, const char *name, size_t hint, uint8_t **buf, size_t *len)
{
    size_t cap = hint ? hint + 1 : (size_t)1 << 20, n = 0;
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
        size_t want = cap - n < IO_STEP ? cap - n : IO_STEP;
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
        n += (size_t)got;
    }
    *buf = b;
    *len = n;
    return 0;
}

int cli_read_all(const char *path, uint8_t **buf, size_t *len)
{
    if (cli_is_std(path))
        return read_fd(STDIN_FILENO, "stdin", 0, buf, len);
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
    int rc = read_fd(fd, path, hint, buf, len);
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

int cli_write_all(const char *path, const void *buf, size_t len, int force)
{
    if (cli_is_std(path)) {
        if (write_fd(STDOUT_FILENO, buf, len))
            return cli_error(CLI_IO, "stdout", "write failed: %s", strerror(errno));
        return 0;
    }
    struct stat st;
    if (!force && lstat(path, &st) == 0)
        return cli_error(CLI_IO, path, "already exists (use -f to overwrite)");
    /* Write beside the target and rename: readers never see half a file and
     * a failure leaves nothing. */
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp)
        return cli_error(CLI_IO, path, "out of memory");
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp-XXXXXX", 12);
    int rc = 0, fd = mkstemp(tmp);
    if (fd < 0) {
        rc = cli_error(CLI_IO, path, "cannot create: %s", strerror(errno));
        goto done;
    }
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) || write_fd(fd, buf, len)) {
        rc = cli_error(CLI_IO, path, "write failed: %s", strerror(errno));
        close(fd);
        unlink(tmp);
        goto done;
    }
    if (close(fd)) {
        rc = cli_error(CLI_IO, path, "write failed: %s", strerror(errno));
        unlink(tmp);
        goto done;
    }
    /* Without force, link() refuses a file that appeared meanwhile, where
     * rename() would replace it; filesystems without hard links get rename. */
    int linked = 0;
    if (!force) {
        linked = link(tmp, path) == 0;
        if (!linked && errno == EEXIST)
            rc = cli_error(CLI_IO, path, "already exists (use -f to overwrite)");
    }
    if (!rc && !linked && rename(tmp, path))
        rc = cli_error(CLI_IO, path, "cannot create: %s", strerror(errno));
    if (linked || rc)
        unlink(tmp);
done:
    free(tmp);
    return rc;
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
