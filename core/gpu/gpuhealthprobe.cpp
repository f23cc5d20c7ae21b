// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/gpuhealthprobe.h"

#include "core/gpu/nvidiasmi.h"
#include "core/transport/transport.h"
#include "core/util/factlines.h"

#include <QJsonArray>

#include <array>
#include <optional>

namespace kf {

namespace {

constexpr int kMaxXids = 200;

// The fields the health query asks for (besides the ones that say which GPU it is).
const QList<GpuField>& healthFields()
{
    static const QList<GpuField> fields {
        GpuField::Index,
        GpuField::Uuid,
        GpuField::Name,
        GpuField::BusId,
        GpuField::UtilGpu,
        GpuField::EccMode,
        GpuField::EccUncorrected,
        GpuField::EccCorrected,
        GpuField::EccUncorrectedAll,
        GpuField::EccCorrectedAll,
        GpuField::RetiredSbe,
        GpuField::RetiredDbe,
        GpuField::RetiredPending,
        GpuField::RemapCorrectable,
        GpuField::RemapUncorrectable,
        GpuField::RemapPending,
        GpuField::RemapFailure,
        GpuField::PcieGen,
        GpuField::PcieGenMax,
        GpuField::PcieWidth,
        GpuField::PcieWidthMax,
        GpuField::EventSwPowerUs,
        GpuField::EventSwThermalUs,
        GpuField::EventHwThermalUs,
        GpuField::EventHwPowerBrakeUs,
        GpuField::EventSyncBoostUs,
    };
    return fields;
}

// A PCI address as (domain, bus, device): "00000000:18:00.0", "0000:18:00", "18:00".
std::optional<std::array<uint, 3>> pciAddress(QStringView text)
{
    QStringView t = text.trimmed();
    if (t.startsWith(u"PCI:", Qt::CaseInsensitive))
        t = t.sliced(4);
    if (const qsizetype dot = t.indexOf(u'.'); dot >= 0)
        t = t.first(dot);
    const QList<QStringView> parts = t.split(u':');
    if (parts.size() < 2 || parts.size() > 3)
        return std::nullopt;
    std::array<uint, 3> out {};
    const qsizetype offset = 3 - parts.size();
    for (qsizetype i = 0; i < parts.size(); ++i) {
        bool ok = false;
        const uint v = parts[i].toUInt(&ok, 16);
        if (!ok || parts[i].size() > 8)
            return std::nullopt;
        out[size_t(i + offset)] = v;
    }
    return out;
}

// "[  812.331] NVRM: Xid (PCI:0000:18:00): 79, pid=123, name=python, GPU has fallen off the bus."
struct XidLine
{
    XidEvent event;
    QString bus;
};
std::optional<XidLine> xidLine(QByteArrayView line)
{
    static constexpr QByteArrayView kTag("NVRM: Xid (");
    const qsizetype at = line.indexOf(kTag);
    if (at < 0)
        return std::nullopt;
    const qsizetype open = at + kTag.size();
    const qsizetype close = line.indexOf(')', open);
    if (close < 0 || close - open > 64)
        return std::nullopt;
    qsizetype p = close + 1;
    while (p < line.size() && (line[p] == ':' || line[p] == ' '))
        ++p;
    int code = 0, digits = 0;
    while (p < line.size() && line[p] >= '0' && line[p] <= '9' && digits < 6) {
        code = code * 10 + (line[p] - '0');
        ++p, ++digits;
    }
    if (digits == 0)
        return std::nullopt;
    while (p < line.size() && (line[p] == ',' || line[p] == ' '))
        ++p;
    XidLine out;
    out.bus = QString::fromLatin1(line.sliced(open, close - open));
    out.event.code = code;
    out.event.text = QString::fromUtf8(firstBytes(line.sliced(p), 200)).trimmed();
    QByteArrayView before = line.first(at);
    if (const qsizetype kernel = before.indexOf("kernel:"); kernel >= 0)
        before = before.first(kernel);
    out.event.when = QString::fromUtf8(firstBytes(before, 48)).trimmed();
    return out;
}

double valueAfterColon(QByteArrayView line)
{
    const qsizetype colon = line.lastIndexOf(':');
    if (colon < 0)
        return noValue();
    bool ok = false;
    const double v = line.sliced(colon + 1).trimmed().toDouble(&ok);
    return ok && v >= 0 && v < 1e15 ? v : noValue();
}

} // namespace

QString gpuHealthScript()
{
    return QStringLiteral(R"SH(smi=$1; shift
command -v "$smi" >/dev/null 2>&1 || { echo "missing	1"; exit 0; }
t=$(mktemp) || exit 1; trap 'rm -f "$t"' EXIT
to=; command -v timeout >/dev/null 2>&1 && to="timeout 60"
$to "$smi" --help-query-gpu >"$t" 2>&1
q=
for g in "$@"; do
  old=$IFS; IFS='|'; set -f
  for f in $g; do if grep -q "\"$f\"" "$t"; then q="$q,$f"; break; fi; done
  IFS=$old; set +f
done
q=${q#,}; [ -n "$q" ] || q=index
echo "fields	$q"
$to "$smi" --query-gpu="$q" --format=csv >"$t" 2>&1; echo "query_rc	$?"
head -n 300 "$t" | sed 's/^/query	/'
$to "$smi" -q >"$t" 2>/dev/null
grep -E '^GPU [0-9A-Fa-f]|Replays Since Reset|Replay Number Rollovers' "$t" | head -n 600 | sed 's/^/q	/'
$to "$smi" nvlink -e >"$t" 2>&1; echo "nvlink_rc	$?"
head -n 4000 "$t" | sed 's/^/nvlink	/'
if dmesg >"$t" 2>/dev/null; then
  echo "xid_source	dmesg"; grep -a 'NVRM: Xid' "$t" | tail -n 200 | sed 's/^/xid	/'
elif command -v journalctl >/dev/null 2>&1 && [ "$(journalctl -k -b -n 1 --no-pager -q 2>/dev/null | grep -c .)" -gt 0 ]; then
  echo "xid_source	journalctl"
  $to journalctl -k -b --no-pager -q 2>/dev/null | grep -a 'NVRM: Xid' | tail -n 200 | sed 's/^/xid	/'
else
  echo "xid_error	$( (dmesg 2>&1 >/dev/null) | head -n 1 | cut -c 1-200)"
fi
exit 0
)SH");
}

QStringList gpuHealthFieldArguments()
{
    QStringList out;
    for (const GpuField f : healthFields())
        out << QString::fromLatin1(gpuFieldInfo(f).names).split(u' ', Qt::SkipEmptyParts).join(u'|');
    return out;
}

GpuHealthReport parseGpuHealthOutput(QByteArrayView output, int exitCode)
{
    GpuHealthReport r;
    QByteArray query;
    int queryRc = -1;
    QString xidError;
    bool xidErrorSeen = false;
    // -q: bus id -> replays, rollovers
    struct Replay
    {
        double replays = noValue();
        double rollovers = noValue();
    };
    QList<std::pair<std::array<uint, 3>, Replay>> replays;
    // nvlink -e: GPU index -> errors, detail
    QMap<int, std::pair<double, QStringList>> nvlink;
    int nvlinkGpu = -1;
    QList<XidLine> xids;
    forEachFact(output, [&](QByteArrayView key, QByteArrayView value) {
        if (key == "missing") {
            r.driverMissing = true;
        } else if (key == "query") {
            query += value.toByteArray() + '\n';
        } else if (key == "query_rc") {
            queryRc = value.trimmed().toInt();
        } else if (key == "q") {
            const QByteArrayView v = value.trimmed();
            if (v.startsWith("GPU ")) {
                if (const auto a = pciAddress(QString::fromLatin1(v.sliced(4))))
                    replays.append({ *a, Replay {} });
            } else if (!replays.isEmpty() && v.startsWith("Replays Since Reset")) {
                replays.last().second.replays = valueAfterColon(v);
            } else if (!replays.isEmpty() && v.startsWith("Replay Number Rollovers")) {
                replays.last().second.rollovers = valueAfterColon(v);
            }
        } else if (key == "nvlink") {
            const QByteArrayView v = value.trimmed();
            if (v.startsWith("GPU ")) {
                const qsizetype colon = v.indexOf(':');
                bool ok = false;
                const int index = colon > 4 ? v.sliced(4, colon - 4).trimmed().toInt(&ok) : -1;
                nvlinkGpu = ok && index >= 0 && index <= 4096 ? index : -1;
            } else if (nvlinkGpu >= 0 && v.startsWith("Link ")) {
                // "Link 3: CRC Errors: 12" / "Link 3: Replay Errors: 0"
                const qsizetype first = v.indexOf(':');
                const qsizetype last = v.lastIndexOf(':');
                if (first < 0 || last <= first)
                    return;
                const QByteArrayView what = v.sliced(first + 1, last - first - 1).trimmed();
                const double n = valueAfterColon(v);
                auto& [sum, detail] = nvlink[nvlinkGpu]; // a GPU with links starts at 0 errors
                if (!hasValue(n) || !(what.contains("Error") || what.contains("error") || what.contains("CRC")))
                    return;
                sum += n;
                if (n > 0 && detail.size() < 16)
                    detail << QStringLiteral("%1: %2 %3")
                                  .arg(QString::fromLatin1(v.first(first)).toLower(), QString::number(n, 'f', 0),
                                      QString::fromUtf8(firstBytes(what, 40)));
            }
        } else if (key == "xid_source") {
            r.xidSource = QString::fromLatin1(firstBytes(value.trimmed(), 16));
        } else if (key == "xid" && xids.size() < kMaxXids) {
            if (auto x = xidLine(value))
                xids.append(*x);
        } else if (key == "xid_error") {
            xidErrorSeen = true;
            xidError = QString::fromUtf8(firstBytes(value.trimmed(), 200));
        }
    });
    if (r.driverMissing)
        return r;
    const GpuCsvResult gpus = parseGpuCsv(query);
    if (gpus.samples.isEmpty()) {
        const QString said = !gpus.fatal.isEmpty() ? gpus.fatal : gpus.messages.value(0);
        r.problem = queryRc < 0 && exitCode != 0
            ? QStringLiteral("the health script failed (exit status %1)").arg(exitCode)
            : QStringLiteral("nvidia-smi lists no GPU%1").arg(said.isEmpty() ? QString() : QStringLiteral(": ") + said);
        return r;
    }
    QList<bool> xidUsed(xids.size(), false);
    for (const GpuSample& g : gpus.samples) {
        GpuHealthInput in;
        in.sample = g;
        const auto bus = pciAddress(g.text(GpuField::BusId));
        for (const auto& [address, rep] : std::as_const(replays))
            if (bus && address == *bus) {
                in.pcieReplays = rep.replays;
                in.pcieReplayRollovers = rep.rollovers;
            }
        if (const auto n = nvlink.constFind(g.index); n != nvlink.cend()) {
            in.nvlinkErrors = n->first;
            in.nvlinkDetail = n->second;
        }
        in.xidKnown = !r.xidSource.isEmpty();
        if (!in.xidKnown)
            in.xidUnknownWhy = xidErrorSeen
                ? QStringLiteral("neither dmesg nor journalctl -k could be read%1")
                      .arg(xidError.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(xidError))
                : QString();
        for (qsizetype i = 0; i < xids.size(); ++i)
            if (bus && pciAddress(xids[i].bus) == bus) {
                in.xids.append(xids[i].event);
                xidUsed[i] = true;
            }
        r.inputs.append(in);
        r.gpus.append(judgeGpuHealth(in));
    }
    for (qsizetype i = 0; i < xids.size(); ++i)
        if (!xidUsed[i])
            r.unmatchedXids.append(xids[i].event);
    return r;
}

HealthLevel GpuHealthReport::verdict() const
{
    if (!problem.isEmpty())
        return HealthLevel::Fail;
    for (const XidEvent& x : unmatchedXids)
        if (x.code == 79)
            return HealthLevel::Fail; // a GPU fell off the bus and nvidia-smi no longer lists it
    return worstHealth(gpus);
}

QString GpuHealthReport::summary() const
{
    if (driverMissing)
        return QStringLiteral("no NVIDIA driver (nvidia-smi not found): no GPU to check");
    if (!problem.isEmpty())
        return QStringLiteral("unhealthy: %1").arg(problem);
    int pass = 0, warn = 0, fail = 0;
    QStringList worst;
    const HealthLevel v = verdict();
    for (const GpuHealth& g : gpus) {
        (g.verdict == HealthLevel::Pass ? pass : g.verdict == HealthLevel::Warn ? warn : fail) += 1;
        if (g.verdict == v && v != HealthLevel::Pass && worst.size() < 3)
            worst << QStringLiteral("GPU %1: %2").arg(g.index).arg(g.summary());
    }
    for (const XidEvent& x : unmatchedXids)
        if (x.code == 79 && worst.size() < 4)
            worst << QStringLiteral("a GPU nvidia-smi no longer lists: Xid 79 (%1)").arg(xidName(79));
    QStringList counts;
    if (pass)
        counts << QStringLiteral("%1 healthy").arg(pass);
    if (warn)
        counts << QStringLiteral("%1 with warnings").arg(warn);
    if (fail)
        counts << QStringLiteral("%1 unhealthy").arg(fail);
    return QStringLiteral("%1 GPU(s): %2%3")
        .arg(gpus.size())
        .arg(counts.join(QStringLiteral(", ")),
            worst.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(worst.join(QStringLiteral("; "))));
}

QJsonObject GpuHealthReport::toJson() const
{
    QJsonArray g;
    for (const GpuHealth& h : gpus)
        g.append(h.toJson());
    QJsonArray unmatched;
    for (const XidEvent& x : unmatchedXids)
        unmatched.append(QJsonObject { { QStringLiteral("code"), x.code }, { QStringLiteral("when"), x.when },
            { QStringLiteral("text"), x.text } });
    return { { QStringLiteral("verdict"), healthLevelName(verdict()) }, { QStringLiteral("summary"), summary() },
        { QStringLiteral("driver_missing"), driverMissing },
        { QStringLiteral("problem"), problem.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(problem) },
        { QStringLiteral("xid_source"), xidSource.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(xidSource) },
        { QStringLiteral("gpus"), g }, { QStringLiteral("unmatched_xids"), unmatched } };
}

Result<GpuHealthReport> checkGpuHealth(
    Transport& transport, const QString& nvidiaSmi, const QMap<QString, QString>& env)
{
    CommandSpec spec;
    spec.command = gpuHealthScript();
    spec.arguments = QStringList { nvidiaSmi } + gpuHealthFieldArguments();
    spec.env = env;
    spec.maxOutputBytes = 4LL << 20;
    const ExecResult r = transport.exec(spec, 300000);
    if (!r.error.isEmpty())
        return Result<GpuHealthReport>::failure(
            QStringLiteral("cannot check GPU health on %1: %2").arg(transport.describe(), r.error));
    return parseGpuHealthOutput(r.stdOut, r.exitCode);
}

} // namespace kf
