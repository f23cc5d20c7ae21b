#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the fatbin fixtures from kernel.cu with nvcc (CUDA 13.0 made the committed ones):
#   tests/data/fatbin/make.sh [NVCC [OUTDIR]]
# Each library links the CUDA runtime dynamically (-cudart shared) so it stays ~20 KB.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${1:-/usr/local/cuda/bin/nvcc}
out=${2:-$here}
mkdir -p "$out"
lib() { # NAME NVCC-ARGS...
    name=$1; shift
    "$nvcc" -shared -cudart shared -Xcompiler -fPIC -o "$out/$name" "$here/kernel.cu" "$@"
}
lib sm90a.so -gencode arch=compute_90a,code=sm_90a
lib sm100a.so -gencode arch=compute_100a,code=sm_100a
lib sm120a.so -gencode arch=compute_120a,code=sm_120a
lib sm80.so -gencode arch=compute_80,code=sm_80
lib ptx80.so -gencode arch=compute_80,code=compute_80
lib ptx90a.so -gencode arch=compute_90a,code=compute_90a
lib multi.so -gencode arch=compute_90,code=sm_90 -gencode arch=compute_100f,code=sm_100f \
    -gencode arch=compute_120,code=compute_120 -gencode arch=compute_90a,code=compute_90a
lib zstd.so --compress-mode=size -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_80,code=compute_80
lib lz4.so --compress-mode=speed -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_80,code=compute_80
lib nocompress.so --no-compress -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_80,code=compute_80
# A relocatable object with LTO-IR (kind 8) in __nv_relfatbin.
"$nvcc" -c -rdc=true -Xcompiler -fPIC -o "$out/lto90.o" "$here/kernel.cu" -gencode arch=compute_90,code=lto_90
# The host compiler's build of the same file (no device code), as the demo makes without nvcc.
printf 'extern "C" const char* kf_run() { return "no CUDA"; }\n' >"$out/nocuda.cpp"
c++ -shared -fPIC -o "$out/nocuda.so" "$out/nocuda.cpp"
rm -f "$out/nocuda.cpp"
