#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# License and provenance of the source tree: every source file carries an
# SPDX-License-Identifier line in its first five lines, BSD-3-Clause save
# for the files from elsewhere listed below with their own; LICENSE, NEWS
# and CITATION.cff are there, and CITATION.cff and NEWS name this version.
#
# The files checked: those git tracks where the source tree is a git
# checkout; else (a release tarball, make distcheck) every file under it
# less what autotools, configure and a build make.  Source files: C, CUDA,
# headers, shell, Python, m4, Automake, configure.ac, CMake, pkg-config
# templates, the bash completion, and (tracked ones) any starting with #!.
: "${top_srcdir:?}" "${GPULZ_VERSION:?}"
cd "$top_srcdir" || exit 99

# files that come from elsewhere, with the identifier they carry
third_party='m4/ax_pthread.m4=GPL-3.0-or-later WITH Autoconf-exception-macro'

fail=0
bad() {
    echo "FAIL: $*" >&2
    fail=1
}

list=$(mktemp) || exit 99
trap 'rm -f "$list"' EXIT
if [ -e .git ] && command -v git >/dev/null 2>&1 && git ls-files >"$list" 2>/dev/null; then
    how="git ls-files"
else
    how="the files under $top_srcdir"
    find . \( -name .git -o -name autom4te.cache -o -name build-aux -o -name '*.dir' \
        -o -name .libs -o -name .deps -o -name _build -o -name _inst -o -name 'gpulz-[0-9]*' \
        -o -name __pycache__ -o -name CMakeFiles \) -prune -o -type f -print |
        sed -e 's|^\./||' \
            -e '/^aclocal\.m4$/d' -e '/^m4\/libtool\.m4$/d' -e '/^m4\/lt[^/]*\.m4$/d' \
            -e '/^\(.*\/\)\{0,1\}config\.h$/d' -e '/^config\.h\.in$/d' >"$list"
fi

n=0
while IFS= read -r f; do
    [ -f "$f" ] || continue
    case $f in
        *.c | *.h | *.cu | *.cuh | *.h.in | *.sh | *.py | *.py.in | *.m4 | *.inc | *.am | *.ac) ;;
        *.cmake | *.cmake.in | CMakeLists.txt | */CMakeLists.txt | *.pc.in | .ci/run) ;;
        tools/completion/*) ;;
        *)
            [ "$how" = "git ls-files" ] && [ "$(head -c 2 "$f" | tr -d '\000')" = '#!' ] || continue
            ;;
    esac
    n=$((n + 1))
    id=$(head -n 5 "$f" | sed -n 's/.*SPDX-License-Identifier: *\(.*[^ */]\)[ */]*$/\1/p' | sed 1q)
    want=BSD-3-Clause
    case "
$third_party
" in
        *"
$f="*)
            want=$(printf '%s\n' "$third_party" | sed -n "s|^$f=||p")
            ;;
    esac
    if [ -z "$id" ]; then
        bad "$f: no 'SPDX-License-Identifier: $want' line in its first 5 lines"
    elif [ "$id" != "$want" ]; then
        bad "$f: SPDX-License-Identifier is '$id', not '$want'"
    fi
done <"$list"
[ $n -gt 50 ] || bad "only $n source files found through $how: is $top_srcdir the source tree?"

for f in LICENSE NEWS CITATION.cff; do
    [ -s "$f" ] || bad "no $f in $top_srcdir"
done
grep -q 'BSD 3-Clause License' LICENSE 2>/dev/null || bad "LICENSE is not the BSD 3-Clause text"
v=$(sed -n 's/^version: *"\{0,1\}\([^"]*\)"\{0,1\} *$/\1/p' CITATION.cff 2>/dev/null)
[ "$v" = "$GPULZ_VERSION" ] || bad "CITATION.cff says version '$v', configure $GPULZ_VERSION"
mm=$(echo "$GPULZ_VERSION" | sed 's/^\([0-9]*\.[0-9]*\).*/\1/')
grep -q "^\* $mm\b\|^\* $GPULZ_VERSION\b" NEWS 2>/dev/null || bad "NEWS has no section '* $mm'"

[ $fail -eq 0 ] || exit 1
echo "ok: $n source files from $how carry their SPDX line"
