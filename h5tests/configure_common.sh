# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the tests that run configure in a scratch folder
# (configure_plugindir.sh, configure_options.sh): fail, and the skip where
# the source tree is configured in place (configure refuses a second build
# folder for it).
: "${top_srcdir:?}"

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

if [ -f "$top_srcdir/config.status" ]; then
    echo "SKIP: $top_srcdir is configured in place; configure runs only there"
    exit 77
fi
