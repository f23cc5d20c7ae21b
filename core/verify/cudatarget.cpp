// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/verify/cudatarget.h"

#include <QRegularExpression>

#include <algorithm>

namespace kf {

namespace {

QString variantSuffix(CudaTarget::Variant v)
{
    switch (v) {
    case CudaTarget::Variant::None: return {};
    case CudaTarget::Variant::ArchSpecific: return QStringLiteral("a");
    case CudaTarget::Variant::FamilySpecific: return QStringLiteral("f");
    }
    return {};
}

QString ccText(int arch)
{
    return QStringLiteral("%1.%2").arg(arch / 10).arg(arch % 10);
}

// Why `t` does not run on cc (t does not run there).
QString whyNot(const CudaTarget& t)
{
    if (t.kind == CudaTarget::Kind::LtoIr)
        return QStringLiteral("%1 is LTO-IR, which the driver does not load").arg(t.name());
    if (t.variant == CudaTarget::Variant::ArchSpecific)
        return QStringLiteral("%1 runs only on %2").arg(t.name(), ccText(t.arch));
    if (t.kind == CudaTarget::Kind::Sass || t.variant == CudaTarget::Variant::FamilySpecific)
        return QStringLiteral("%1 needs %2 up to %3.9").arg(t.name(), ccText(t.arch)).arg(t.major());
    return QStringLiteral("%1 needs %2 or newer").arg(t.name(), ccText(t.arch));
}

} // namespace

QString CudaTarget::name() const
{
    const QString number = QString::number(arch) + variantSuffix(variant);
    switch (kind) {
    case Kind::Sass: return QStringLiteral("sm_") + number;
    case Kind::Ptx: return QStringLiteral("compute_") + number;
    case Kind::LtoIr: return QStringLiteral("lto_") + number;
    }
    return {};
}

bool CudaTarget::operator<(const CudaTarget& o) const
{
    if (arch != o.arch)
        return arch < o.arch;
    if (kind != o.kind)
        return kind < o.kind;
    return variant < o.variant;
}

std::optional<CudaTarget> parseCudaTarget(QStringView text)
{
    static const QRegularExpression re(
        QRegularExpression::anchoredPattern(QStringLiteral("(sm|compute|lto)_([1-9][0-9]{1,3})([af]?)")));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    CudaTarget t;
    const QStringView kind = m.capturedView(1);
    t.kind = kind == u"sm"   ? CudaTarget::Kind::Sass
        : kind == u"compute" ? CudaTarget::Kind::Ptx
                             : CudaTarget::Kind::LtoIr;
    t.arch = m.capturedView(2).toInt();
    const QStringView v = m.capturedView(3);
    t.variant = v == u"a" ? CudaTarget::Variant::ArchSpecific
        : v == u"f"       ? CudaTarget::Variant::FamilySpecific
                          : CudaTarget::Variant::None;
    return t;
}

QList<CudaTarget> uniqueTargets(QList<CudaTarget> targets)
{
    std::sort(targets.begin(), targets.end());
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    return targets;
}

QString joinTargetNames(const QList<CudaTarget>& targets)
{
    QStringList names;
    for (const CudaTarget& t : targets)
        names << t.name();
    return names.join(QLatin1Char(' '));
}

QString ComputeCapability::toString() const
{
    return QStringLiteral("%1.%2").arg(major).arg(minor);
}

std::optional<ComputeCapability> parseComputeCapability(QStringView text)
{
    static const QRegularExpression re(
        QRegularExpression::anchoredPattern(QStringLiteral("\\s*([1-9][0-9]?)\\.([0-9])\\s*")));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    return ComputeCapability { m.capturedView(1).toInt(), m.capturedView(2).toInt() };
}

bool runsOn(const CudaTarget& t, ComputeCapability cc)
{
    const int n = cc.number();
    if (t.kind == CudaTarget::Kind::LtoIr)
        return false;
    if (t.variant == CudaTarget::Variant::ArchSpecific)
        return n == t.arch;
    if (t.kind == CudaTarget::Kind::Sass || t.variant == CudaTarget::Variant::FamilySpecific)
        return cc.major == t.major() && cc.minor >= t.minor();
    return n >= t.arch;
}

KernelImageChoice chooseKernelImage(const QList<CudaTarget>& targets, ComputeCapability cc)
{
    const QList<CudaTarget> all = uniqueTargets(targets);
    // Sorted ascending: the last fitting one is the newest, the one the driver prefers.
    std::optional<CudaTarget> sass;
    std::optional<CudaTarget> ptx;
    for (const CudaTarget& t : all) {
        if (!runsOn(t, cc))
            continue;
        if (t.kind == CudaTarget::Kind::Sass)
            sass = t;
        else if (t.kind == CudaTarget::Kind::Ptx)
            ptx = t;
    }
    KernelImageChoice c;
    if (sass) {
        c.target = sass;
        c.reason = sass->name() + QStringLiteral(" SASS");
        return c;
    }
    if (ptx) {
        c.target = ptx;
        c.jit = true;
        c.reason = QStringLiteral("JIT from %1 PTX (slow first launch, no %2-specific code)")
                       .arg(ptx->name(), QStringLiteral("sm_%1").arg(cc.number()));
        return c;
    }
    QStringList why;
    bool anyPtx = false;
    for (const CudaTarget& t : all) {
        why << whyNot(t);
        anyPtx = anyPtx || t.kind == CudaTarget::Kind::Ptx;
    }
    c.reason = QStringLiteral("no kernel image for %1").arg(cc.toString());
    if (!why.isEmpty())
        c.reason += QStringLiteral(": ") + why.join(QStringLiteral(", "));
    if (!anyPtx)
        c.reason += QStringLiteral("; no PTX to JIT");
    return c;
}

} // namespace kf
