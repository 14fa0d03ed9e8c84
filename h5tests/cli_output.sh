#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# What -o names decides how the output is written (docs/cli.md, "Where the
# output goes"): devices and FIFOs are written in place as streams, never
# replaced, with or without -f; a symbolic link is written through, its
# target replaced and the link kept; a regular file replaced with -f keeps
# its mode (and owner and group when root); a dangling link, a directory and
# a socket are refused.  Root or not: the checks that would damage a shared
# device node on a broken build run on a private one first.
. "$top_srcdir/h5tests/cli_common.sh"

"$GPULZ" gen quant 100000 -o q.raw || fail "gen"
"$GPULZ" compress -s 2 q.raw -o q.gplz || fail "compress"

no_temporaries() {
    find . -name '*.tmp-*' | grep -q . && fail "$1: temporary files left behind: $(find . -name '*.tmp-*')"
    return 0
}

# read_fifo FIFO FILE, then stop_reader: a reader of FIFO into FILE in the
# background; stop_reader waits for it a bounded time (a reader that never
# got a writer would block for ever) and fails if it had to be stopped
read_fifo() {
    cat "$1" >"$2" &
    reader=$!
}
stop_reader() {
    i=0
    while kill -0 "$reader" 2>/dev/null && [ $i -lt 300 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    if kill -0 "$reader" 2>/dev/null; then
        kill "$reader" 2>/dev/null
        wait "$reader" 2>/dev/null
        fail "$1: the FIFO's reader got no end of data"
    fi
    wait "$reader"
}

# 1. a FIFO: written in place (no -f needed), the data arrives, still a FIFO
mkfifo fifo || fail "mkfifo"
for force in "" -f; do
    read_fifo fifo copy
    "$GPULZ" decompress $force q.gplz -o fifo 2>err.log
    rc=$?
    if [ $rc -ne 0 ] || [ ! -p fifo ]; then
        kill "$reader" 2>/dev/null
        wait "$reader" 2>/dev/null
        [ -p fifo ] || fail "decompress $force -o fifo replaced the FIFO"
        fail "decompress $force -o fifo exited $rc: $(cat err.log)"
    fi
    stop_reader "decompress $force -o fifo"
    cmp q.raw copy || fail "decompress $force -o fifo: the reader got other bytes"
    rm -f copy
done
read_fifo fifo copy
expect 0 "$GPULZ" compress -s 2 q.raw -o fifo
stop_reader "compress -o fifo"
cmp q.gplz copy || fail "compress -o fifo: the reader got other bytes"
read_fifo fifo copy
expect 0 "$GPULZ" gen quant 100000 -o fifo
stop_reader "gen -o fifo"
cmp q.raw copy || fail "gen -o fifo: the reader got other bytes"
# a symbolic link to a FIFO is a FIFO
ln -s fifo fifo.link
read_fifo fifo.link copy
expect 0 "$GPULZ" decompress q.gplz -o fifo.link
stop_reader "decompress -o fifo.link"
[ -L fifo.link ] && [ -p fifo ] || fail "decompress -o fifo.link replaced the link or the FIFO"
cmp q.raw copy || fail "decompress -o fifo.link: the reader got other bytes"
no_temporaries "FIFO"

# 2. a character device: written in place.  As root a broken build would
# replace the node, so a private one (mknod) goes first where it can be made.
devices=/dev/null
if [ "$(id -u)" = 0 ] && mknod null c 1 3 2>/dev/null && (: >null) 2>/dev/null; then
    devices="./null /dev/null"
fi
for dev in $devices; do
    for force in "" -f; do
        expect 0 "$GPULZ" decompress $force q.gplz -o "$dev"
        [ -c "$dev" ] || fail "decompress $force -o $dev: $dev is no longer a character device"
        expect 0 "$GPULZ" compress $force q.raw -o "$dev"
        [ -c "$dev" ] || fail "compress $force -o $dev: $dev is no longer a character device"
        expect 0 "$GPULZ" gen $force quant 1K -o "$dev"
        [ -c "$dev" ] || fail "gen $force -o $dev: $dev is no longer a character device"
    done
done
no_temporaries "a device"

# 3. a symbolic link to a regular file, here and in another folder: -f
# replaces the target, the link stays a link; without -f the target is kept
mkdir sub
printf 'old' >target
printf 'old' >sub/target
ln -s target link
ln -s sub/target sub.link
for l in link sub.link; do
    t=$(readlink "$l")
    expect 3 "$GPULZ" decompress q.gplz -o "$l"
    grep -q 'already exists' err.log || fail "decompress -o $l without -f: $(cat err.log)"
    [ "$(cat "$t")" = old ] || fail "decompress -o $l without -f changed $t"
    expect 0 "$GPULZ" decompress -f q.gplz -o "$l"
    [ -L "$l" ] || fail "decompress -f -o $l replaced the link"
    [ "$(readlink "$l")" = "$t" ] || fail "decompress -f -o $l changed the link"
    cmp q.raw "$t" || fail "decompress -f -o $l: $t does not hold the output"
done
no_temporaries "a symbolic link"

# a dangling link is refused, and nothing is created
ln -s nowhere dangling
ln -s sub/nowhere sub.dangling
for l in dangling sub.dangling; do
    expect 3 "$GPULZ" decompress -f q.gplz -o "$l"
    grep -q 'dangling symbolic link' err.log || fail "-o $l: $(cat err.log)"
    [ -L "$l" ] && [ ! -e "$l" ] || fail "-o $l: the dangling link changed"
done
[ -e nowhere ] || [ -e sub/nowhere ] && fail "a dangling link's target was created"

# 4. the mode of a replaced file is kept: 0600 stays 0600, 0640 stays 0640
for mode in 600 640 751; do
    printf 'old' >"m$mode"
    chmod "$mode" "m$mode"
    expect 0 "$GPULZ" decompress -f q.gplz -o "m$mode"
    [ "$(stat -c %a "m$mode")" = "$mode" ] ||
        fail "a $mode file replaced with -f came back $(stat -c %a "m$mode")"
    cmp q.raw "m$mode" || fail "m$mode does not hold the output"
done
# ... through a link too
chmod 600 target
expect 0 "$GPULZ" compress -f -s 2 q.raw -o link
[ "$(stat -c %a target)" = 600 ] || fail "a 600 file replaced through a link came back $(stat -c %a target)"
# and owner and group where the process may set them (root)
if [ "$(id -u)" = 0 ] && printf 'old' >owned && chown 12345:23456 owned 2>/dev/null; then
    chmod 640 owned
    expect 0 "$GPULZ" decompress -f q.gplz -o owned
    [ "$(stat -c '%u:%g %a' owned)" = "12345:23456 640" ] ||
        fail "a 12345:23456 640 file replaced as root came back $(stat -c '%u:%g %a' owned)"
fi
# a new file gets the umask's mode
(umask 027 && exec "$GPULZ" decompress q.gplz -o fresh) || fail "decompress -o fresh"
[ "$(stat -c %a fresh)" = 640 ] || fail "a new file under umask 027 has mode $(stat -c %a fresh)"

# 5. what is not written to: a directory, a socket
mkdir dir
expect 3 "$GPULZ" decompress -f q.gplz -o dir
grep -q 'is a directory' err.log || fail "-o dir: $(cat err.log)"
ln -s dir dir.link
expect 3 "$GPULZ" decompress -f q.gplz -o dir.link
grep -q 'is a directory' err.log || fail "-o dir.link: $(cat err.log)"
[ -L dir.link ] || fail "-o dir.link replaced the link"
if command -v python3 >/dev/null 2>&1 &&
    python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("sock")' 2>/dev/null; then
    expect 3 "$GPULZ" decompress -f q.gplz -o sock
    grep -q 'is a socket' err.log || fail "-o sock: $(cat err.log)"
    [ -S sock ] || fail "-o sock replaced the socket"
fi
[ -z "$(ls dir)" ] || fail "something was written into dir"
no_temporaries "refusals"

# the process's own descriptors: /dev/stdout after a shell's >> appends to
# the file there (it is not replaced, even with -f), into a pipe it streams
echo precious >log.txt
"$GPULZ" decompress -f q.gplz -o /dev/stdout >>log.txt || fail "-o /dev/stdout >> log.txt"
head -n 1 log.txt | grep -qx precious || fail "-o /dev/stdout -f replaced the file that >> appends to"
tail -c +10 log.txt | cmp -s - q.raw || fail "-o /dev/stdout >> log.txt: the decoded bytes are not after the old ones"
"$GPULZ" decompress q.gplz -o /dev/stdout | cmp -s - q.raw || fail "-o /dev/stdout into a pipe"
"$GPULZ" decompress q.gplz -o /dev/fd/1 >fd1.raw && cmp -s fd1.raw q.raw || fail "-o /dev/fd/1"
# the input is kept, even with -f, whatever name the output takes for it
cp q.raw same.raw
expect 2 "$GPULZ" compress -f same.raw -o same.raw
grep -q 'is the input' err.log || fail "-o the input: $(cat err.log)"
ln -s same.raw same.link
expect 2 "$GPULZ" compress -f same.raw -o same.link
cmp -s same.raw q.raw || fail "compress -f X -o X (or a link to X) changed X"
# standard output or a named descriptor open on the input itself (a shell's
# 1<> or >>): refused as well, the input untouched
for o in /dev/stdout -; do
    "$GPULZ" compress same.raw -o $o 1<>same.raw 2>err.log
    rc=$?
    [ $rc -eq 2 ] && grep -q 'is the input' err.log || fail "-o $o 1<> the input: exit $rc, $(cat err.log)"
done
"$GPULZ" compress same.raw -o /dev/fd/5 5>>same.raw 2>err.log
rc=$?
[ $rc -eq 2 ] || fail "-o /dev/fd/5 5>> the input: exit $rc, $(cat err.log)"
cmp -s same.raw q.raw || fail "compress X -o /dev/stdout 1<>X (or -, or /dev/fd/5 5>>X) changed X"
# an empty output name is refused before any work
expect 2 "$GPULZ" compress q.raw -o ''
grep -q 'empty name' err.log || fail "-o '': $(cat err.log)"
expect 2 "$GPULZ" gen zeros 10 -o ''
no_temporaries "descriptors and the input"

# a name as long as the folder allows is written, new or replaced, here and
# in another folder: the temporary beside it takes a shorter name
max=$(getconf NAME_MAX . 2>/dev/null || echo 255)
long=$(printf "%${max}s" "" | tr ' ' n)
"$GPULZ" decompress q.gplz -o "$long" || fail "-o a name of $max bytes"
cmp -s "$long" q.raw || fail "-o a name of $max bytes: wrong bytes"
"$GPULZ" decompress -f q.gplz -o "dir/$long" && cmp -s "dir/$long" q.raw || fail "-o dir/ and a name of $max bytes"
"$GPULZ" gen ramp 1000 -f -o "$long" && "$GPULZ" decompress -f q.gplz -o "$long" && cmp -s "$long" q.raw ||
    fail "-f -o a name of $max bytes, replaced"
# x and then two-byte UTF-8 characters, so that the cut before the suffix
# falls inside one of them (the temporary's name is cut before it)
e=$(printf '\303\251')
wide=x
while [ "$(printf '%s' "$wide$e" | wc -c)" -le "$max" ]; do
    wide=$wide$e
done
"$GPULZ" decompress q.gplz -o "$wide" && cmp -s "$wide" q.raw || fail "-o a name of UTF-8 characters"
rm -f "$long" "dir/$long" "$wide"
no_temporaries "long names"
done_ok
