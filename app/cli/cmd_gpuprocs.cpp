// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli gpu processes|kill: the GPUs tab's process table and its Terminate…, in a terminal.
#include "app/cli/cli.h"
#include "app/cli/flagtable.h"
#include "app/cli/sshoptions.h"
#include "app/cli/texttable.h"

#include "core/gpu/gpuprocesses.h"
#include "core/gpu/processsignal.h"
#include "core/util/novalue.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <optional>

namespace kf::cli {

namespace {

QString number(double v, int precision, QStringView unit = {})
{
    return hasValue(v) ? QString::number(v, 'f', precision) + unit : QStringLiteral("-");
}

QJsonValue jsonText(const QString& s)
{
    return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s);
}

QString dash(const QString& s)
{
    return s.isEmpty() ? QStringLiteral("-") : s;
}

// "1.2 GiB" / "820 MiB" from KiB, as the GUI shows host RSS.
QString rssText(double kib)
{
    if (!hasValue(kib))
        return QStringLiteral("-");
    if (kib >= 1024.0 * 1024.0)
        return QString::number(kib / (1024.0 * 1024.0), 'f', 1) + QStringLiteral(" GiB");
    return QString::number(kib / 1024.0, 'f', 0) + QStringLiteral(" MiB");
}

QJsonObject toJson(const GpuProcess& p, qint64 myUid)
{
    QJsonObject o;
    o.insert(QStringLiteral("gpu"), p.gpuIndex >= 0 ? QJsonValue(p.gpuIndex) : QJsonValue(QJsonValue::Null));
    o.insert(QStringLiteral("gpu_uuid"), jsonText(p.gpuUuid));
    o.insert(QStringLiteral("pid"), p.pid);
    o.insert(QStringLiteral("user"), jsonText(p.user));
    o.insert(QStringLiteral("uid"), p.uid >= 0 ? QJsonValue(p.uid) : QJsonValue(QJsonValue::Null));
    o.insert(QStringLiteral("gpu_memory_mib"), jsonValue(p.usedMemoryMiB));
    o.insert(QStringLiteral("sm_pct"), jsonValue(p.smPercent));
    o.insert(QStringLiteral("cpu_pct"), jsonValue(p.cpuPercent));
    o.insert(QStringLiteral("rss_kib"), jsonValue(p.rssKiB));
    o.insert(QStringLiteral("name"), jsonText(p.name));
    o.insert(QStringLiteral("command"), jsonText(p.commandLine));
    const QString why = mayUserSignal(p, myUid);
    o.insert(QStringLiteral("may_signal"), why.isEmpty());
    o.insert(QStringLiteral("why_not"), jsonText(why));
    return o;
}

// What `gpu processes` and `gpu kill` both do after their own flags: the target from the
// rest of args, nothing else left over, the connection, and the process list. On failure the
// message is printed and *exitCode is the status to return.
struct ListedTarget
{
    Target target;
    GpuProcessList list;
};
std::optional<ListedTarget> openAndList(
    const QString& me, QStringList& args, void (*usage)(QTextStream&), int* exitCode)
{
    const auto options = takeTargetOptions(args);
    if (!options) {
        *exitCode = usageError(me, options.error(), usage);
        return std::nullopt;
    }
    if (!args.isEmpty()) {
        *exitCode = usageError(me, QStringLiteral("unexpected argument ") + args.first(), usage);
        return std::nullopt;
    }
    auto opened = openTarget(*options);
    if (!opened) {
        *exitCode = connectionError(me, opened.error());
        return std::nullopt;
    }
    auto listed = listGpuProcesses(*opened->transport);
    if (!listed) {
        err() << me << ": " << opened->label << ": " << listed.error() << '\n';
        *exitCode = 1;
        return std::nullopt;
    }
    return ListedTarget { std::move(*opened), std::move(*listed) };
}

} // namespace

void gpuProcessUsage(QTextStream& s)
{
    s << "  kernelforge-cli gpu processes [--json] [--gpu N] [ssh options] user@host | --local\n"
      << "  kernelforge-cli gpu kill PID [--signal TERM|KILL] [ssh options] user@host | --local\n";
}

int gpuProcesses(QStringList args, void (*usage)(QTextStream&))
{
    const QString me = QStringLiteral("gpu processes");
    if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"))) {
        usage(out());
        return 0;
    }
    bool json = false;
    int gpu = -1;
    FlagTable flags;
    flags.add("--json", &json).add("--gpu", &gpu, 0, "a GPU index (0, 1, ...)");
    if (const auto taken = flags.take(args); !taken)
        return usageError(me, taken.error(), usage);
    int exitCode = 0;
    const auto listed = openAndList(me, args, usage, &exitCode);
    if (!listed)
        return exitCode;
    QList<GpuProcess> rows;
    for (const GpuProcess& p : listed->list.processes)
        if (gpu < 0 || p.gpuIndex == gpu)
            rows.append(p);
    if (json) {
        QJsonArray arr;
        for (const GpuProcess& p : rows)
            arr.append(toJson(p, listed->list.myUid));
        QJsonObject o;
        o.insert(QStringLiteral("host"), listed->target.label);
        o.insert(QStringLiteral("my_uid"), listed->list.myUid >= 0 ? QJsonValue(listed->list.myUid) : QJsonValue());
        o.insert(QStringLiteral("sm_known"), listed->list.pmonAvailable);
        o.insert(QStringLiteral("processes"), arr);
        out() << QJsonDocument(o).toJson(QJsonDocument::Compact) << '\n';
    } else {
        TextTable t({ QStringLiteral("GPU"), QStringLiteral("PID"), QStringLiteral("USER"), QStringLiteral("GPU MEM"),
            QStringLiteral("SM%"), QStringLiteral("CPU%"), QStringLiteral("RSS"), QStringLiteral("COMMAND") });
        for (const GpuProcess& p : rows)
            t.addRow({ p.gpuIndex >= 0 ? QString::number(p.gpuIndex) : dash(p.gpuUuid), QString::number(p.pid),
                dash(p.user), number(p.usedMemoryMiB, 0, u" MiB"),
                listed->list.pmonAvailable ? number(p.smPercent, 0) : QStringLiteral("?"), number(p.cpuPercent, 1),
                rssText(p.rssKiB), dash(p.commandLine.isEmpty() ? p.name : p.commandLine) });
        t.print(out());
    }
    out().flush();
    if (!listed->list.pmonAvailable && !rows.isEmpty())
        err() << me << ": SM % unknown (?): " << listed->list.pmonError << '\n';
    if (rows.isEmpty())
        err() << me << ": no GPU processes on " << listed->target.label
              << (gpu >= 0 ? QStringLiteral(" GPU %1").arg(gpu) : QString()) << '\n';
    return 0;
}

int gpuKill(QStringList args, void (*usage)(QTextStream&))
{
    const QString me = QStringLiteral("gpu kill");
    if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"))) {
        usage(out());
        return 0;
    }
    QString signal = QStringLiteral("TERM");
    FlagTable flags;
    flags.add("--signal", &signal);
    if (const auto taken = flags.take(args); !taken)
        return usageError(me, taken.error(), usage);
    const QString sig = normalizedSignalName(signal);
    if (sig.isEmpty())
        return usageError(me, QStringLiteral("--signal must be TERM or KILL, not '%1'").arg(signal), usage);
    if (args.isEmpty())
        return usageError(me, QStringLiteral("which PID?"), usage);
    bool ok = false;
    const qint64 pid = args.takeFirst().toLongLong(&ok);
    if (!ok || pid <= 1 || pid > 4294967295LL)
        return usageError(me, QStringLiteral("PID must be a process id greater than 1"), usage);
    // The same rules as the GPUs tab: only a listed GPU process, only one the SSH user may signal.
    int exitCode = 0;
    const auto listed = openAndList(me, args, usage, &exitCode);
    if (!listed)
        return exitCode;
    const auto it = std::find_if(listed->list.processes.cbegin(), listed->list.processes.cend(),
        [pid](const GpuProcess& p) { return p.pid == pid; });
    if (it == listed->list.processes.cend()) {
        err() << me << ": " << pid << " is not a GPU process on " << listed->target.label
              << " (kernelforge-cli gpu processes lists them)\n";
        return 1;
    }
    if (const QString why = mayUserSignal(*it, listed->list.myUid); !why.isEmpty()) {
        err() << me << ": cannot signal " << pid << ": " << why << '\n';
        return 1;
    }
    const SignalResult r = signalProcess(*listed->target.transport, pid, sig, it->startTicks);
    if (r.outcome == SignalOutcome::Signalled) {
        out() << r.message << " (" << dash(it->user) << ": " << dash(it->commandLine) << ")\n";
        return 0;
    }
    err() << me << ": " << r.message << '\n';
    return 1;
}

} // namespace kf::cli
