# SPDX-License-Identifier: BSD-3-Clause
# gpulz_install.m4 - what is installed beside the libraries, the plugin and
# the command.
#
# GPULZ_MAN_PAGE (HELP2MAN) sets HELP2MAN (empty without it), man_page (how
# the page is had, for the summary) and the conditionals HAVE_HELP2MAN and
# INSTALL_MAN.  gpulz.1 is made from the command's help texts by help2man
# when it is there; a release tarball carries a copy made by `make dist`, so
# a build without help2man installs that one.  A git checkout without
# help2man has no page to install.
#
# GPULZ_BASH_COMPLETION (--with-bash-completion-dir) sets bashcompletiondir
# and bashcompletiondir_source: the option, else the completionsdir of
# pkg-config's bash-completion with its datadir this build's, else
# ${datadir}/bash-completion/completions.

AC_DEFUN([GPULZ_MAN_PAGE], [
  AC_ARG_VAR([HELP2MAN], [help2man, to make the man page gpulz.1 from gpulz --help])
  AC_PATH_PROGS([HELP2MAN], [help2man], [])
  if test -n "$HELP2MAN"; then
    man_page="made by $HELP2MAN"
  elif test -f "$srcdir/gpulz.1"; then
    man_page="the copy in the sources (no help2man)"
  else
    man_page="none: help2man is needed to make it"
  fi
  AM_CONDITIONAL([HAVE_HELP2MAN], [test -n "$HELP2MAN"])
  AM_CONDITIONAL([INSTALL_MAN], [test -n "$HELP2MAN" || test -f "$srcdir/gpulz.1"])
])

AC_DEFUN([GPULZ_BASH_COMPLETION], [
  AC_REQUIRE([PKG_PROG_PKG_CONFIG])
  AC_ARG_WITH([bash-completion-dir],
    [AS_HELP_STRING([--with-bash-completion-dir=DIR], [where to install the bash completion of gpulz (default: completionsdir of pkg-config's bash-completion, else DATADIR/bash-completion/completions)])],
    [], [with_bash_completion_dir=])
  case $with_bash_completion_dir in
    yes|no) AC_MSG_ERROR([--with-bash-completion-dir needs a folder, not '$with_bash_completion_dir']) ;;
    # absolute, or under a folder variable: make install would put a relative
    # one under the build tree, or DESTDIR=/stage and it as /stagecompletions
    ''|[[\\/\$]]*|?:[[\\/]]*) ;;
    *) AC_MSG_ERROR([--with-bash-completion-dir needs an absolute folder, not '$with_bash_completion_dir']) ;;
  esac
  AC_MSG_CHECKING([where to install the bash completion])
  if test -n "$with_bash_completion_dir"; then
    bashcompletiondir=$with_bash_completion_dir
    bashcompletiondir_source=--with-bash-completion-dir
  else
    # under this build's prefix, as bash-completion.pc itself asks
    # (completionsdir=${datadir}/...): its own prefix (/usr) would send a
    # --prefix install out of the prefix (make install fails for a user, and
    # a root one replaces, and its make uninstall removes, the system's file)
    bashcompletiondir=`$PKG_CONFIG --define-variable=prefix='${prefix}'       --define-variable=datadir='${datarootdir}' --variable=completionsdir bash-completion 2>/dev/null`
    case $bashcompletiondir in
      '${'*) ;;
      *) bashcompletiondir= ;;
    esac
    if test -n "$bashcompletiondir"; then
      bashcompletiondir_source="completionsdir of pkg-config's bash-completion, under this prefix"
    else
      bashcompletiondir='${datadir}/bash-completion/completions'
      bashcompletiondir_source="no bash-completion.pc"
    fi
  fi
  AC_MSG_RESULT([$bashcompletiondir ($bashcompletiondir_source)])
  AC_SUBST([bashcompletiondir])
])
