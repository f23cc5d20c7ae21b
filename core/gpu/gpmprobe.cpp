// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/gpmprobe.h"

#include "core/gpu/gpmdmon.h"
#include "core/gpu/nvidiasmi.h"
#include "core/util/factlines.h"

#include <QMap>
#include <QSet>

namespace kf {

namespace {

// "GPU 3", "GPUs 0, 1, 2"
QString gpuList(const QList<int>& gpus)
{
    QStringList n;
    for (int g : gpus)
        n << QString::number(g);
    return (gpus.size() == 1 ? QStringLiteral("GPU ") : QStringLiteral("GPUs ")) + n.join(QStringLiteral(", "));
}

// "9.0" -> 90; -1 when unknown.
int capability(const QString& cc)
{
    const qsizetype dot = cc.indexOf(u'.');
    bool okMajor = false, okMinor = false;
    const int major = cc.left(dot).toInt(&okMajor);
    const int minor = cc.mid(dot + 1).toInt(&okMinor);
    return dot > 0 && okMajor && okMinor && major >= 0 && major < 100 && minor >= 0 && minor < 10 ? major * 10 + minor
                                                                                                  : -1;
}

bool busyMessage(const QString& m)
{
    return m.contains(QLatin1String("in use"), Qt::CaseInsensitive)
        || m.contains(QLatin1String("busy"), Qt::CaseInsensitive)
        || m.contains(QLatin1String("Insufficient Permissions"), Qt::CaseInsensitive);
}

} // namespace

QString gpmProbeScript()
{
    // The ids are digits and commas (gpmMetricIds); the caller passes them as $2.
    return QStringLiteral(R"SH(smi=$1; ids=$2
t=$(mktemp) || exit 1; trap 'rm -f "$t"' EXIT
"$smi" --query-gpu=index,name,compute_cap,mig.mode.current,driver_version --format=csv >"$t" 2>&1; rc=$?
if [ $rc -ne 0 ]; then "$smi" --query-gpu=index,name,driver_version --format=csv >"$t" 2>&1; rc=$?; fi
echo "query_rc	$rc"; head -n 64 "$t" | sed 's/^/query	/'
h=$("$smi" dmon -h 2>&1 | grep -c -- '--gpm-metrics'); echo "help	${h:-0}"
if [ "${h:-0}" -gt 0 ]; then
  to=; command -v timeout >/dev/null 2>&1 && to="timeout 20"
  $to "$smi" dmon -s p --gpm-metrics "$ids" -c 3 >"$t" 2>&1; echo "dmon_rc	$?"
  head -n 200 "$t" | sed 's/^/dmon	/'
fi
for f in /proc/[0-9]*/comm; do
  IFS= read -r c <"$f" 2>/dev/null || continue
  case "$c" in
    nv-hostengine|dcgm-exporter|dcgmi) echo "dcgm	$c";;
    ncu|nsys|nsys-launcher|dcgmproftester*) echo "profiler	$c";;
  esac
done | sort -u | head -n 20
exit 0
)SH");
}

GpmSupport parseGpmProbe(QByteArrayView output, const QList<GpuField>& asked)
{
    GpmSupport s;
    QByteArray query, dmon;
    int queryRc = -1, help = -1, dmonRc = -1;
    QStringList dcgm, profilers;
    forEachFact(output, [&](QByteArrayView key, QByteArrayView value) {
        if (key == "query")
            query += value.toByteArray() + '\n';
        else if (key == "dmon")
            dmon += value.toByteArray() + '\n';
        else if (key == "query_rc")
            queryRc = value.trimmed().toInt();
        else if (key == "help")
            help = value.trimmed().toInt();
        else if (key == "dmon_rc")
            dmonRc = value.trimmed().toInt();
        else if (key == "dcgm" && dcgm.size() < 8)
            dcgm << QString::fromUtf8(firstBytes(value.trimmed(), 32));
        else if (key == "profiler" && profilers.size() < 8)
            profilers << QString::fromUtf8(firstBytes(value.trimmed(), 32));
    });
    const GpuCsvResult gpus = parseGpuCsv(query);
    if (!gpus.samples.isEmpty())
        s.driver = gpus.samples.first().text(GpuField::DriverVersion);
    if (gpus.samples.isEmpty()) {
        const QString said = !gpus.fatal.isEmpty() ? gpus.fatal : gpus.messages.value(0);
        s.why = queryRc < 0  ? QStringLiteral("the GPM probe did not run")
            : said.isEmpty() ? QStringLiteral("nvidia-smi lists no GPU")
                             : QStringLiteral("nvidia-smi lists no GPU (%1)").arg(said.left(200));
        return s;
    }
    if (help == 0) {
        s.why = QStringLiteral("this driver's nvidia-smi%1 has no `dmon --gpm-metrics` (GPM came with driver 525)")
                    .arg(s.driver.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(s.driver));
        return s;
    }
    const DmonResult rows = parseDmon(dmon);
    QString busy;
    for (const QString& m : rows.messages)
        if (busy.isEmpty() && busyMessage(m))
            busy = m.left(200);
    QSet<int> withValues;
    QSet<GpuField> metricsWithValues;
    for (const GpuSample& r : rows.samples)
        for (const GpuField f : asked)
            if (hasValue(r.value(f))) {
                withValues.insert(r.index);
                metricsWithValues.insert(f);
            }
    const QString holders = (dcgm + profilers).join(QStringLiteral(", "));
    QMap<QString, QList<int>> reasons; // why not -> GPUs, in index order
    for (const GpuSample& g : gpus.samples) {
        if (withValues.contains(g.index)) {
            s.gpus << g.index;
            continue;
        }
        const QString name = g.text(GpuField::Name);
        const QString cc = g.text(GpuField::ComputeCap);
        const int c = capability(cc);
        QString why;
        if (g.text(GpuField::MigMode).compare(QLatin1String("Enabled"), Qt::CaseInsensitive) == 0)
            why = QStringLiteral("MIG mode is on (dmon's device-level GPM is not reported for a GPU split into "
                                 "instances)");
        else if (c >= 0 && c < 90)
            why = QStringLiteral("%1, compute capability %2, predates Hopper: GPM needs compute capability 9.0 or "
                                 "newer")
                      .arg(name, cc);
        else if (help < 0 || dmonRc < 0)
            why = QStringLiteral("nvidia-smi dmon did not run");
        else if (!busy.isEmpty())
            why = QStringLiteral("its GPM counters are in use by another client (nvidia-smi dmon: %1)").arg(busy);
        else if (!holders.isEmpty())
            why = QStringLiteral("no GPM value from nvidia-smi dmon while %1 runs on the host (DCGM or a profiler may "
                                 "hold the GPU's counters)")
                      .arg(holders);
        else if (dmonRc != 0 && !rows.messages.isEmpty())
            why = QStringLiteral("nvidia-smi dmon failed (exit status %1): %2").arg(dmonRc).arg(rows.messages.first());
        else
            why = QStringLiteral("nvidia-smi dmon printed no GPM value (\"-\" for every metric)");
        reasons[why] << g.index;
    }
    QStringList parts;
    for (auto it = reasons.cbegin(); it != reasons.cend(); ++it)
        parts << QStringLiteral("%1: %2").arg(gpuList(it.value()), it.key());
    s.available = !s.gpus.isEmpty();
    if (!s.available) {
        s.why = parts.join(QStringLiteral("; "));
        return s;
    }
    s.notes = parts;
    for (const GpuField f : asked) {
        if (metricsWithValues.contains(f))
            s.metrics << f;
        else
            s.silentMetrics << f;
    }
    if (!s.silentMetrics.isEmpty()) {
        QStringList names;
        for (const GpuField f : std::as_const(s.silentMetrics))
            names << gpuFieldLabel(f);
        s.notes << QStringLiteral("no value for %1 on any GPU (not on this board or driver)")
                       .arg(names.join(QStringLiteral(", ")));
    }
    return s;
}

} // namespace kf
