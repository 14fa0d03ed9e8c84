#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The bash completion (tools/completion/gpulz) loads into a plain bash and
# registers itself for gpulz (complete -p), and its function, called as
# bash calls it (COMP_WORDS, COMP_CWORD), completes subcommands, every long
# option of each subcommand's help, option values, gen's kinds and file
# names; again with bash-completion's own library loaded first, where it is
# installed.  Skips without bash.
. "$top_srcdir/h5tests/cli_common.sh"
command -v bash >/dev/null 2>&1 || { echo "SKIP: no bash"; exit 77; }
: >file.raw

# complete.bash [LIBRARY]: the checks, in bash, with the built gpulz first on PATH
cat >complete.bash <<'EOS'
[ -n "$1" ] && . "$1"
. "$top_srcdir/tools/completion/gpulz" || exit 1
PATH=$(dirname "$GPULZ"):$PATH
fail() { echo "FAIL${1:+ ($LIB)}: $*" >&2; exit 1; }
LIB=${1:-plain bash}
[ "$(complete -p gpulz)" = "complete -F _gpulz gpulz" ] || fail "complete -p gpulz: $(complete -p gpulz 2>&1)"
# got WORD...: COMPREPLY for the command line WORD... (the last one is being completed)
got() {
    COMP_WORDS=("$@")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMP_LINE="$*"
    COMP_POINT=${#COMP_LINE}
    COMPREPLY=()
    _gpulz gpulz "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    ((${#COMPREPLY[@]})) || return 0
    printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '
}
expect() {
    want=$1
    shift
    have=$(got "$@")
    [ "$have" = "$want" ] || fail "'$*': completed to '$have', expected '$want'"
}
commands=$(gpulz --help | sed -n '/^Commands:/,/^$/s/^  \([a-z0-9][a-z0-9-]*\) .*/\1/p' | sort | tr '\n' ' ')
[ -n "$commands" ] || fail "no commands in gpulz --help"
expect "compress " gpulz co
expect "h5repack-args " gpulz h5
expect "$commands" gpulz help ""
have=$(got gpulz "")
for c in $commands; do
    case " $have " in *" $c "*) ;; *) fail "gpulz <TAB> lacks $c: $have" ;; esac
done
for c in $commands; do
    gpulz help "$c" >/dev/null 2>&1 || continue
    have=$(got gpulz "$c" --)
    for opt in $(gpulz help "$c" | grep -o -- '^  *\(-[a-zA-Z0-9], \)\{0,1\}--[a-z0-9-]*' | grep -o -- '--[a-z0-9-]*'); do
        case " $have " in *" $opt "*) ;; *) fail "gpulz $c --<TAB> lacks $opt: $have" ;; esac
    done
done
expect "--backend " gpulz compress --ba
expect "auto cpu gpu " gpulz compress --backend ""
expect "auto fast lz ratio " gpulz compress --mode ""
expect "--mode " gpulz h5repack-args --mo
expect "--no-checksum " gpulz compress --no
expect "1 2 4 8 " gpulz -c -s ""
expect "--verify " gpulz info --v
expect "--threads " gpulz -d --th
expect "" gpulz -d --sym
expect "$(gpulz gen --list | cut -d' ' -f1 | sort | tr '\n' ' ')" gpulz gen ""
expect "quant " gpulz bench --gen qu
expect "file.raw " gpulz compress -s 2 fi
expect "file.raw " gpulz decompress -o fi
exit 0
EOS
GPULZ=$GPULZ top_srcdir=$top_srcdir bash --norc --noprofile complete.bash "" ||
    fail "the completion in a plain bash"
for lib in /usr/share/bash-completion/bash_completion /etc/bash_completion; do
    if [ -f "$lib" ]; then
        GPULZ=$GPULZ top_srcdir=$top_srcdir bash --norc --noprofile complete.bash "$lib" ||
            fail "the completion with $lib loaded"
        break
    fi
done
done_ok
