// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli gpu watch|parse (processes|kill: cmd_gpuprocs.cpp, health: cmd_gpuhealth.cpp,
// export: cmd_fleet.cpp)
#include "app/cli/cli.h"
#include "app/cli/flagtable.h"
#include "app/cli/sshoptions.h"
#include "app/cli/texttable.h"

#include "core/gpu/gpumonitor.h"
#include "core/gpu/nvidiasmi.h"
#include "core/util/novalue.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace kf::cli {
int gpuExport(QStringList args); // cmd_fleet.cpp: the bridge for hosts without an exporter
// cmd_gpuprocs.cpp: the process table and signalling a process
void gpuProcessUsage(QTextStream& s);
int gpuProcesses(QStringList args, void (*usage)(QTextStream&));
int gpuKill(QStringList args, void (*usage)(QTextStream&));
// cmd_gpuhealth.cpp: the health check
void gpuHealthUsage(QTextStream& s);
int gpuHealth(QStringList args, void (*usage)(QTextStream&));
} // namespace kf::cli

namespace {

using namespace kf;

// No value is a bare "-", without the unit.
QString cell(double v, int precision = 0, QStringView unit = {})
{
    return hasValue(v) ? QString::number(v, 'f', precision) + unit : QStringLiteral("-");
}

QString cell(const QString& v)
{
    return v.isEmpty() ? QStringLiteral("-") : v;
}

// Clock event reasons in words; "none" for an empty mask, "-" when the field was not read.
QString reasonsCell(const GpuSample& g)
{
    if (!g.hasReasons)
        return QStringLiteral("-");
    return g.reasons ? reasonPhrases(g.reasons).join(u", ") : QStringLiteral("none");
}

void printTable(QTextStream& s, const QList<GpuSample>& gpus)
{
    s << QStringLiteral(
        "GPU  NAME                  UTIL  MEMORY (MiB)       TEMP  POWER (W)      SM MHz  PSTATE  REASONS\n");
    for (const auto& g : gpus) {
        const QString util = cell(g.value(GpuField::UtilGpu), 0, u"%");
        const QString mem = cell(g.value(GpuField::MemUsed)) + u'/' + cell(g.value(GpuField::MemTotal));
        const QString temp = cell(g.value(GpuField::TempGpu), 0, u"C");
        const QString power = cell(g.value(GpuField::PowerDraw), 1) + u'/' + cell(g.value(GpuField::PowerLimit));
        s << (g.index >= 0 ? QString::number(g.index) : QStringLiteral("-")).leftJustified(5)
          << cell(g.text(GpuField::Name)).left(21).leftJustified(22) << util.rightJustified(4) << "  "
          << mem.leftJustified(19) << temp.rightJustified(4) << "  " << power.leftJustified(15)
          << cell(g.value(GpuField::ClockSm)).rightJustified(6) << "  "
          << cell(g.text(GpuField::Pstate)).leftJustified(8) << reasonsCell(g) << '\n';
    }
}

// The GPM metrics (the Dmon rows), a column each, when some GPU has one.
void printGpmTable(QTextStream& s, const QList<GpuSample>& gpus)
{
    static const QList<GpuField> metrics = gpmGpuFields();
    const bool any = std::any_of(gpus.cbegin(), gpus.cend(), [](const GpuSample& g) {
        return std::any_of(metrics.cbegin(), metrics.cend(), [&](GpuField f) { return hasValue(g.value(f)); });
    });
    if (!any)
        return;
    QStringList header { QStringLiteral("GPM") };
    for (const GpuField f : metrics)
        header << QStringLiteral("%1 (%2)").arg(gpuFieldLabel(f).toUpper(), gpuFieldUnit(f));
    cli::TextTable table(header);
    for (const auto& g : gpus) {
        QStringList row { QString::number(g.index) };
        for (const GpuField f : metrics)
            row << cell(g.value(f));
        table.addRow(row);
    }
    table.print(s);
}

QJsonObject gpmJson(const GpuMonitor::GpmStatus& gpm)
{
    static const char* const kStates[] = { "off", "probing", "streaming", "unavailable", "restarting" };
    return { { QStringLiteral("state"), QLatin1String(kStates[int(gpm.phase)]) },
        { QStringLiteral("text"), gpm.text() } };
}

// The keys of a GPU's JSON object, wrapped for the usage text.
QString jsonKeys()
{
    QString out;
    qsizetype lineStart = 0;
    for (const QString& key : gpuJsonKeys()) {
        if (!out.isEmpty()) {
            out += u',';
            if (out.size() - lineStart + key.size() > 64) {
                out += QStringLiteral("\n   ");
                lineStart = out.size();
            } else {
                out += u' ';
            }
        }
        out += key;
    }
    return out;
}

void usage(QTextStream& s)
{
    s << "Usage:\n"
      << "  kernelforge-cli gpu watch [-p PORT] [-i KEY] [-J JUMP] [--known-hosts FILE] [--accept-new]\n"
      << "                            [--no-reconnect] [--timeout S] user@host\n"
      << "                            [--json] [--count N] [--interval MS]\n"
      << "  kernelforge-cli gpu watch --local [--json] [--count N] [--interval MS]\n"
      << "  kernelforge-cli gpu parse FILE [--json] [--fields F1,F2,...]\n"
      << "  kernelforge-cli gpu export [ssh options] user@host --listen 127.0.0.1:PORT [--interval MS]\n"
      << "                             [--hostname NAME] [--allow-remote]\n"
      << "                             (the stream as Prometheus text, dcgm-exporter names; a non-loopback\n"
      << "                             --listen address needs --allow-remote: the page has no login)\n";
    cli::gpuProcessUsage(s);
    cli::gpuHealthUsage(s);
    s << "\n"
      << "watch streams nvidia-smi (one long-lived --query-gpu ... -lms process) and prints one\n"
      << "sample per interval: a table, or with --json one JSON object per line:\n"
      << "  {host, time, gpus:[{" << jsonKeys() << "}],\n"
      << "   gpm:{state, text}}\n"
      << "On Hopper and newer GPUs a second stream, nvidia-smi dmon --gpm-metrics, adds GPM: SM active,\n"
      << "SM occupancy, tensor and DRAM activity (%), PCIe and NVLink TX/RX (MiB/s); the table gets a GPM\n"
      << "part. Where the GPUs or driver have no GPM, gpm.text says why (--no-gpm: do not ask).\n"
      << "parse reads a saved `nvidia-smi --query-gpu=... --format=csv[,noheader][,nounits]` file;\n"
      << "a header line (any fields, any number, in any order; repeated headers and CRLF are fine)\n"
      << "defines the columns; fields KernelForge does not show are ignored and bracketed values\n"
      << "([N/A], [Not Supported], ...) are null. Without a header the columns are taken from\n"
      << "--fields (a name per column, - for one to ignore; an unknown name is an error), else\n"
      << "guessed from the column count (KernelForge's own field list, or the common\n"
      << "index,uuid,name,pci.bus_id,... list). Skipped lines are counted on stderr with their\n"
      << "line numbers and reasons (and in --json's \"skipped\").\n"
      << "A dropped connection is logged in again (1 s doubling to 30 s) and the stream resumes\n"
      << "without repeating samples; --no-reconnect stops instead, --timeout S bounds how long the\n"
      << "server may stay unreachable. Connection failures exit with 255, like ssh.\n"
      << "processes lists the GPU processes as the GPUs tab does (one remote command: compute apps,\n"
      << "nvidia-smi pmon for SM %, ps for user, CPU %, RSS and the command line); SM% is ? where\n"
      << "the driver has no pmon. kill sends TERM (or --signal KILL) to one of them, only when the\n"
      << "SSH user may (its own processes, or any as root); exit 1 when refused or gone.\n";
    s.flush();
}

int watch(QStringList args)
{
    if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"))) {
        usage(cli::out());
        return 0;
    }
    const QString me = QStringLiteral("gpu watch");
    bool json = false;
    bool noGpm = false;
    int count = -1;
    int interval = 1000;
    cli::FlagTable flags;
    flags.add("--json", &json)
        .add("--no-gpm", &noGpm)
        .add("--count", &count, 1, "a positive number")
        .add("--interval", &interval, 100, "milliseconds >= 100");
    if (const auto taken = flags.take(args); !taken)
        return cli::usageError(me, taken.error(), usage);
    // Remote unless --local: the shared ssh options and the user@host destination, taken after
    // the flags above so that a flag's value is never read as the destination.
    const auto target = cli::takeTargetOptions(args);
    if (!target)
        return cli::usageError(me, target.error(), usage);
    if (!args.isEmpty())
        return cli::usageError(me, QStringLiteral("unknown option ") + args.first(), usage);
    auto opened = cli::openTarget(*target);
    if (!opened)
        return cli::connectionError(me, opened.error());
    const std::shared_ptr<Transport> transport = opened->transport;
    const QString host = opened->label;
    GpuMonitor::Options options;
    options.intervalMs = interval;
    options.processIntervalMs = 0;
    options.gpm = !noGpm;
    GpuMonitor monitor(transport, host, options);
    int printed = 0;
    int rc = 0;
    QObject::connect(&monitor, &GpuMonitor::samplesUpdated, &monitor, [&](const QList<GpuSample>& gpus) {
        if (json) {
            QJsonObject o;
            o.insert(QStringLiteral("host"), host);
            o.insert(QStringLiteral("time"),
                QDateTime::fromMSecsSinceEpoch(monitor.latestTimeMs(), Qt::UTC).toString(Qt::ISODateWithMs));
            QJsonArray arr;
            for (const auto& g : gpus)
                arr.append(toJson(g));
            o.insert(QStringLiteral("gpus"), arr);
            o.insert(QStringLiteral("gpm"), gpmJson(monitor.gpm()));
            cli::out() << QJsonDocument(o).toJson(QJsonDocument::Compact) << '\n';
        } else {
            cli::out() << QDateTime::fromMSecsSinceEpoch(monitor.latestTimeMs()).toString(Qt::ISODate) << "  " << host
                       << '\n';
            printTable(cli::out(), gpus);
            printGpmTable(cli::out(), gpus);
        }
        cli::out().flush();
        ++printed;
        if (count > 0 && printed >= count)
            QCoreApplication::exit(0);
    });
    QObject::connect(&monitor, &GpuMonitor::alertRaised, &monitor, [&](const Alert& a) {
        cli::err() << "alert: " << a.message << '\n';
        cli::err().flush();
        // Nothing was ever printed and nvidia-smi itself fails: give up instead of retrying forever.
        // A lost connection is not nvidia-smi failing: the connection watch decides (255).
        if (a.kind == AlertKind::SmiFailure && printed == 0 && !cli::connectionDown()) {
            rc = 1;
            QCoreApplication::exit(1);
        }
    });
    monitor.start();
    const int loop = QCoreApplication::exec();
    monitor.stop();
    if (cli::connectionGivenUp())
        return cli::kExitConnection;
    return rc != 0 ? rc : loop;
}

// The columns of a file without a header, as the user names them: every name a field (any
// spelling nvidia-smi accepts, " [unit]" allowed), or "-" for a column to ignore.
Result<QList<GpuField>> fieldsFromNames(const QString& list)
{
    QList<GpuField> out;
    for (const QString& raw : list.split(u',')) {
        const QString n = raw.trimmed();
        if (n == QLatin1String("-")) {
            out.append(GpuField::Unknown);
            continue;
        }
        const GpuField f = gpuFieldFromName(n.toUtf8());
        if (f == GpuField::Unknown)
            return Result<QList<GpuField>>::failure(
                QStringLiteral("unknown field '%1' in --fields (a name from nvidia-smi --help-query-gpu that "
                               "KernelForge reads, or - for a column to ignore)")
                    .arg(n));
        out.append(f);
    }
    return out;
}

int parse(QStringList args)
{
    const QString me = QStringLiteral("gpu parse");
    bool json = false;
    QString fields;
    cli::FlagTable flags;
    flags.add("--json", &json).add("--fields", &fields);
    if (const auto taken = flags.take(args); !taken)
        return cli::usageError(me, taken.error(), usage);
    if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"))) {
        usage(cli::out());
        return 0;
    }
    if (args.isEmpty())
        return cli::usageError(me, QStringLiteral("which FILE?"), usage);
    const QString file = args.takeFirst();
    if (!args.isEmpty())
        return cli::usageError(me, QStringLiteral("unexpected arguments: ") + args.join(u' '), usage);
    QList<QList<GpuField>> candidates;
    if (!fields.isEmpty()) {
        const auto named = fieldsFromNames(fields);
        if (!named)
            return cli::usageError(me, named.error());
        candidates.append(*named);
    } else {
        const QList<GpuField> common = *fieldsFromNames(QStringLiteral(
            "index,uuid,name,pci.bus_id,driver_version,pstate,temperature.gpu,temperature.memory,utilization.gpu,"
            "utilization.memory,"
            "memory.total,memory.used,memory.free,power.draw,power.limit,clocks.sm,clocks.mem,clocks.max.sm,fan.speed,"
            "ecc.errors.uncorrected.volatile.total,clocks_throttle_reasons.active,compute_mode,mig.mode.current"));
        candidates = { defaultGpuFields(), common, QList<GpuField> { GpuField::Timestamp } + common,
            QList<GpuField> { GpuField::Timestamp } + defaultGpuFields() };
    }
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        cli::err() << "gpu parse: cannot read " << file << ": " << f.errorString() << '\n';
        return 1;
    }
    const QByteArray data = f.readAll();
    GpuCsvResult best = parseGpuCsv(data, candidates.first());
    for (const auto& c : candidates) {
        GpuCsvResult r = parseGpuCsv(data, c);
        if (r.samples.size() > best.samples.size())
            best = r;
    }
    if (best.samples.isEmpty()) {
        cli::err() << "gpu parse: no GPU rows in " << file;
        if (!best.fatal.isEmpty())
            cli::err() << " (" << best.fatal << ')';
        cli::err() << "; without a header pass --fields\n";
        return 1;
    }
    if (json) {
        QJsonArray arr;
        for (const auto& g : best.samples) {
            QJsonObject o = toJson(g);
            if (g.timeMs)
                o.insert(QStringLiteral("time"),
                    QDateTime::fromMSecsSinceEpoch(g.timeMs, Qt::UTC).toString(Qt::ISODateWithMs));
            arr.append(o);
        }
        QJsonObject root;
        root.insert(QStringLiteral("gpus"), arr);
        root.insert(QStringLiteral("bad_lines"), best.badLines);
        root.insert(QStringLiteral("skipped"), QJsonArray::fromStringList(best.errors));
        root.insert(QStringLiteral("header"), best.sawHeader);
        cli::out() << QJsonDocument(root).toJson(QJsonDocument::Compact) << '\n';
    } else {
        printTable(cli::out(), best.samples);
    }
    cli::out().flush();
    cli::reportSkippedLines(me, best.badLines, best.errors);
    return 0;
}

int runGpu(const QStringList& argsIn)
{
    QStringList args = argsIn;
    if (args.isEmpty() || args.first() == QLatin1String("--help") || args.first() == QLatin1String("-h")) {
        usage(args.isEmpty() ? cli::err() : cli::out());
        return args.isEmpty() ? 2 : 0;
    }
    const QString sub = args.takeFirst();
    if (sub == QLatin1String("watch"))
        return watch(args);
    if (sub == QLatin1String("parse"))
        return parse(args);
    if (sub == QLatin1String("export"))
        return cli::gpuExport(args);
    if (sub == QLatin1String("processes") || sub == QLatin1String("ps"))
        return cli::gpuProcesses(args, usage);
    if (sub == QLatin1String("kill"))
        return cli::gpuKill(args, usage);
    if (sub == QLatin1String("health"))
        return cli::gpuHealth(args, usage);
    cli::err() << "gpu: unknown subcommand " << sub << '\n';
    usage(cli::err());
    return 2;
}

const kf::cli::Registration reg { "gpu",
    "Watch GPUs through nvidia-smi (GPM too), check their health, list or signal their processes, or parse a saved "
    "nvidia-smi CSV",
    &runGpu };

} // namespace
