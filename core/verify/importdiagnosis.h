// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QByteArrayView>
#include <QString>

// What `python -c "import sgl_kernel"` (stdout and stderr together, and its exit status)
// says, in words a person can act on. The failures recognised, from real output
// (tests/data/fatbin/h200/import_*.txt and the public sglang issues they mirror):
//   ImportError: .../common_ops.abi3.so: undefined symbol: _ZNK3c106SymInt6sym_neERKS0_
//       a C++ symbol of c10 / at / torch (mangled _ZN3c10..., _ZN2at..., _ZN5torch...):
//       the library was built against another torch than the one installed (TorchAbi)
//   ImportError: .../common_ops.abi3.so: undefined symbol: cuGreenCtxStreamCreate
//       a CUDA driver API symbol: the driver is older than the CUDA it was built with
//   ImportError: libcudart.so.12: cannot open shared object file: No such file or directory
//       a CUDA library of another major version, or none (CudaLibraryMissing); libc10.so /
//       libtorch*.so the same way means torch is missing
//   ImportError: Can not import FA3 in sgl_kernel. Please check your installation.
//       sgl_kernel's flash_attn.py when flash_ops was not built (Fa3Missing); also any
//       failure naming flash_ops
//   ModuleNotFoundError: No module named 'sgl_kernel' / 'torch'
//   [sgl_kernel] CRITICAL: Could not load any common_ops library! ... followed by the
//       attempts' errors: those are recognised as above
// Anything else is Other, with the exception's last line.
namespace kf {

struct ImportDiagnosis
{
    enum class Kind { Ok, NotInstalled, TorchMissing, TorchAbi, DriverTooOld, CudaLibraryMissing, Fa3Missing, Other };
    Kind kind = Kind::Other;
    QString detail;      // the symbol, the library, or the exception line
    QString explanation; // one sentence: what it means
    QString fix;         // what to do; empty for Ok
    bool ok() const { return kind == Kind::Ok; }
};

QString toString(ImportDiagnosis::Kind kind); // "ok", "not-installed", "torch-abi", ...

// module: what was imported ("sgl_kernel", "sgl_kernel.flash_ops"), for the messages.
ImportDiagnosis diagnoseImport(
    QByteArrayView output, int exitCode, const QString& module = QStringLiteral("sgl_kernel"));

} // namespace kf
