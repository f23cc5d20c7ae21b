// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/gpuhealth.h"

#include <QJsonArray>

#include <algorithm>

namespace kf {

namespace {

// Xids of a hardware fault that needs a GPU reset, a reboot or service (the catalog's
// RESET_GPU / RESTART_BM / CONTACT_SUPPORT buckets for these codes).
bool fatalXid(int code)
{
    static const int kFatal[] = { 46, 48, 62, 64, 74, 79, 95, 109, 119, 120, 140, 154 };
    return std::find(std::begin(kFatal), std::end(kFatal), code) != std::end(kFatal);
}

// Xids an application causes (its own page fault, exception or cleanup): noted, not held
// against the GPU.
bool applicationXid(int code)
{
    return code == 13 || code == 31 || code == 43 || code == 45;
}

bool yes(const QString& text)
{
    return text.compare(QLatin1String("Yes"), Qt::CaseInsensitive) == 0;
}

QString seconds(double us)
{
    const double s = us / 1e6;
    return s < 120 ? QStringLiteral("%1 s").arg(s, 0, 'f', s < 10 ? 1 : 0)
                   : QStringLiteral("%1 min").arg(s / 60, 0, 'f', 0);
}

QString count(double v)
{
    return QString::number(v, 'f', 0);
}

} // namespace

QString healthLevelName(HealthLevel level)
{
    switch (level) {
    case HealthLevel::Pass: return QStringLiteral("pass");
    case HealthLevel::Warn: return QStringLiteral("warn");
    case HealthLevel::Fail: return QStringLiteral("fail");
    }
    return {};
}

QString xidName(int code)
{
    switch (code) {
    case 13: return QStringLiteral("graphics engine exception");
    case 31: return QStringLiteral("GPU memory page fault");
    case 43: return QStringLiteral("GPU stopped processing");
    case 45: return QStringLiteral("preemptive cleanup");
    case 46: return QStringLiteral("GPU stopped processing");
    case 48: return QStringLiteral("double-bit ECC error");
    case 61: return QStringLiteral("internal micro-controller breakpoint");
    case 62: return QStringLiteral("internal micro-controller halt");
    case 63: return QStringLiteral("ECC page retirement or row remapping recorded");
    case 64: return QStringLiteral("ECC page retirement or row remapping failed");
    case 74: return QStringLiteral("NVLink error");
    case 79: return QStringLiteral("GPU has fallen off the bus");
    case 92: return QStringLiteral("high single-bit ECC error rate");
    case 94: return QStringLiteral("contained ECC error");
    case 95: return QStringLiteral("uncontained ECC error");
    case 109: return QStringLiteral("context switch timeout");
    case 119: return QStringLiteral("GSP RPC timeout");
    case 120: return QStringLiteral("GSP error");
    case 140: return QStringLiteral("unrecovered ECC error");
    case 154: return QStringLiteral("GPU recovery action changed");
    }
    return {};
}

GpuHealth judgeGpuHealth(const GpuHealthInput& in)
{
    GpuHealth h;
    const GpuSample& s = in.sample;
    h.index = s.index;
    h.name = s.text(GpuField::Name);
    auto add = [&](HealthLevel level, const char* check, const QString& message) {
        h.findings.append({ level, QString::fromLatin1(check), message });
    };

    // Xid events.
    if (!in.xidKnown) {
        if (!in.xidUnknownWhy.isEmpty())
            add(HealthLevel::Pass, "xid", QStringLiteral("Xid events not read: %1").arg(in.xidUnknownWhy));
    } else {
        QList<int> fatal, warn, app;
        for (const XidEvent& x : in.xids) {
            QList<int>& into = fatalXid(x.code) ? fatal : applicationXid(x.code) ? app : warn;
            if (!into.contains(x.code))
                into.append(x.code);
        }
        auto words = [&](const QList<int>& codes) {
            QStringList out;
            for (int c : codes) {
                const auto last
                    = std::find_if(in.xids.crbegin(), in.xids.crend(), [c](const XidEvent& x) { return x.code == c; });
                const QString name = xidName(c);
                out << QStringLiteral("Xid %1%2%3")
                           .arg(c)
                           .arg(name.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(name))
                           .arg(last != in.xids.crend() && !last->when.isEmpty()
                                   ? QStringLiteral(" at %1").arg(last->when)
                                   : QString());
            }
            return out.join(QStringLiteral(", "));
        };
        if (!fatal.isEmpty())
            add(HealthLevel::Fail, "xid", words(fatal) + QStringLiteral(" since boot"));
        if (!warn.isEmpty())
            add(HealthLevel::Warn, "xid", words(warn) + QStringLiteral(" since boot"));
        if (!app.isEmpty())
            add(HealthLevel::Pass, "xid", words(app) + QStringLiteral(" since boot (raised by an application)"));
    }

    // ECC.
    const double uncorrected = s.value(GpuField::EccUncorrected);
    const double uncorrectedAll = s.value(GpuField::EccUncorrectedAll);
    const double corrected = s.value(GpuField::EccCorrected);
    if (hasValue(uncorrected) && uncorrected > 0)
        add(HealthLevel::Fail, "ecc",
            QStringLiteral("%1 uncorrected ECC error(s) since the driver loaded").arg(count(uncorrected)));
    else if (hasValue(uncorrectedAll) && uncorrectedAll > 0)
        add(HealthLevel::Warn, "ecc",
            QStringLiteral("%1 uncorrected ECC error(s) in the GPU's life (none since the driver loaded)")
                .arg(count(uncorrectedAll)));
    if (s.text(GpuField::EccMode).compare(QLatin1String("Disabled"), Qt::CaseInsensitive) == 0)
        add(HealthLevel::Warn, "ecc", QStringLiteral("ECC is off: memory errors go undetected"));
    if (hasValue(corrected) && corrected > 0)
        add(HealthLevel::Pass, "ecc",
            QStringLiteral("%1 corrected ECC error(s) since the driver loaded").arg(count(corrected)));

    // Retired pages (before Ampere) and remapped rows (Ampere and newer).
    if (yes(s.text(GpuField::RetiredPending)))
        add(HealthLevel::Fail, "retired_pages",
            QStringLiteral("pages are pending retirement: reset the GPU or reboot to retire them"));
    const double sbe = s.value(GpuField::RetiredSbe), dbe = s.value(GpuField::RetiredDbe);
    if ((hasValue(sbe) && sbe > 0) || (hasValue(dbe) && dbe > 0))
        add(HealthLevel::Warn, "retired_pages",
            QStringLiteral("%1 page(s) retired (%2 for single-bit, %3 for double-bit errors)")
                .arg(count((hasValue(sbe) ? sbe : 0) + (hasValue(dbe) ? dbe : 0)),
                    hasValue(sbe) ? count(sbe) : QStringLiteral("-"),
                    hasValue(dbe) ? count(dbe) : QStringLiteral("-")));
    if (yes(s.text(GpuField::RemapFailure)))
        add(HealthLevel::Fail, "remapped_rows",
            QStringLiteral("a row remapping failed: the GPU has no spare rows left there (NVIDIA's replacement "
                           "criterion)"));
    if (yes(s.text(GpuField::RemapPending)))
        add(HealthLevel::Fail, "remapped_rows", QStringLiteral("rows are pending remapping: reset the GPU to apply"));
    const double remapBad = s.value(GpuField::RemapUncorrectable);
    const double remapOk = s.value(GpuField::RemapCorrectable);
    if (hasValue(remapBad) && remapBad > 0)
        add(HealthLevel::Warn, "remapped_rows",
            QStringLiteral("%1 row(s) remapped for uncorrectable errors").arg(count(remapBad)));
    if (hasValue(remapOk) && remapOk > 0)
        add(HealthLevel::Pass, "remapped_rows",
            QStringLiteral("%1 row(s) remapped for correctable errors").arg(count(remapOk)));

    // PCIe link against its maximum, and replays.
    const double width = s.value(GpuField::PcieWidth), widthMax = s.value(GpuField::PcieWidthMax);
    const double gen = s.value(GpuField::PcieGen), genMax = s.value(GpuField::PcieGenMax);
    const double util = s.value(GpuField::UtilGpu);
    if (hasValue(width) && hasValue(widthMax) && width < widthMax)
        add(HealthLevel::Warn, "pcie_link",
            QStringLiteral("PCIe link is x%1 of x%2 (a loose card, riser or slot?)")
                .arg(count(width), count(widthMax)));
    if (hasValue(gen) && hasValue(genMax) && gen < genMax) {
        if (hasValue(util) && util > 0)
            add(HealthLevel::Warn, "pcie_link",
                QStringLiteral("PCIe link is Gen %1 of Gen %2 while the GPU is busy (%3 % utilization)")
                    .arg(count(gen), count(genMax), count(util)));
        else
            add(HealthLevel::Pass, "pcie_link",
                QStringLiteral("PCIe link is Gen %1 of Gen %2 while idle (it speeds up under load)")
                    .arg(count(gen), count(genMax)));
    }
    const bool rolled = hasValue(in.pcieReplayRollovers) && in.pcieReplayRollovers > 0;
    if ((hasValue(in.pcieReplays) && in.pcieReplays > 0) || rolled)
        add(HealthLevel::Warn, "pcie_replay",
            QStringLiteral("%1 PCIe replay(s) since reset%2: link errors the bus retried")
                .arg(hasValue(in.pcieReplays) ? count(in.pcieReplays) : QStringLiteral("-"),
                    rolled ? QStringLiteral(" (and %1 counter rollover(s))").arg(count(in.pcieReplayRollovers))
                           : QString()));

    // NVLink.
    if (hasValue(in.nvlinkErrors) && in.nvlinkErrors > 0)
        add(HealthLevel::Warn, "nvlink",
            QStringLiteral("%1 NVLink error(s)%2")
                .arg(count(in.nvlinkErrors),
                    in.nvlinkDetail.isEmpty()
                        ? QString()
                        : QStringLiteral(": ") + in.nvlinkDetail.mid(0, 4).join(QStringLiteral("; "))));

    // Time held back by clock events since the driver loaded.
    struct Event
    {
        GpuField field;
        const char* what;
        bool warn;
    };
    static const Event kEvents[] = {
        { GpuField::EventHwThermalUs, "HW thermal slowdown", true },
        { GpuField::EventHwPowerBrakeUs, "HW power brake", true },
        { GpuField::EventSwThermalUs, "SW thermal slowdown", true },
        { GpuField::EventSwPowerUs, "SW power capping", false },
    };
    for (const Event& e : kEvents) {
        const double us = s.value(e.field);
        if (hasValue(us) && us > 0)
            add(e.warn ? HealthLevel::Warn : HealthLevel::Pass, "clock_events",
                QStringLiteral("%1 for %2 since the driver loaded").arg(QLatin1String(e.what), seconds(us)));
    }

    std::stable_sort(h.findings.begin(), h.findings.end(),
        [](const HealthFinding& a, const HealthFinding& b) { return int(a.level) > int(b.level); });
    h.verdict = h.findings.isEmpty() ? HealthLevel::Pass : h.findings.first().level;
    return h;
}

QString GpuHealth::summary() const
{
    QStringList bad;
    for (const HealthFinding& f : findings)
        if (f.level == verdict && verdict != HealthLevel::Pass)
            bad << f.message;
    switch (verdict) {
    case HealthLevel::Pass: return QStringLiteral("healthy");
    case HealthLevel::Warn:
        return QStringLiteral("%1 warning(s): %2").arg(bad.size()).arg(bad.join(QStringLiteral("; ")));
    case HealthLevel::Fail: return QStringLiteral("unhealthy: ") + bad.join(QStringLiteral("; "));
    }
    return {};
}

QJsonObject GpuHealth::toJson() const
{
    QJsonArray f;
    for (const HealthFinding& x : findings)
        f.append(QJsonObject { { QStringLiteral("level"), healthLevelName(x.level) },
            { QStringLiteral("check"), x.check }, { QStringLiteral("message"), x.message } });
    return { { QStringLiteral("index"), index }, { QStringLiteral("name"), name },
        { QStringLiteral("verdict"), healthLevelName(verdict) }, { QStringLiteral("summary"), summary() },
        { QStringLiteral("findings"), f } };
}

HealthLevel worstHealth(const QList<GpuHealth>& gpus)
{
    HealthLevel worst = HealthLevel::Pass;
    for (const GpuHealth& g : gpus)
        worst = std::max(worst, g.verdict);
    return worst;
}

} // namespace kf
