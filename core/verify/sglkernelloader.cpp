// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/verify/sglkernelloader.h"

#include <QFileInfo>
#include <QMap>

namespace kf {

namespace {

using Level = PreflightCheck::Level;

const QString kSm90 = QStringLiteral("sm90");
const QString kSm100 = QStringLiteral("sm100");

bool isCommonOps(const QString& fileName)
{
    // load_utils.py's glob "common_ops.*", compiled extensions first (.so, .pyd, .dll).
    return fileName.startsWith(QLatin1String("common_ops.")) && fileName.contains(QLatin1String(".so"));
}

// A package that ships variants: its folder, the variant per folder, the top-level fallback.
struct Package
{
    QString root;
    QMap<QString, const VerifyLibrary*> variants; // "sm90", "sm100"
    const VerifyLibrary* fallback = nullptr;
    QString shown(const VerifyLibrary* l) const { return QFileInfo(root).fileName() + l->path.mid(root.size()); }
};

QList<Package> packages(const VerifyReport& r)
{
    QMap<QString, Package> byRoot;
    for (const VerifyLibrary& l : r.libraries) {
        const QFileInfo file(l.path);
        if (!isCommonOps(file.fileName()))
            continue;
        const QString folder = QFileInfo(file.path()).fileName();
        if (folder != kSm90 && folder != kSm100)
            continue;
        const QString root = QFileInfo(file.path()).path();
        Package& p = byRoot[root];
        p.root = root;
        if (!p.variants.contains(folder)) // the loader takes the first match; more than one is odd
            p.variants.insert(folder, &l);
    }
    for (const VerifyLibrary& l : r.libraries) {
        const QFileInfo file(l.path);
        const auto it = byRoot.find(file.path());
        if (it != byRoot.end() && isCommonOps(file.fileName()) && !it->fallback)
            it->fallback = &l;
    }
    return byRoot.values();
}

QString gpuWords(const VerifyGpu& g)
{
    return QStringLiteral("GPU %1 (%2, compute capability %3)").arg(g.index).arg(g.name, g.cc->toString());
}

} // namespace

QString sglKernelLoaderFolder(std::optional<ComputeCapability> cc)
{
    return cc && cc->number() == 90 ? kSm90 : kSm100;
}

QSet<QString> loaderChosenLibraries(const VerifyReport& report)
{
    QSet<QString> out;
    for (const Package& p : packages(report)) {
        for (const VerifyLibrary* l : p.variants)
            out.insert(l->path);
        if (p.fallback)
            out.insert(p.fallback->path);
    }
    return out;
}

QList<PreflightCheck> loaderCoverageChecks(const VerifyReport& r)
{
    QList<PreflightCheck> out;
    auto add = [&](Level level, const QString& message, const QString& fix = {}) {
        out.append({ level, QStringLiteral("arch"), message, fix });
    };
    for (const Package& p : packages(r)) {
        QStringList fine;
        QMap<QString, QList<int>> folders; // folder -> GPUs the loader sends there
        for (const VerifyGpu& g : r.gpus) {
            if (!g.cc)
                continue;
            const QString folder = sglKernelLoaderFolder(g.cc);
            folders[folder] << g.index;
            const VerifyLibrary* lib = p.variants.value(folder, p.fallback);
            const QString other = folder == kSm90 ? kSm100 : kSm90;
            if (!lib) {
                add(Level::Fail,
                    QStringLiteral("%1 cannot import sgl_kernel: its loader looks for %2/%3/common_ops.* (every GPU "
                                   "but 9.0 goes to %4/) and then %2/common_ops.*, and neither is there")
                        .arg(gpuWords(g), QFileInfo(p.root).fileName(), folder, kSm100),
                    QStringLiteral("install the build's %1/common_ops library beside %2/").arg(folder, other));
                continue;
            }
            const QString name = p.shown(lib);
            if (lib->targets.isEmpty()) {
                if (!lib->error.isEmpty())
                    add(Level::Warn,
                        QStringLiteral("%1 loads %2, whose targets are unknown: %3")
                            .arg(gpuWords(g), name, lib->error));
                continue;
            }
            const KernelImageChoice c = chooseKernelImage(lib->targets, *g.cc);
            const QString picked = lib == p.fallback
                ? QStringLiteral("sgl-kernel's loader falls back to %1 (no %2/ variant)").arg(name, folder)
                : QStringLiteral("sgl-kernel's loader picks %1 for it (%2)")
                      .arg(name,
                          folder == kSm90 ? QStringLiteral("compute capability 9.0 goes to sm90/")
                                          : QStringLiteral("every GPU but 9.0 goes to sm100/"));
            if (!c.runs()) {
                if (!lib->error.isEmpty())
                    continue; // the missing image may be in the part not read
                const VerifyLibrary* alternative = p.variants.value(other);
                const bool otherRuns = alternative && chooseKernelImage(alternative->targets, *g.cc).runs();
                add(Level::Fail,
                    QStringLiteral("%1 would fail: %2, which carries [%3]: %4%5")
                        .arg(gpuWords(g), picked, joinTargetNames(lib->targets), c.reason,
                            otherRuns ? QStringLiteral(" (%1 has code for it, but the loader never picks it for %2)")
                                            .arg(p.shown(alternative), g.cc->toString())
                                      : QString()),
                    QStringLiteral(
                        "build %1/common_ops with code for %2 (-gencode arch=compute_%3,code=sm_%3), or use a "
                        "sgl-kernel whose loader sends %2 to the variant that has it (sglang PR #35526)")
                        .arg(folder, g.cc->toString())
                        .arg(g.cc->number()));
            } else if (c.jit) {
                add(Level::Warn, QStringLiteral("%1: %2: %3").arg(gpuWords(g), picked, c.reason),
                    QStringLiteral("add SASS for %1 to %2 to skip the JIT").arg(g.cc->toString(), name));
            } else {
                fine << QStringLiteral("GPU %1 (%2) -> %3 (%4)").arg(g.index).arg(g.cc->toString(), name, c.reason);
            }
        }
        if (!fine.isEmpty())
            add(Level::Pass, QStringLiteral("sgl-kernel's loader: ") + fine.join(QStringLiteral("; ")));
        if (folders.size() > 1) {
            QStringList parts;
            for (auto it = folders.cbegin(); it != folders.cend(); ++it) {
                QStringList gpus;
                for (int i : it.value())
                    gpus << QString::number(i);
                parts << QStringLiteral("GPU %1 -> %2/").arg(gpus.join(QStringLiteral(", ")), it.key());
            }
            add(Level::Warn,
                QStringLiteral(
                    "the GPUs load different common_ops variants (%1): the loader decides once per process, "
                    "by the current CUDA device when sgl_kernel is imported, so a process that works on GPUs "
                    "of both kinds keeps the first one's")
                    .arg(parts.join(QStringLiteral("; "))),
                QStringLiteral("run one process per GPU kind (CUDA_VISIBLE_DEVICES), or build one variant with code "
                               "for every GPU here"));
        }
    }
    return out;
}

} // namespace kf
