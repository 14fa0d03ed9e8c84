#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The man page gpulz.1 renders with `man -l` without a warning and is in
# step with the command: every command of `gpulz --help` is in it, each with
# a subsection holding every long option of its own help.  The page is the
# one made in the build tree (help2man), else the copy a source tarball
# carries.  Skips without man, or where there is no page (no help2man and no
# shipped copy).
. "$top_srcdir/h5tests/cli_common.sh"
command -v man >/dev/null 2>&1 || { echo "SKIP: no man"; exit 77; }
# a man that renders nothing (a minimized system's stub) cannot judge the page
printf '.TH PROBE 1\n.SH NAME\nprobe \\- a page man must render\n' >probe.1
LC_ALL=C MANWIDTH=80 man -l "$PWD/probe.1" 2>/dev/null | grep -q '^NAME$' ||
    { echo "SKIP: man does not render pages here"; exit 77; }
page=
for p in "$top_builddir/gpulz.1" "$top_srcdir/gpulz.1"; do
    [ -f "$p" ] && { page=$p; break; }
done
[ -n "$page" ] || { echo "SKIP: no gpulz.1 (help2man absent, no shipped copy)"; exit 77; }
case $page in /*) ;; *) page="$OLDPWD/$page" ;; esac

LC_ALL=C MANWIDTH=200 man --warnings -l "$page" >rendered.txt 2>warnings.txt ||
    fail "man -l $page failed: $(cat warnings.txt)"
[ -s warnings.txt ] && fail "man -l $page warns: $(cat warnings.txt)"
for section in NAME SYNOPSIS DESCRIPTION COMMANDS 'REPORTING BUGS' 'SEE ALSO'; do
    grep -q "^$section\$" rendered.txt || fail "no $section section in the rendered page"
done
grep -q '^ *gpulz - ' rendered.txt || fail "no 'gpulz - ...' line under NAME"
version=$("$GPULZ" --version | sed -n 's/^gpulz \([^ ]*\) .*/\1/p')
grep -q "gpulz $version" rendered.txt || fail "the page is not of version $version"

commands=$("$GPULZ" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z0-9][a-z0-9-]*\) .*/\1/p')
[ -n "$commands" ] || fail "no commands in gpulz --help"
for c in $commands; do
    grep -q "^ *$c\\b" rendered.txt || fail "command $c is not in the page"
    "$GPULZ" help "$c" >help.txt 2>/dev/null || continue
    # the subsection: from its heading to the next one
    sed -n "/^   gpulz $c\$/,/^   gpulz [a-z]/p" rendered.txt >section.txt
    [ -s section.txt ] || fail "no subsection 'gpulz $c' in the page"
    for opt in $(grep -o -- '^  *\(-[a-zA-Z0-9], \)\{0,1\}--[a-z0-9-]*' help.txt | grep -o -- '--[a-z0-9-]*'); do
        grep -q -- "$opt\\b" section.txt || fail "gpulz $c $opt is not in the page: remake it (help2man)"
    done
done
done_ok
