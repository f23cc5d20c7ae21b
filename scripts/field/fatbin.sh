#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Captures for `kernelforge-cli verify` on a lent GPU machine (docs/FIELD.md, "verify"):
# cuobjdump's view of every fixture in tests/data/fatbin (the oracle the fatbin parser is
# tested against), whether each fixture's kernel runs on this machine's GPU, nvidia-smi's
# compute_cap, and real Python import failures of the kinds verify explains.
# The fixtures are built there first (tests/data/fatbin/make.sh), so the captures describe
# exactly the files that come back. Run from the repository root with $OUT set; packs the
# fixtures (lib/) and the captures (cap/) into $OUT/fatbin.tar.xz.
set -u
R=$(pwd); W=/tmp/kf-fatbin; D=$W/lib; C=$W/cap
rm -rf $W; mkdir -p $C $W/pkg
export PATH=/usr/local/cuda/bin:$PATH LD_LIBRARY_PATH=/usr/local/cuda/lib64
$R/tests/data/fatbin/make.sh /usr/local/cuda/bin/nvcc $D >$C/make.txt 2>&1 || { cat $C/make.txt; exit 1; }
PY=/opt/torch/.venv/bin/python3; [ -x $PY ] || PY=python3
{ echo "cuobjdump: $(command -v cuobjdump)"; cuobjdump --version; ls /usr/local/cuda/bin
  nvidia-smi --query-gpu=index,name,compute_cap --format=csv
  nvidia-smi --query-gpu=compute_cap --format=csv,noheader,nounits
  $PY -c 'import torch, sys; print(sys.version.split()[0], torch.__version__, torch.version.cuda)'; } >$C/machine.txt 2>&1
for f in $D/*.so $D/*.o; do
  b=$(basename $f)
  for m in list-elf list-ptx; do cuobjdump --$m $f >$C/$b.$m.txt 2>$C/$b.$m.err; echo $? >$C/$b.$m.rc; done
  cuobjdump --list-elf --list-ptx $f >$C/$b.both.txt 2>&1
  case $b in *.so) $PY -c 'import ctypes, sys
l = ctypes.CDLL(sys.argv[1]); l.kf_run.restype = ctypes.c_char_p; print(l.kf_run().decode())' $f >$C/$b.run.txt 2>&1;; esac
done
head -c 6000 $D/sm90a.so >$W/truncated.so; cuobjdump --list-elf $W/truncated.so >$C/truncated.list-elf.txt 2>&1; echo $? >>$C/truncated.list-elf.txt
# Import failures: a package whose extension needs a c10 symbol this torch lacks, and one
# whose extension needs a CUDA runtime that is not installed.
mkdir -p $W/pkg/abi/sgl_kernel $W/pkg/cudart/sgl_kernel $W/stub
printf 'import torch\nfrom sgl_kernel import common_ops\n' >$W/pkg/abi/sgl_kernel/__init__.py
cp $W/pkg/abi/sgl_kernel/__init__.py $W/pkg/cudart/sgl_kernel/
printf 'namespace c10 { struct SymInt { bool kf_sym_ne(const SymInt&) const; }; }\nextern "C" void* PyInit_common_ops() { c10::SymInt a; return (void*)(long)a.kf_sym_ne(a); }\n' >$W/abi.cpp
g++ -shared -fPIC -o $W/pkg/abi/sgl_kernel/common_ops.abi3.so $W/abi.cpp
printf 'int cudaRuntimeGetVersion(int* v) { *v = 11080; return 0; }\n' >$W/stub.c
gcc -shared -fPIC -Wl,-soname,libcudart.so.11.0 -o $W/stub/libcudart.so $W/stub.c
printf 'int cudaRuntimeGetVersion(int*);\nvoid* PyInit_common_ops(void) { int v; cudaRuntimeGetVersion(&v); return 0; }\n' >$W/ext.c
gcc -shared -fPIC -o $W/pkg/cudart/sgl_kernel/common_ops.abi3.so $W/ext.c -L$W/stub -lcudart
for p in abi cudart; do (cd /; PYTHONPATH=$W/pkg/$p $PY -c 'import sgl_kernel' >$C/import_$p.txt 2>&1; echo "rc=$?" >>$C/import_$p.txt); done
(cd /; $PY -c 'import sgl_kernel' >$C/import_missing.txt 2>&1; echo "rc=$?" >>$C/import_missing.txt)
tar -C $W -cJf $OUT/fatbin.tar.xz lib cap
ls $C | wc -l; cat $C/machine.txt; for f in $C/*.run.txt; do echo "$(basename $f): $(cat $f)"; done; cat $C/multi.so.both.txt $C/import_abi.txt
