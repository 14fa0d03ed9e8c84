#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# r178s: the corpus's six largest arrays (xz) staged in /tmp on the GPU machine for r178's round,
# which cannot carry the whole kit in one call
mkdir -p /tmp/stage178 && cp .dk/stage178/*.xz /tmp/stage178/ && ls -la /tmp/stage178 && nvidia-smi -L
