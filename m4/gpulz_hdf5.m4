# SPDX-License-Identifier: BSD-3-Clause
# gpulz_hdf5.m4 - find the HDF5 to build the plugin for, through pkg-config
# (Debian: hdf5, hdf5-serial, hdf5-openmpi).
#
# GPULZ_CHECK_HDF5 (--with-hdf5-pkg) sets with_hdf5_pkg (the module),
# hdf5_pc_module (substituted as HDF5_PKG: the module, or the one its .pc
# links to), hdf5_pkg_given (yes/no), HDF5_CFLAGS and
# HDF5_LIBS (with MPI's flags for a parallel HDF5), hdf5_flavour
# (serial/parallel), MPIEXEC (parallel only), the conditional HDF5_PARALLEL,
# and for h5gpulz.pc H5GPULZ_PC_REQUIRES, H5GPULZ_PC_CFLAGS and
# H5GPULZ_PC_LIBS: a Requires of the module, or, where HDF5_CFLAGS or
# HDF5_LIBS were given (an HDF5 with no pkg-config module, or another one
# than the module's), those flags themselves.
#
# GPULZ_HDF5_PLUGIN_DIR (--with-hdf5-plugin-dir) sets hdf5_plugindir, the
# folder this HDF5 searches for plugins when HDF5_PLUGIN_PATH is unset (also
# substituted: the tests find other filters' plugins there), and
# plugindir, where the plugin is installed: the option, else hdf5_plugindir.
# Each comes with a *_source naming where it came from, for the summary.

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
  AS_IF([test -n "$HDF5_CFLAGS$HDF5_LIBS"], [hdf5_flags_given=yes], [hdf5_flags_given=no])
  PKG_CHECK_MODULES([HDF5], [$with_hdf5_pkg >= 1.10])
  dnl The module that h5gpulz.pc requires and the CMake package names: the
  dnl one whose flags the library was built with.  Where the module's .pc is
  dnl a link to another module's on the search path (Debian's hdf5.pc, an
  dnl alternative that installing libhdf5-openmpi-dev turns to the MPI
  dnl flavour), that module: through the link, h5gpulz.pc would hand a
  dnl program another HDF5 than libh5gpulz's once the link moved.
  hdf5_pc_module=$with_hdf5_pkg
  gpulz_pc_file=`$PKG_CONFIG --variable=pcfiledir "$with_hdf5_pkg" 2>/dev/null`/$with_hdf5_pkg.pc
  gpulz_pc_real=`readlink -f "$gpulz_pc_file" 2>/dev/null`
  AS_IF([test -L "$gpulz_pc_file" && test -n "$gpulz_pc_real"], [
    gpulz_pc_target=`basename "$gpulz_pc_real" .pc`
    gpulz_pc_other=`$PKG_CONFIG --variable=pcfiledir "$gpulz_pc_target" 2>/dev/null`/$gpulz_pc_target.pc
    AS_IF([test "x$gpulz_pc_target" != "x$with_hdf5_pkg" &&
           test "x`readlink -f "$gpulz_pc_other" 2>/dev/null`" = "x$gpulz_pc_real"],
      [hdf5_pc_module=$gpulz_pc_target
       AC_MSG_NOTICE([pkg-config's $with_hdf5_pkg is a link to $gpulz_pc_target: h5gpulz.pc and the CMake package name $gpulz_pc_target])])])
  AC_SUBST([HDF5_PKG], [$hdf5_pc_module])

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
  dnl what a program linking libh5gpulz (and calling HDF5) builds with
  AS_IF([test $hdf5_flags_given = yes],
    [H5GPULZ_PC_REQUIRES= H5GPULZ_PC_CFLAGS=" $HDF5_CFLAGS" H5GPULZ_PC_LIBS=" $HDF5_LIBS"],
    [H5GPULZ_PC_REQUIRES="$hdf5_pc_module >= 1.10" H5GPULZ_PC_CFLAGS= H5GPULZ_PC_LIBS=])
  AC_SUBST([H5GPULZ_PC_REQUIRES])
  AC_SUBST([H5GPULZ_PC_CFLAGS])
  AC_SUBST([H5GPULZ_PC_LIBS])
])

# _GPULZ_H5PUBCONF_PLUGINDIR: sets gpulz_h5_plugindir to the value of
# H5_DEFAULT_PLUGINDIR in the H5pubconf.h that HDF5_CFLAGS finds (empty when
# it is not defined or not usable here) and gpulz_h5pubconf to that header's
# path.  The preprocessor expands the macro, so a definition through other
# macros or as adjacent string literals ("/opt/hdf5" "/lib/plugin") reads as
# the compiler sees it; the C string is then unquoted (\\ and \" only).
# HDF5 built for Windows defaults to %ALLUSERSPROFILE%/hdf5/lib/plugin and
# expands such a variable when it searches; a variable in the value
# (%NAME%, $NAME or ${NAME}) is expanded from configure's environment where
# it is set.  A value left relative or with a variable unset is skipped with
# a warning: there is no folder to install into.
AC_DEFUN([_GPULZ_H5PUBCONF_PLUGINDIR], [
  AC_REQUIRE([AC_PROG_CPP])
  AC_REQUIRE([AC_PROG_AWK])
  gpulz_h5_plugindir= gpulz_h5pubconf=
  AC_LANG_CONFTEST([AC_LANG_SOURCE([[#include <H5pubconf.h>
#ifdef H5_DEFAULT_PLUGINDIR
gpulz_plugindir: H5_DEFAULT_PLUGINDIR
#endif]])])
  gpulz_cpp_out=`$CPP $CPPFLAGS $HDF5_CFLAGS conftest.$ac_ext 2>&AS_MESSAGE_LOG_FD`
  rm -f conftest.$ac_ext
  gpulz_h5pubconf=`printf '%s\n' "$gpulz_cpp_out" | sed -n 's/^@%:@ *[[0-9]][[0-9]]* "\(.*H5pubconf\.h\)".*/\1/p' | sed 1q`
  test -n "$gpulz_h5pubconf" || gpulz_h5pubconf=H5pubconf.h
  gpulz_literal=`printf '%s\n' "$gpulz_cpp_out" | sed -n 's/^gpulz_plugindir: *//p' | sed 1q`
  if test -n "$gpulz_literal"; then
    printf '%s\n' "$gpulz_h5pubconf: H5_DEFAULT_PLUGINDIR is $gpulz_literal" >&AS_MESSAGE_LOG_FD
    # one or more adjacent C string literals, nothing else (the program in
    # a variable: backquotes would take its backslashes)
    gpulz_awk='{
      s = $[]0; out = ""; i = 1; n = length(s); ok = 1; lits = 0
      while (ok && i <= n) {
        c = substr(s, i, 1)
        if (c == " " || c == "\t") { i++; continue }
        if (c != "\"") { ok = 0; break }
        lits++; i++
        for (;;) {
          if (i > n) { ok = 0; break }
          c = substr(s, i, 1)
          if (c == "\"") { i++; break }
          if (c == "\\") { i++; c = substr(s, i, 1); if (c != "\\" && c != "\"") { ok = 0; break } }
          out = out c; i++
        }
      }
      if (ok && lits) print out
    }'
    gpulz_v=`printf '%s\n' "$gpulz_literal" | $AWK "$gpulz_awk"`
    if test -z "$gpulz_v"; then
      AC_MSG_WARN([$gpulz_h5pubconf: H5_DEFAULT_PLUGINDIR is $gpulz_literal, not a plain C string: not used])
    fi
    # variables, the first one each time round
    while test -n "$gpulz_v"; do
      case $gpulz_v in
        *%*%*) gpulz_name=`printf '%s\n' "$gpulz_v" | sed -n 's/^[[^%]]*%\([[A-Za-z_]][[A-Za-z0-9_]]*\)%.*/\1/p'`
               gpulz_ref="%$gpulz_name%" ;;
        *'${'*) gpulz_name=`printf '%s\n' "$gpulz_v" | sed -n 's/^[[^$]]*\${\([[A-Za-z_]][[A-Za-z0-9_]]*\)}.*/\1/p'`
                gpulz_ref="\${$gpulz_name}" ;;
        *'$'*) gpulz_name=`printf '%s\n' "$gpulz_v" | sed -n 's/^[[^$]]*\$\([[A-Za-z_]][[A-Za-z0-9_]]*\).*/\1/p'`
               gpulz_ref="\$$gpulz_name" ;;
        *) break ;;
      esac
      gpulz_set=
      test -n "$gpulz_name" && eval "gpulz_set=\${$gpulz_name+set}"
      if test "$gpulz_set" != set; then
        AC_MSG_WARN([$gpulz_h5pubconf: H5_DEFAULT_PLUGINDIR is $gpulz_literal, with ${gpulz_name:-a variable} not set here: not used])
        gpulz_v=
        break
      fi
      eval "gpulz_val=\$$gpulz_name"
      gpulz_v="${gpulz_v%%"$gpulz_ref"*}$gpulz_val${gpulz_v#*"$gpulz_ref"}"
    done
    case $gpulz_v in
      /*) gpulz_h5_plugindir=$gpulz_v ;;
      '') ;;
      *) AC_MSG_WARN([$gpulz_h5pubconf: H5_DEFAULT_PLUGINDIR is $gpulz_literal ('$gpulz_v'), not an absolute path: not used]) ;;
    esac
  fi
])

AC_DEFUN([GPULZ_HDF5_PLUGIN_DIR], [
  AC_REQUIRE([GPULZ_CHECK_HDF5])
  AC_ARG_WITH([hdf5-plugin-dir],
    [AS_HELP_STRING([--with-hdf5-plugin-dir=DIR], [where to install the HDF5 plugin (default: the folder the HDF5 searches: the PluginDir of its pkg-config module, else H5_DEFAULT_PLUGINDIR of its H5pubconf.h, else HDF5's default /usr/local/hdf5/lib/plugin)])],
    [], [with_hdf5_plugin_dir=])
  case $with_hdf5_plugin_dir in
    yes|no) AC_MSG_ERROR([--with-hdf5-plugin-dir needs a folder, not '$with_hdf5_plugin_dir']) ;;
    # absolute, as configure's own --libdir (${libdir}/... is): libtool
    # refuses a relative -rpath at the plugin's link
    ''|[[\\/\$]]*|?:[[\\/]]*) ;;
    *) AC_MSG_ERROR([--with-hdf5-plugin-dir needs an absolute folder, not '$with_hdf5_plugin_dir']) ;;
  esac
  hdf5_plugindir=`$PKG_CONFIG --variable=PluginDir $with_hdf5_pkg 2>/dev/null`
  if test -n "$hdf5_plugindir"; then
    hdf5_plugindir_source="PluginDir of pkg-config's $with_hdf5_pkg"
  else
    _GPULZ_H5PUBCONF_PLUGINDIR
    if test -n "$gpulz_h5_plugindir"; then
      hdf5_plugindir=$gpulz_h5_plugindir
      hdf5_plugindir_source="H5_DEFAULT_PLUGINDIR of $gpulz_h5pubconf"
    else
      hdf5_plugindir=/usr/local/hdf5/lib/plugin
      hdf5_plugindir_source="HDF5's default; no PluginDir in $with_hdf5_pkg.pc, no usable H5_DEFAULT_PLUGINDIR"
    fi
  fi
  AC_MSG_CHECKING([where HDF5 ($with_hdf5_pkg) looks for plugins])
  AC_MSG_RESULT([$hdf5_plugindir ($hdf5_plugindir_source)])
  if test -n "$with_hdf5_plugin_dir"; then
    plugindir=$with_hdf5_plugin_dir plugindir_source=--with-hdf5-plugin-dir
  else
    plugindir=$hdf5_plugindir plugindir_source=$hdf5_plugindir_source
  fi
  AC_SUBST([plugindir])
  AC_SUBST([hdf5_plugindir])
])
