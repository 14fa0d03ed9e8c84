#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# configure refuses, before anything is built, the options a build or an
# install would fail on later: --disable-shared (HDF5 loads the plugin as a
# shared object, which libtool makes none of then), and, as configure's
# own --libdir, a relative --with-hdf5-plugin-dir (libtool: "only absolute
# run-paths are allowed") or --with-bash-completion-dir (installed under
# the build tree, or under DESTDIR's name run on with it: /stagecompletions),
# a filter ID that gpulz_cd.h would carry as another number, and a
# --with-cuda-arch list nvcc cannot take.
# Each case runs configure (configure only) in a scratch folder and expects
# it to stop with a message naming the option.  Then h5gpulz.pc of a
# configure given HDF5_CFLAGS and HDF5_LIBS carries them, with no Requires;
# last, where nvcc is found, a CUDA unit builds with Debian's CPPFLAGS,
# and configure finds the CUDA runtime of a toolkit laid out as Debian's.
: "${top_srcdir:?}"

. "$top_srcdir/h5tests/configure_common.sh"
work="$PWD/h5tests/configure_options.dir"
rm -rf "$work" && mkdir -p "$work/build" || exit 99
cd "$work" || exit 99

# refused CASE PATTERN [CONFIGURE ARGS]: configure stops with an error
# matching PATTERN
refused() {
    name=$1 pattern=$2
    shift 2
    if (cd build && rm -rf ./* &&
        CONFIG_SITE=/dev/null "$top_srcdir/configure" --no-create --with-cuda=no \
            PYTHON_H5PY=none "$@") >"$name.out" 2>&1; then
        fail "$name: configure $* succeeded"
    fi
    grep -q "error: .*$pattern" "$name.out" ||
        fail "$name: configure $* failed, but not with '$pattern': $(tail -3 "$name.out")"
}

refused no-shared "disable-shared: gpulz needs shared libraries" --disable-shared
refused no-shared-static "disable-shared: gpulz needs shared libraries" --disable-shared --enable-static
refused relative-plugindir "with-hdf5-plugin-dir needs an absolute folder" \
    --with-hdf5-plugin-dir=lib/plugin
refused relative-completiondir "with-bash-completion-dir needs an absolute folder" \
    --with-bash-completion-dir=completions
# the filter IDs are written into gpulz_cd.h as C constants: a leading 0
# made them octal (0400 became 256, 034791 did not compile), and a number
# too long for test(1) passed the range check
refused octal-filter-id "without a leading 0" --with-filter-id=034791
refused octal-registered-id "without a leading 0" --with-registered-filter-id=0400
refused long-filter-id "outside HDF5's 256..65535" --with-filter-id=99999999999999999999
refused long-registered-id "outside HDF5's 256..65535" \
    --with-registered-filter-id=99999999999999999999
# a --with-cuda-arch that nvcc cannot take (8.0 for 80) made the kernel
# check fail, and the build went on without CUDA
refused cuda-arch-dot "with-cuda-arch needs a comma-separated list" --with-cuda-arch=8.0
refused cuda-arch-sm "with-cuda-arch needs a comma-separated list" --with-cuda-arch=sm_80
refused cuda-arch-empty "with-cuda-arch needs a comma-separated list" --with-cuda-arch=

# what is not refused: folders under configure's variables, as distcheck
# gives them (Makefile.am's AM_DISTCHECK_CONFIGURE_FLAGS)
(cd build && rm -rf ./* &&
    CONFIG_SITE=/dev/null "$top_srcdir/configure" --no-create --with-cuda=no PYTHON_H5PY=none \
        --with-hdf5-plugin-dir='${libdir}/hdf5/plugins' \
        --with-bash-completion-dir='${datadir}/bash-completion/completions') >vars.out 2>&1 ||
    fail "configure with \${libdir} and \${datadir} folders failed: $(tail -3 vars.out)"

# a --prefix install keeps the bash completion under the prefix (from
# bash-completion.pc's completionsdir, whose datadir is /usr/share: make
# install as a user stopped there, a root one replaced the system's file)
(cd build && rm -rf ./* &&
    CONFIG_SITE=/dev/null "$top_srcdir/configure" --no-create --with-cuda=no PYTHON_H5PY=none \
        --prefix=/opt/gpulz-test-prefix) >prefix.out 2>&1 ||
    fail "configure --prefix=/opt/gpulz-test-prefix failed: $(tail -3 prefix.out)"
line=$(sed -n 's/^ *bash completion: *//p' prefix.out)
case $line in
/opt/gpulz-test-prefix/*) ;;
*) fail "configure --prefix=/opt/gpulz-test-prefix installs the bash completion in: $line" ;;
esac

# HDF5_CFLAGS and HDF5_LIBS given (an HDF5 with no pkg-config module, or
# another than the module's): h5gpulz.pc carries those flags and requires no
# module, which pkg-config could not find (or would take for the wrong HDF5)
pc=${PKG_CONFIG:-pkg-config}
if command -v "$pc" >/dev/null 2>&1 && hc=$($pc --cflags "${HDF5_PKG:-hdf5}") &&
    hl=$($pc --libs "${HDF5_PKG:-hdf5}"); then
    (cd build && rm -rf ./* &&
        CONFIG_SITE=/dev/null "$top_srcdir/configure" --no-create --with-cuda=no PYTHON_H5PY=none \
            --with-hdf5-pkg=gpulz-test-no-such-hdf5 HDF5_CFLAGS="$hc -DGPULZ_TEST_GIVEN" \
            HDF5_LIBS="$hl -lm" && ./config.status --file=h5gpulz.pc) >given.out 2>&1 ||
        fail "configure with HDF5_CFLAGS and HDF5_LIBS and no module failed: $(tail -3 given.out)"
    req=$(PKG_CONFIG_PATH="$work/build" $pc --print-requires h5gpulz 2>&1) ||
        fail "pkg-config does not take h5gpulz.pc of given flags: $req"
    [ -z "$req" ] || fail "h5gpulz.pc of given flags requires $req"
    case " $(PKG_CONFIG_PATH="$work/build" $pc --cflags h5gpulz) " in
    *" -DGPULZ_TEST_GIVEN "*) ;;
    *) fail "h5gpulz.pc lacks the given HDF5_CFLAGS: $(grep '^Cflags' build/h5gpulz.pc)" ;;
    esac
    case " $(PKG_CONFIG_PATH="$work/build" $pc --libs h5gpulz) " in
    *" -lh5gpulz "*" -lm "*) ;;
    *) fail "h5gpulz.pc lacks the given HDF5_LIBS: $(grep '^Libs:' build/h5gpulz.pc)" ;;
    esac
fi

# a CUDA build given Debian's CPPFLAGS (dpkg-buildflags: -Wdate-time, which
# nvcc refuses, "Unknown option"): the .cu rule compiles a kernel, with the
# defines for nvcc itself and the rest for the host compiler.  Where
# configure finds a working nvcc.
(cd build && rm -rf ./* &&
    CONFIG_SITE=/dev/null "$top_srcdir/configure" --with-cuda-arch=80 PYTHON_H5PY=none \
        CPPFLAGS='-Wdate-time -D_FORTIFY_SOURCE=2 -DGPULZ_TEST_CPP') >cuda.out 2>&1 ||
    fail "configure with CUDA and Debian's CPPFLAGS failed: $(tail -3 cuda.out)"
if grep -q '^ *CUDA backend: *yes' cuda.out; then
    cat >build/cppflags_test.cu <<'EOF'
#ifndef GPULZ_TEST_CPP
#error CPPFLAGS' -D did not reach nvcc
#endif
__global__ void cppflags_test(int *x) { x[threadIdx.x] = 1; }
EOF
    (cd build && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ${MAKE:-make} V=1 cppflags_test.lo) \
        >cuda-make.out 2>&1 ||
        fail "a .cu unit does not build with CPPFLAGS='-Wdate-time ...': $(tail -3 cuda-make.out)"
    # Debian's toolkit (nvidia-cuda-toolkit): nvcc in /usr/bin, the static
    # runtime in the multiarch folder /usr/lib/x86_64-linux-gnu, no lib64 (a
    # toolkit of links to this one, laid out so)
    cudart=$(sed -n 's/^CUDA_LIBS = -L\([^ ]*\) .*/\1/p' build/Makefile)/libcudart_static.a
    cudainc=$(sed -n 's/^CUDA_CPPFLAGS = -I\([^ ]*\).*/\1/p' build/Makefile)
    nvcc=$(sed -n 's/^NVCC = //p' build/Makefile)
    multiarch=$(${CC:-cc} -print-multiarch 2>/dev/null)
    deb="$work/debian-cuda"
    mkdir -p "$deb/bin" "$deb/lib/$multiarch" && ln -s "$cudainc" "$deb/include" &&
        ln -s "$cudart" "$deb/lib/$multiarch/" &&
        printf '#!/bin/sh\nexec "%s" "$@"\n' "$nvcc" >"$deb/bin/nvcc" && chmod +x "$deb/bin/nvcc" ||
        fail "cannot lay out a Debian CUDA toolkit in $deb"
    (cd build && rm -rf ./* &&
        CONFIG_SITE=/dev/null "$top_srcdir/configure" --no-create --with-cuda="$deb" \
            --with-cuda-arch=80 PYTHON_H5PY=none) >cuda-debian.out 2>&1 ||
        fail "configure --with-cuda= a Debian layout failed: $(tail -3 cuda-debian.out)"
    grep -q '^ *CUDA backend: *yes' cuda-debian.out ||
        fail "configure --with-cuda= a Debian layout: $(grep -i 'cuda' cuda-debian.out | tail -3)"
fi

cd .. && rm -rf "$work"
