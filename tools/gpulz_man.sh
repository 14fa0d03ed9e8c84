#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# gpulz_man.sh GPULZ HELP2MAN VERSION OUT: write the man page gpulz.1 from
# the command's help texts with help2man: `gpulz --help` for the synopsis,
# the description and the list of commands, then a COMMANDS section with
# each command's own help (`gpulz help COMMAND`), formatted by help2man as a
# page of its own and put in as a subsection.  Run by make (the rule in
# tools/Makefile.inc); the page in a release tarball was made by it.
set -eu
gpulz=$1 help2man=$2 version=$3 out=$4
name='multi-byte LZSS (gpuLZ) compression of HDF5 data on the CPU and NVIDIA GPUs'
tmp="$out.tmp.$$"
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp"

# the commands: the two-space indented names under "Commands:" in --help
commands=$("$gpulz" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z0-9][a-z0-9-]*\) .*/\1/p')
[ -n "$commands" ] || { echo "$0: no commands in '$gpulz --help'" >&2; exit 1; }

{
    echo '[COMMANDS]'
    for c in $commands; do
        # commands without a help of their own (version, help) are described
        # in the list above
        "$gpulz" help "$c" >/dev/null 2>&1 || continue
        "$help2man" --no-info --version-string="$version" --help-option="help $c" \
            --output="$tmp/$c.1" "$gpulz"
        echo ".SS \"gpulz $c\""
        # the synopsis (the first usage line), then the description: the
        # further usage lines, which help2man indents, under the first, one
        # a line; the help's own headings ("Inputs:") as bold paragraph heads
        sed -n '/^\.SH SYNOPSIS/,/^\.SH /{/^\.SH /d;p;}' "$tmp/$c.1"
        sed -n '/^\.SH DESCRIPTION/,/^\.SH /{/^\.SH /d;p;}' "$tmp/$c.1" >"$tmp/$c.desc"
        if [ "$(sed 1q "$tmp/$c.desc")" = .IP ]; then
            echo .br
            sed 1d "$tmp/$c.desc" | awk 'usage && /^\./ { usage = 0 }
                usage && NR > 1 { print ".br" } { print }' usage=1
        else
            echo .PP
            cat "$tmp/$c.desc"
        fi | sed -e '/^\.SS /{s/^\.SS "\(.*\)"$/\1/;s/-/\\-/g;s/^/.PP\n\\fB/;s/$/\\fR/;}'
    done
    echo '[SEE ALSO]'
    echo '.BR h5repack (1),'
    echo '.BR h5dump (1).'
    echo '.PP'
    echo 'The chunk format, the HDF5 filter and its parameters, and this command in full:'
    echo 'README.md and docs/ in the gpulz sources,'
    echo '.br'
    echo 'https://github.com/gpulz/gpulz'
    echo '[COPYRIGHT]'
    echo 'Copyright (c) 2026 The gpulz authors.  BSD 3\-Clause license: the LICENSE file'
    echo 'installed with the documentation.'
} >"$tmp/commands.h2m"

"$help2man" --no-info --version-string="$version" --name="$name" --section=1 \
    --include="$tmp/commands.h2m" --output="$tmp/gpulz.1" "$gpulz"
grep -q '^\.SH COMMANDS' "$tmp/gpulz.1" || { echo "$0: no COMMANDS section made" >&2; exit 1; }
mv "$tmp/gpulz.1" "$out"
