// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli gpu health: the GPUs tab's health verdicts, in a terminal (core/gpu/gpuhealthprobe.h).
#include "app/cli/cli.h"
#include "app/cli/flagtable.h"
#include "app/cli/sshoptions.h"
#include "app/cli/texttable.h"

#include "core/gpu/gpuhealthprobe.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace kf::cli {

void gpuHealthUsage(QTextStream& s)
{
    s << "  kernelforge-cli gpu health [--json] [ssh options] user@host | --local\n"
      << "                             (Xid, ECC, retired pages, remapped rows, PCIe link and replays,\n"
      << "                             NVLink errors, clock-event time: a verdict per GPU; exit 1 when one fails)\n";
}

int gpuHealth(QStringList args, void (*usage)(QTextStream&))
{
    const QString me = QStringLiteral("gpu health");
    if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"))) {
        usage(out());
        return 0;
    }
    bool json = false;
    FlagTable flags;
    flags.add("--json", &json);
    if (const auto taken = flags.take(args); !taken)
        return usageError(me, taken.error(), usage);
    const auto options = takeTargetOptions(args);
    if (!options)
        return usageError(me, options.error(), usage);
    if (!args.isEmpty())
        return usageError(me, QStringLiteral("unexpected argument ") + args.first(), usage);
    auto opened = openTarget(*options);
    if (!opened)
        return connectionError(me, opened.error());
    const auto report = checkGpuHealth(*opened->transport);
    if (!report) {
        err() << me << ": " << report.error() << '\n';
        return connectionDown() ? kExitConnection : 1;
    }
    if (json) {
        QJsonObject o = report->toJson();
        o.insert(QStringLiteral("host"), opened->label);
        out() << QJsonDocument(o).toJson(QJsonDocument::Compact) << '\n';
    } else {
        TextTable table(
            { QStringLiteral("GPU"), QStringLiteral("NAME"), QStringLiteral("VERDICT"), QStringLiteral("FINDINGS") });
        for (const GpuHealth& g : report->gpus) {
            QStringList findings;
            for (const HealthFinding& f : g.findings)
                findings << QStringLiteral("%1: %2").arg(healthLevelName(f.level), f.message);
            table.addRow({ QString::number(g.index), g.name, healthLevelName(g.verdict),
                findings.isEmpty() ? QStringLiteral("-") : findings.join(QStringLiteral("; ")) });
        }
        if (!report->gpus.isEmpty())
            table.print(out());
        out() << opened->label << ": " << report->summary() << '\n';
        if (report->xidSource.isEmpty() && !report->gpus.isEmpty())
            out() << "Xid events were not read: the kernel log needs root or the adm/systemd-journal group\n";
    }
    out().flush();
    return report->verdict() == HealthLevel::Fail ? 1 : 0;
}

} // namespace kf::cli
