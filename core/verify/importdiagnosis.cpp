// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/verify/importdiagnosis.h"

#include "core/sglkernel/rules.h"

#include <QRegularExpression>
#include <QStringList>

namespace kf {

namespace {

// A mangled C++ name in namespace c10, at or torch (possibly const, possibly nested):
// _ZN3c10..., _ZNK3c10..., _ZN2at..., _ZN5torch..., _ZNK5torch3jit...
bool isTorchSymbol(const QString& symbol)
{
    static const QRegularExpression re(QStringLiteral("^_ZN[KVr]*(3c10|2at|5torch)"));
    return re.match(symbol).hasMatch();
}

// CUDA driver API (libcuda: cuInit, cuGreenCtxStreamCreate...) versus runtime (cudaMalloc...).
bool isDriverSymbol(const QString& symbol)
{
    static const QRegularExpression re(QRegularExpression::anchoredPattern(QStringLiteral("cu[A-Z][A-Za-z0-9_]*")));
    return re.match(symbol).hasMatch();
}

bool isCudaLibrary(const QString& lib)
{
    static const QRegularExpression re(QStringLiteral("^lib(cudart|cublas|cublasLt|cufft|curand|cusolver|cusparse|"
                                                      "nvrtc|nvJitLink|cudnn\\w*|nccl|nvToolsExt|cupti|cuda)\\.so"));
    return re.match(lib).hasMatch();
}

// The exception line of a traceback: the last line that looks like "SomeError: message".
QString lastErrorLine(const QStringList& lines)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z_][\\w.]*(Error|Exception|Warning)\\b"));
    for (qsizetype i = lines.size() - 1; i >= 0; --i)
        if (re.match(lines[i]).hasMatch())
            return lines[i].left(400);
    for (qsizetype i = lines.size() - 1; i >= 0; --i)
        if (!lines[i].trimmed().isEmpty())
            return lines[i].trimmed().left(400);
    return {};
}

} // namespace

QString toString(ImportDiagnosis::Kind kind)
{
    switch (kind) {
    case ImportDiagnosis::Kind::Ok: return QStringLiteral("ok");
    case ImportDiagnosis::Kind::NotInstalled: return QStringLiteral("not-installed");
    case ImportDiagnosis::Kind::TorchMissing: return QStringLiteral("torch-missing");
    case ImportDiagnosis::Kind::TorchAbi: return QStringLiteral("torch-abi");
    case ImportDiagnosis::Kind::DriverTooOld: return QStringLiteral("driver-too-old");
    case ImportDiagnosis::Kind::CudaLibraryMissing: return QStringLiteral("cuda-library-missing");
    case ImportDiagnosis::Kind::Fa3Missing: return QStringLiteral("fa3-missing");
    case ImportDiagnosis::Kind::Other: return QStringLiteral("other");
    }
    return {};
}

ImportDiagnosis diagnoseImport(QByteArrayView output, int exitCode, const QString& module)
{
    using K = ImportDiagnosis::Kind;
    const QString text = QString::fromUtf8(output.data(), output.size());
    const QStringList lines = text.split(QLatin1Char('\n'));
    ImportDiagnosis d;
    if (exitCode == 0) {
        d.kind = K::Ok;
        d.explanation = QStringLiteral("import %1 works").arg(module);
        return d;
    }

    static const QRegularExpression undefinedSymbol(QStringLiteral("undefined symbol: ([^\\s,'\"]+)"));
    if (const auto m = undefinedSymbol.match(text); m.hasMatch()) {
        d.detail = m.captured(1);
        if (isTorchSymbol(d.detail)) {
            d.kind = K::TorchAbi;
            d.explanation = QStringLiteral(
                "%1 was built against a different torch than the one installed: the torch C++ symbol %2 is missing")
                                .arg(module, d.detail);
            d.fix = QStringLiteral("rebuild sgl-kernel with this python's torch (pip install --no-build-isolation), "
                                   "or install the torch version it was built for");
        } else if (isDriverSymbol(d.detail)) {
            d.kind = K::DriverTooOld;
            d.explanation = QStringLiteral("the NVIDIA driver lacks %1: it is older than the CUDA %2 was built with")
                                .arg(d.detail, module);
            d.fix = QStringLiteral("upgrade the NVIDIA driver, or build with the CUDA version the driver supports "
                                   "(nvidia-smi shows it)");
        } else {
            d.kind = K::Other;
            d.explanation
                = QStringLiteral("%1 needs the symbol %2, which no loaded library provides").arg(module, d.detail);
            d.fix = QStringLiteral("rebuild against the libraries installed on this server");
        }
        return d;
    }

    static const QRegularExpression missingLibrary(
        QStringLiteral("(lib[\\w.+-]*\\.so[\\w.]*): cannot open shared object file"));
    if (const auto m = missingLibrary.match(text); m.hasMatch()) {
        d.detail = m.captured(1);
        if (isCudaLibrary(d.detail)) {
            d.kind = K::CudaLibraryMissing;
            d.explanation = QStringLiteral("%1 needs %2, which is not installed (or not on the library path): it was "
                                           "built with another CUDA than the one here")
                                .arg(module, d.detail);
            d.fix = QStringLiteral("install the CUDA runtime it needs, or rebuild with this server's CUDA and a "
                                   "torch built for it");
        } else if (d.detail.startsWith(QLatin1String("libc10")) || d.detail.startsWith(QLatin1String("libtorch"))) {
            d.kind = K::TorchMissing;
            d.explanation
                = QStringLiteral("%1 needs torch's %2, which this python does not load").arg(module, d.detail);
            d.fix = QStringLiteral("install torch in this python (the version sgl-kernel was built with)");
        } else {
            d.kind = K::Other;
            d.explanation = QStringLiteral("%1 needs %2, which is not installed").arg(module, d.detail);
            d.fix = QStringLiteral("install the package that provides %1").arg(d.detail);
        }
        return d;
    }

    if (text.contains(QLatin1String("Can not import FA3")) || text.contains(QLatin1String("flash_ops"))) {
        d.kind = K::Fa3Missing;
        d.detail = lastErrorLine(lines);
        d.explanation = QStringLiteral("FA3 (flash_ops) is not there, and %1 fails without it").arg(module);
        d.fix = QStringLiteral("build with %1 (sm_90a only), or make flash_attn.py import flash_ops softly (patch "
                               "'Keep sgl_kernel importable without FA3')")
                    .arg(sglkernel::fa3Argument(true));
        return d;
    }

    static const QRegularExpression noModule(QStringLiteral("No module named '([\\w.]+)'"));
    if (const auto m = noModule.match(text); m.hasMatch()) {
        d.detail = m.captured(1);
        if (d.detail == QLatin1String("torch") || d.detail.startsWith(QLatin1String("torch."))) {
            d.kind = K::TorchMissing;
            d.explanation = QStringLiteral("torch is not installed in this python, and %1 needs it").arg(module);
            d.fix = QStringLiteral("install torch in this python, or set the profile's PATH to the python that has it");
        } else if (module.startsWith(d.detail)) {
            d.kind = K::NotInstalled;
            d.explanation = QStringLiteral("%1 is not installed in this python").arg(d.detail);
            d.fix = QStringLiteral("install the build (pip install . in sgl-kernel), or set the profile's PATH to the "
                                   "python it was installed into");
        } else {
            d.kind = K::Other;
            d.explanation
                = QStringLiteral("%1 needs the python module %2, which is not installed").arg(module, d.detail);
            d.fix = QStringLiteral("pip install the package that provides %1").arg(d.detail);
        }
        return d;
    }

    d.kind = K::Other;
    d.detail = lastErrorLine(lines);
    d.explanation = d.detail.isEmpty()
        ? QStringLiteral("import %1 failed with exit status %2").arg(module).arg(exitCode)
        : QStringLiteral("import %1 failed: %2").arg(module, d.detail);
    d.fix = QStringLiteral("run python -c 'import %1' on the server to see the whole traceback").arg(module);
    return d;
}

} // namespace kf
