#!/usr/bin/env bash
# Runs on the GPU machine (the `device` tool), from the repository root:
# builds the harness with nvcc and compares every sweep of test/verify/sweeps
# against the toolchain's NVPTX builds in .verify/ours (made here by
# scripts/verify-prepare.sh and carried). Writes the table to $OUT.
# Argument: random tuples a binary/ternary family gets after the edge-value
# grid (default 2^24).
set -euo pipefail
nvcc -O2 -std=c++17 -arch=sm_90 -x cu --expt-relaxed-constexpr -I. -o /tmp/harness test/verify/harness.cpp compiler/Cache/Sha256.cpp -lcuda
/tmp/harness test/verify/sweeps .verify/ours "${1:-16777216}" | tee "${OUT:-/tmp}/verify.txt"
