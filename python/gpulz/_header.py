# SPDX-License-Identifier: BSD-3-Clause
"""The C headers the wheel carries (include/gpulz.h, include/gpulz_cd.h), read
for their constants: the filter ID, the cd_values slots, the flags, ranges and
status codes come from the same text the C library and the plugin were built
with, never retyped here."""
import os
import re

INCLUDE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")

_DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)\s+(.*?)\s*(?:/\*.*)?$")
_ENUM = re.compile(r"^\s*(GPULZ_\w+)\s*=\s*(-?\d+)\s*,?")
_INT = re.compile(r"^\(?(-?(?:0x[0-9a-fA-F]+|\d+))[uUlL]*\)?$")


def _value(text, known):
    """An integer, a string or an OR of known names; None for anything else."""
    m = _INT.match(text)
    if m:
        return int(m.group(1), 0)
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1]
    names = re.fullmatch(r"\(?\s*(\w+(?:\s*\|\s*\w+)*)\s*\)?", text)
    if names:
        parts = [p.strip() for p in names.group(1).split("|")]
        if all(isinstance(known.get(p), int) for p in parts):
            v = 0
            for p in parts:
                v |= known[p]
            return v
    return None


def read(*names):
    """The #define constants and enumerators of the named headers, as a dict."""
    out = {}
    for name in names:
        with open(os.path.join(INCLUDE_DIR, name)) as f:
            for line in f:
                m = _DEFINE.match(line)
                if m:
                    v = _value(m.group(2), out)
                    if v is not None:
                        out[m.group(1)] = v
                    continue
                m = _ENUM.match(line)
                if m:
                    out[m.group(1)] = int(m.group(2))
    return out


C = read("gpulz.h", "gpulz_cd.h")
