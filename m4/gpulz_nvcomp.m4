# SPDX-License-Identifier: BSD-3-Clause
# gpulz_nvcomp.m4 - nvCOMP (optional), only for the comparison benchmark
# bench/nvcomp_bench.
#
# GPULZ_CHECK_NVCOMP (--with-nvcomp=DIR, after GPULZ_CHECK_CUDA: it needs
# nvcc) sets have_nvcomp (yes/no), NVCOMP_CPPFLAGS, NVCOMP_LIBS and the
# conditional HAVE_NVCOMP.
AC_DEFUN([GPULZ_CHECK_NVCOMP], [
  AC_REQUIRE([GPULZ_CHECK_CUDA])
  AC_ARG_WITH([nvcomp],
    [AS_HELP_STRING([--with-nvcomp=DIR],
      [nvCOMP 5 or newer (DIR/include, DIR/lib64 or DIR/lib; e.g. the nvidia-libnvcomp-cu13 wheel unpacked, DIR=.../nvidia/libnvcomp) to build the nvCOMP benchmark (default: no)])],
    [], [with_nvcomp=no])
  have_nvcomp=no
  NVCOMP_CPPFLAGS=
  NVCOMP_LIBS=
  AS_IF([test "x$with_nvcomp" != xno], [
    AS_IF([test "x$have_cuda" != xyes], [AC_MSG_ERROR([--with-nvcomp needs CUDA (nvcc) as well])])
    AC_MSG_CHECKING([for nvCOMP in $with_nvcomp])
    nvcomp_lib=
    for d in "$with_nvcomp/lib64" "$with_nvcomp/lib"; do
      for f in "$d"/libnvcomp.so "$d"/libnvcomp.so.[[0-9]]*; do
        AS_IF([test -z "$nvcomp_lib" && test -f "$f"], [nvcomp_lib=$f])
      done
    done
    AS_IF([test -f "$with_nvcomp/include/nvcomp/lz4.h" && test -n "$nvcomp_lib"], [
      have_nvcomp=yes
      nvcomp_libdir=`dirname "$nvcomp_lib"`
      NVCOMP_CPPFLAGS="-I$with_nvcomp/include"
      dnl wheels ship only the versioned file (libnvcomp.so.6): link it by name
      NVCOMP_LIBS="-L$nvcomp_libdir -Xlinker -l:`basename $nvcomp_lib` -Xlinker -rpath=$nvcomp_libdir"
    ])
    AC_MSG_RESULT([$have_nvcomp${nvcomp_lib:+ ($nvcomp_lib)}])
    AS_IF([test "x$have_nvcomp" != xyes],
          [AC_MSG_ERROR([--with-nvcomp=$with_nvcomp: no include/nvcomp/lz4.h and lib64/libnvcomp.so* there])])
  ])
  AC_SUBST([NVCOMP_CPPFLAGS])
  AC_SUBST([NVCOMP_LIBS])
  AM_CONDITIONAL([HAVE_NVCOMP], [test "x$have_nvcomp" = xyes])
])
