#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs verify's server script (core/verify/verifyreport.cpp, verifyScript(), saved to a file by
#   sed -n '/R"SH(dir=/,/^)SH"/p' core/verify/verifyreport.cpp | sed '1s/.*R"SH(//;$d' >verify-script.sh
# ) on a lent GPU machine, the way runVerify runs it: in the home folder, with a profile's
# environment (PYTHONPATH here) exported. The folder holds libraries nvcc builds there from
# tests/data/fatbin/kernel.cu; the "installed" sgl_kernel needs a c10 symbol torch lacks.
# Usage: scripts/field/verify.sh verify-script.sh kernel.cu; writes $OUT/verify_script.txt.
set -u
S=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); K=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
W=$HOME/kf-verify; rm -rf "$W"; mkdir -p "$W/proj/build" "$W/pkgs/sgl_kernel"
export PATH=/opt/torch/.venv/bin:/usr/local/cuda/bin:$PATH
for t in 90a 100a; do nvcc -shared -cudart shared -Xcompiler -fPIC -o "$W/proj/build/sm$t.so" "$K" -gencode arch=compute_$t,code=sm_$t & done
nvcc -shared -cudart shared -Xcompiler -fPIC -o "$W/proj/build/ptx80.so" "$K" -gencode arch=compute_80,code=compute_80 &
wait
printf 'from sgl_kernel import common_ops\n' >"$W/pkgs/sgl_kernel/__init__.py"
printf 'namespace c10 { struct SymInt { bool kf_sym_ne(const SymInt&) const; }; }\nextern "C" void* PyInit_common_ops() { c10::SymInt a; return (void*)(long)a.kf_sym_ne(a); }\n' >"$W/abi.cpp"
g++ -shared -fPIC -o "$W/pkgs/sgl_kernel/common_ops.abi3.so" "$W/abi.cpp"
cd "$HOME" && PYTHONPATH=$W/pkgs /bin/sh -c "$(cat "$S")" sh kf-verify/proj/build 200 >"$OUT/verify_script.txt" 2>"$OUT/verify_script.err"
echo "rc=$?"; cat "$OUT/verify_script.txt" "$OUT/verify_script.err"
