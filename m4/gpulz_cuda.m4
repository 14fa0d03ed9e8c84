# SPDX-License-Identifier: BSD-3-Clause
# gpulz_cuda.m4 - find nvcc and decide what CUDA code to build.
#
# GPULZ_CHECK_CUDA sets have_cuda (yes/no), NVCC, CUDA_CPPFLAGS, CUDA_LIBS
# (static cudart, so the plugin loads where no CUDA is installed) and
# NVCC_ARCH_FLAGS, and proves nvcc works by compiling a trivial kernel.
# NVCCFLAGS is the user's variable (like CFLAGS): Makefile.am puts it after
# the project's AM_NVCCFLAGS.
AC_DEFUN([GPULZ_CHECK_CUDA], [
  AC_ARG_WITH([cuda],
    [AS_HELP_STRING([--with-cuda=DIR],
      [CUDA toolkit to build the GPU backend with (default: auto, /usr/local/cuda or nvcc on PATH); no for a CPU-only build])],
    [], [with_cuda=auto])
  AC_ARG_WITH([cuda-arch],
    [AS_HELP_STRING([--with-cuda-arch=LIST],
      [comma-separated compute capabilities to build machine code for, the last also as PTX (default: 75,80,90)])],
    [gpulz_cuda_arch_given=yes], [with_cuda_arch=75,80,90 gpulz_cuda_arch_given=no])
  # each a compute capability as nvcc's -gencode takes it (80, 90a, 100f):
  # a typo (8.0, sm_80) made nvcc fail, and the build went on without CUDA
  gpulz_arch_ok=`echo "$with_cuda_arch" | tr ',' '\n' | grep -c '^[[1-9]][[0-9]][[0-9]]*[[a-z]]\{0,1\}$'`
  gpulz_arch_n=`echo "$with_cuda_arch" | tr ',' '\n' | grep -c .`
  AS_CASE([$with_cuda_arch],
    [''|yes|no|,*|*,|*,,*], [gpulz_arch_ok=bad])
  AS_IF([test "$gpulz_arch_ok" != "$gpulz_arch_n"],
    [AC_MSG_ERROR([--with-cuda-arch needs a comma-separated list of compute capabilities such as 75,80,90, not '$with_cuda_arch'])])
  AC_ARG_VAR([NVCCFLAGS], [nvcc flags for the CUDA sources, after the project's own])

  have_cuda=no
  NVCC=
  AS_CASE([$with_cuda],
    [no], [],
    [auto|yes], [AC_PATH_PROG([NVCC], [nvcc], [], [/usr/local/cuda/bin$PATH_SEPARATOR$PATH])],
    [AC_PATH_PROG([NVCC], [nvcc], [], [$with_cuda/bin])])
  AS_IF([test -n "$NVCC"], [
    cuda_home=`dirname "$NVCC"`
    cuda_home=`dirname "$cuda_home"`
    # the static CUDA runtime: in lib64 or targets/x86_64-linux/lib of
    # NVIDIA's toolkit, in the multiarch folder of Debian's (nvcc in
    # /usr/bin, /usr/lib/x86_64-linux-gnu), in lib of conda's
    cuda_multiarch=`$CC -print-multiarch 2>/dev/null`
    cuda_libdir=
    for cuda_d in "$cuda_home/lib64" "$cuda_home/targets/x86_64-linux/lib" \
                  ${cuda_multiarch:+"$cuda_home/lib/$cuda_multiarch"} "$cuda_home/lib"; do
      AS_IF([test -f "$cuda_d/libcudart_static.a"], [cuda_libdir=$cuda_d; break])
    done
    NVCC_ARCH_FLAGS=
    last_arch=
    for a in `echo "$with_cuda_arch" | tr ',' ' '`; do
      NVCC_ARCH_FLAGS="$NVCC_ARCH_FLAGS -gencode arch=compute_$a,code=sm_$a"
      last_arch=$a
    done
    AS_IF([test -n "$last_arch"],
          [NVCC_ARCH_FLAGS="$NVCC_ARCH_FLAGS -gencode arch=compute_$last_arch,code=compute_$last_arch"])
    AC_MSG_CHECKING([whether $NVCC compiles a kernel for $with_cuda_arch])
    cat > conftest.cu <<_GPULZ_EOF
#include <cuda_runtime.h>
__global__ void k(int *x) { x[[threadIdx.x]] = 1; }
int main(void) { int n = 0; return cudaGetDeviceCount(&n) == cudaSuccess ? 0 : 0; }
_GPULZ_EOF
    AS_IF([$NVCC $NVCC_ARCH_FLAGS -c conftest.cu -o conftest.$OBJEXT >&AS_MESSAGE_LOG_FD 2>&1],
          [have_cuda=yes], [have_cuda=no])
    rm -f conftest.cu conftest.$OBJEXT
    AC_MSG_RESULT([$have_cuda])
    AS_IF([test "x$have_cuda" = xno && test $gpulz_cuda_arch_given = yes],
          [AC_MSG_ERROR([$NVCC does not compile a kernel for --with-cuda-arch=$with_cuda_arch (see config.log); --with-cuda=no for a CPU-only build])])
    AS_IF([test "x$have_cuda" = xyes && test -z "$cuda_libdir"],
          [AC_MSG_WARN([no libcudart_static.a under $cuda_home (lib64, targets/x86_64-linux/lib, lib${cuda_multiarch:+/$cuda_multiarch}, lib): building without CUDA])
           have_cuda=no])
  ])
  AS_IF([test "x$with_cuda" != xno && test "x$with_cuda" != xauto && test "x$have_cuda" != xyes],
        [AC_MSG_ERROR([--with-cuda=$with_cuda was asked for but no working nvcc with a static CUDA runtime (libcudart_static.a) was found])])
  AS_IF([test "x$have_cuda" = xyes], [
    CUDA_CPPFLAGS="-I$cuda_home/include"
    CUDA_LIBS="-L$cuda_libdir -lcudart_static -ldl -lrt -lpthread -lstdc++"
    AC_DEFINE([GPULZ_HAVE_CUDA], [1], [Define to 1 when the GPU backend is built])
  ], [
    CUDA_CPPFLAGS=
    CUDA_LIBS=
    NVCC_ARCH_FLAGS=
  ])
  AC_SUBST([NVCC])
  AC_SUBST([CUDA_CPPFLAGS])
  AC_SUBST([CUDA_LIBS])
  AC_SUBST([NVCC_ARCH_FLAGS])
  AM_CONDITIONAL([HAVE_CUDA], [test "x$have_cuda" = xyes])
])
