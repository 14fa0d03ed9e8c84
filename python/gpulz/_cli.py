# SPDX-License-Identifier: BSD-3-Clause
"""The `gpulz` console script: runs the command the wheel carries (the same
program `make install` installs), with the arguments given."""
import os
import signal
import sys

PROGRAM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin", "gpulz")


def main():
    # Python ignores SIGPIPE and SIGXFSZ, and an ignored signal stays
    # ignored across exec: `gpulz decompress x.gplz -o - | head` then failed
    # with "write failed: Broken pipe" (exit 3) where the program ends
    # quietly by SIGPIPE, as subprocess's restore_signals does for children
    for name in ("SIGPIPE", "SIGXFSZ"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    try:
        os.execv(PROGRAM, [PROGRAM] + sys.argv[1:])
    except OSError as e:
        sys.exit("gpulz: cannot run %s: %s" % (PROGRAM, e))
