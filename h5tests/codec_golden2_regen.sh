#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# codec_golden2_regen.sh - h5tests/v2_refenc.py (the encoder written from
# docs/FORMAT.md alone) still writes exactly the golden vectors checked in
# under h5tests/golden2/, so that they can be regenerated and reviewed as a
# diff.  Skipped (77) without python3.
src=${top_srcdir:-.}
PYTHON=${PYTHON:-python3}
if ! command -v "$PYTHON" >/dev/null 2>&1 || ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 6))' 2>/dev/null; then
    echo "no python3 (3.6 or later): skipped"
    exit 77
fi
exec "$PYTHON" "$src/h5tests/v2_refenc.py" --check-golden "$src/h5tests/golden2"
