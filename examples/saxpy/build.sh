#!/usr/bin/env bash
# Rebuilds the bundled example application (committed, so that machines
# without CUDA can run the main job): SASS for sm_75 and sm_86, and PTX for
# compute_86 that `zluda-precompile build` compiles for AMD GPUs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
nvcc -O2 -gencode arch=compute_75,code=sm_75 \
  -gencode arch=compute_86,code='[sm_86,compute_86]' -o saxpy saxpy.cu
nvcc -ptx -arch=compute_80 -o saxpy.ptx saxpy.cu
