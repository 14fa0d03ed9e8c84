# gpulz_hdf5.m4 - find the HDF5 to build the plugin for, through pkg-config
# (Debian: hdf5, hdf5-serial, hdf5-openmpi).
#
# GPULZ_CHECK_HDF5 (--with-hdf5-pkg) sets with_hdf5_pkg (the module),
# hdf5_pkg_given (yes/no), HDF5_CFLAGS and HDF5_LIBS (with MPI's flags for a
# parallel HDF5), hdf5_flavour (serial/parallel), MPIEXEC (parallel only) and
# the conditional HDF5_PARALLEL.
#
# GPULZ_HDF5_PLUGIN_DIR (--with-hdf5-plugin-dir) sets plugindir: the option,
# else the module's PluginDir, else ${libdir}/hdf5/plugins.

# _GPULZ_HDF5_MPI_LINK: sets gpulz_mpi_ok, whether a program using parallel
# HDF5 (and MPI) links with HDF5_CFLAGS, HDF5_LIBS, MPI_CFLAGS and MPI_LIBS.
AC_DEFUN([_GPULZ_HDF5_MPI_LINK], [
  gpulz_save_CPPFLAGS=$CPPFLAGS gpulz_save_LIBS=$LIBS
  CPPFLAGS="$CPPFLAGS $HDF5_CFLAGS $MPI_CFLAGS" LIBS="$HDF5_LIBS $MPI_LIBS $LIBS"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <hdf5.h>]],
    [[hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
      return H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL) < 0 || MPI_Finalize();]])],
    [gpulz_mpi_ok=yes], [gpulz_mpi_ok=no])
  CPPFLAGS=$gpulz_save_CPPFLAGS LIBS=$gpulz_save_LIBS])

AC_DEFUN([GPULZ_CHECK_HDF5], [
  AC_REQUIRE([PKG_PROG_PKG_CONFIG])
  AC_ARG_WITH([hdf5-pkg],
    [AS_HELP_STRING([--with-hdf5-pkg=MODULE], [pkg-config module of the HDF5 to build the plugin for, serial or parallel: hdf5-openmpi for MPI programs on Debian (default: hdf5)])],
    [hdf5_pkg_given=yes], [with_hdf5_pkg=hdf5 hdf5_pkg_given=no])
  PKG_CHECK_MODULES([HDF5], [$with_hdf5_pkg >= 1.10])

  dnl serial or parallel: a parallel HDF5's hdf5.h includes mpi.h and its
  dnl library needs MPI's; not every pkg-config module says so (Debian's
  dnl hdf5-openmpi does, through Requires: ompi)
  AC_ARG_VAR([MPICC], [Open MPI C wrapper asked (--showme) for MPI flags when a parallel HDF5's pkg-config module lacks them (default: mpicc)])
  AC_ARG_VAR([MPI_CFLAGS], [C flags for mpi.h, for a parallel HDF5 (default: none, or from $MPICC --showme:compile)])
  AC_ARG_VAR([MPI_LIBS], [linker flags for MPI, for a parallel HDF5 (default: none, or from $MPICC --showme:link)])
  AC_ARG_VAR([MPIEXEC], [MPI launcher for the parallel HDF5 test (default: mpiexec or mpirun on PATH)])
  gpulz_save_CPPFLAGS=$CPPFLAGS
  CPPFLAGS="$CPPFLAGS $HDF5_CFLAGS"
  AC_PREPROC_IFELSE([AC_LANG_SOURCE([[#include <H5pubconf.h>]])], [],
    [AC_MSG_ERROR([H5pubconf.h not found with $with_hdf5_pkg's flags ($HDF5_CFLAGS)])])
  AC_MSG_CHECKING([whether $with_hdf5_pkg is a serial or a parallel HDF5])
  AC_PREPROC_IFELSE([AC_LANG_SOURCE([[#include <H5pubconf.h>
#ifndef H5_HAVE_PARALLEL
#error serial HDF5
#endif]])], [hdf5_flavour=parallel], [hdf5_flavour=serial])
  AC_MSG_RESULT([$hdf5_flavour])
  CPPFLAGS=$gpulz_save_CPPFLAGS
  AS_IF([test $hdf5_flavour = parallel], [
    AS_IF([test $hdf5_pkg_given = no],
      [AC_MSG_WARN([pkg-config's hdf5 is a parallel HDF5: the plugin will load only into programs using it, not into the serial h5dump, h5py or netCDF. Debian switches hdf5.pc to the MPI flavour when libhdf5-openmpi-dev is installed; for the serial one configure --with-hdf5-pkg=hdf5-serial (or: update-alternatives --set hdf5.pc /usr/lib/<triplet>/pkgconfig/hdf5-serial.pc).])])
    AC_MSG_CHECKING([whether hdf5.h and MPI build with $with_hdf5_pkg's flags${MPI_CFLAGS:+ and MPI_CFLAGS}${MPI_LIBS:+ and MPI_LIBS}])
    _GPULZ_HDF5_MPI_LINK
    AC_MSG_RESULT([$gpulz_mpi_ok])
    AS_IF([test $gpulz_mpi_ok = no && test -z "$MPI_CFLAGS$MPI_LIBS"], [
      AC_PATH_PROGS([MPICC], [mpicc], [])
      AS_IF([test -n "$MPICC"], [
        MPI_CFLAGS=`$MPICC --showme:compile 2>/dev/null`
        MPI_LIBS=`$MPICC --showme:link 2>/dev/null`
        AC_MSG_CHECKING([whether they build with $MPICC --showme's flags ($MPI_CFLAGS $MPI_LIBS)])
        _GPULZ_HDF5_MPI_LINK
        AC_MSG_RESULT([$gpulz_mpi_ok])
      ])
    ])
    AS_IF([test $gpulz_mpi_ok = no],
      [AC_MSG_ERROR([$with_hdf5_pkg is a parallel HDF5, but a program using it does not build: its hdf5.h includes mpi.h and its library needs MPI's. Install MPI's development files (Debian: libopenmpi-dev, which libhdf5-openmpi-dev depends on), or give MPI_CFLAGS and MPI_LIBS, or MPICC=an Open MPI wrapper (see config.log)])])
    HDF5_CFLAGS="$HDF5_CFLAGS${MPI_CFLAGS:+ $MPI_CFLAGS}"
    HDF5_LIBS="$HDF5_LIBS${MPI_LIBS:+ $MPI_LIBS}"
    AC_PATH_PROGS([MPIEXEC], [mpiexec mpirun], [])
  ])
  AM_CONDITIONAL([HDF5_PARALLEL], [test $hdf5_flavour = parallel])
])

AC_DEFUN([GPULZ_HDF5_PLUGIN_DIR], [
  AC_REQUIRE([GPULZ_CHECK_HDF5])
  AC_ARG_WITH([hdf5-plugin-dir],
    [AS_HELP_STRING([--with-hdf5-plugin-dir=DIR], [where to install the HDF5 plugin (default: the PluginDir of the HDF5 pkg-config module)])],
    [plugindir=$withval],
    [plugindir=`$PKG_CONFIG --variable=PluginDir $with_hdf5_pkg 2>/dev/null`
     AS_IF([test -z "$plugindir"], [plugindir='${libdir}/hdf5/plugins'])])
  AC_SUBST([plugindir])
])
