# SPDX-License-Identifier: BSD-3-Clause
"""The `gpulz` console script: runs the command the wheel carries (the same
program `make install` installs), with the arguments given."""
import os
import sys

PROGRAM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin", "gpulz")


def main():
    try:
        os.execv(PROGRAM, [PROGRAM] + sys.argv[1:])
    except OSError as e:
        sys.exit("gpulz: cannot run %s: %s" % (PROGRAM, e))
