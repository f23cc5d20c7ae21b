// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/memorygate.h"

#include "core/sglkernel/rules.h"
#include "core/util/bytelines.h"
#include "core/util/shellquote.h"

#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>

namespace kf::memorygate {
namespace {

constexpr qsizetype kMaxUnits = 4096;
constexpr int kMaxPeakLines = 100000;

const char* const kLanguages[] = { "C", "CXX", "CUDA" };

// The prelude's fixed part; the launcher variables come before it (they may carry the profile's
// own launchers). Ends with `:` so that sourcing it succeeds.
constexpr char kPreludeTail[] = R"SH(KF_MEMGATE_DIR=$KF_JOB_DIR; export KF_MEMGATE_DIR
KF_MEMGATE_NVCC_THREAD_MB=${KF_MEMGATE_NVCC_THREAD_MB:-%1}; export KF_MEMGATE_NVCC_THREAD_MB
mkdir -p "$KF_JOB_DIR/bin" && ln -sf ../memgate "$KF_JOB_DIR/bin/nvcc"
CMAKE_ARGS="-DCMAKE_C_COMPILER_LAUNCHER=$CMAKE_C_COMPILER_LAUNCHER -DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER -DCMAKE_CUDA_COMPILER_LAUNCHER=$CMAKE_CUDA_COMPILER_LAUNCHER${CMAKE_ARGS:+ $CMAKE_ARGS}"
export CMAKE_ARGS CMAKE_C_COMPILER_LAUNCHER CMAKE_CXX_COMPILER_LAUNCHER CMAKE_CUDA_COMPILER_LAUNCHER
PYTORCH_NVCC=${PYTORCH_NVCC:+$kf_g $PYTORCH_NVCC}; PYTORCH_NVCC=${PYTORCH_NVCC:-$KF_JOB_DIR/bin/nvcc}; export PYTORCH_NVCC
FLASHINFER_NVCC_LAUNCHER="$kf_g${FLASHINFER_NVCC_LAUNCHER:+ $FLASHINFER_NVCC_LAUNCHER}"; export FLASHINFER_NVCC_LAUNCHER
FLASHINFER_CXX_LAUNCHER="$kf_g${FLASHINFER_CXX_LAUNCHER:+ $FLASHINFER_CXX_LAUNCHER}"; export FLASHINFER_CXX_LAUNCHER
KF_MEMGATE_NVCC=${KF_MEMGATE_NVCC:-${DG_JIT_NVCC_COMPILER:-${CUDA_NVCC_EXECUTABLE:-}}}; [ -z "$KF_MEMGATE_NVCC" ] || export KF_MEMGATE_NVCC
DG_JIT_NVCC_COMPILER=$KF_JOB_DIR/bin/nvcc; CUDA_NVCC_EXECUTABLE=$KF_JOB_DIR/bin/nvcc; export DG_JIT_NVCC_COMPILER CUDA_NVCC_EXECUTABLE
unset kf_g
:
)SH";

const QRegularExpression& launcherDefinition()
{
    static const QRegularExpression re(QStringLiteral("^-DCMAKE_(C|CXX|CUDA)_COMPILER_LAUNCHER(?::[A-Za-z]+)?=(.*)$"));
    return re;
}

qint64 kb(const QJsonValue& v)
{
    return v.isDouble() ? qint64(v.toDouble()) : -1;
}

GateUnit unitFrom(const QJsonObject& o)
{
    GateUnit u;
    u.unit = o.value(QStringLiteral("key")).toString();
    u.kind = o.value(QStringLiteral("kind")).toString();
    u.expectedKb = std::max<qint64>(0, kb(o.value(QStringLiteral("est_kb"))));
    u.rssKb = kb(o.value(QStringLiteral("rss_kb")));
    u.peakKb = kb(o.value(QStringLiteral("peak_kb")));
    const qint64 admitted = kb(o.value(QStringLiteral("admitted_ms")));
    u.sinceMs = admitted >= 0 ? admitted : std::max<qint64>(0, kb(o.value(QStringLiteral("since_ms"))));
    u.exclusive = o.value(QStringLiteral("exclusive")).toBool();
    u.wallMs = kb(o.value(QStringLiteral("wall_ms")));
    u.status = o.value(QStringLiteral("status")).toString();
    return u;
}

QList<GateUnit> unitsFrom(const QJsonValue& v)
{
    QList<GateUnit> out;
    for (const QJsonValue& e : v.toArray()) {
        if (out.size() >= kMaxUnits)
            break;
        if (e.isObject())
            out.append(unitFrom(e.toObject()));
    }
    return out;
}

bool cleanName(const QString& s)
{
    return !s.isEmpty() && !s.contains(QLatin1Char('\t')) && !s.contains(QLatin1Char('\n'))
        && !s.contains(QLatin1Char('\r'));
}

} // namespace

QByteArray launcherScript()
{
    QFile f(QStringLiteral(":/gate/kf-memgate"));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void install(JobSpec& spec, const QList<UnitPeak>& learned)
{
    // The profile's own launchers (ccache, say) run behind the gate; left in CMAKE_ARGS after
    // the gate's definitions they would replace it.
    QMap<QString, QString> theirs;
    QStringList rest;
    const QString cmakeArgs = spec.env.value(QStringLiteral("CMAKE_ARGS"));
    for (const QString& a : cmakeArgs.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (const auto m = launcherDefinition().match(a); m.hasMatch())
            theirs.insert(m.captured(1), m.captured(2));
        else
            rest << a;
    }
    if (rest.isEmpty())
        spec.env.remove(QStringLiteral("CMAKE_ARGS"));
    else
        spec.env.insert(QStringLiteral("CMAKE_ARGS"), rest.join(QLatin1Char(' ')));

    QString prelude
        = QStringLiteral("# KernelForge's memory gate (core/remotebuild/memorygate.h); memory_gate: false in "
                         "the build profile turns it off.\nkf_g=$KF_JOB_DIR/memgate\n");
    for (const char* lang : kLanguages) {
        const QString var = QStringLiteral("CMAKE_%1_COMPILER_LAUNCHER").arg(QLatin1String(lang));
        const QString mine = theirs.value(QLatin1String(lang));
        prelude += mine.isEmpty() ? QStringLiteral("%1=\"$kf_g${%1:+;$%1}\"\n").arg(var)
                                  : QStringLiteral("%1=\"$kf_g;\"%2\n").arg(var, shellQuote(mine));
    }
    prelude += QString::fromLatin1(kPreludeTail).arg(sglkernel::kGiBPerNvccThread * 1024);
    spec.files.append({ QStringLiteral("memgate"), launcherScript(), true });
    spec.files.append({ QStringLiteral("memgate.seed"), seedFile(learned), false });
    spec.files.append({ QStringLiteral("prelude"), prelude.toUtf8(), false });
}

QByteArray seedFile(const QList<UnitPeak>& learned)
{
    QByteArray out;
    for (const UnitPeak& p : learned)
        if (p.peakKb > 0 && cleanName(p.unit) && cleanName(p.kind))
            out += QByteArray::number(p.peakKb) + '\t' + p.kind.toUtf8() + '\t' + p.unit.toUtf8() + '\n';
    return out;
}

QList<UnitPeak> parsePeaks(QByteArrayView text)
{
    QList<UnitPeak> out;
    ByteLines lines(text);
    for (QByteArrayView line; lines.next(line) && out.size() < kMaxPeakLines;) {
        const QList<QByteArray> f = QByteArray(line.data(), line.size()).split('\t');
        if (f.size() != 5)
            continue;
        bool okPeak = false, okWall = false;
        UnitPeak p;
        p.peakKb = f[0].toLongLong(&okPeak);
        p.wallMs = f[1].toLongLong(&okWall);
        p.status = QString::fromUtf8(f[2]);
        p.kind = QString::fromUtf8(f[3]);
        p.unit = QString::fromUtf8(f[4]).trimmed();
        if (okPeak && okWall && p.peakKb >= 0 && p.wallMs >= 0 && !p.unit.isEmpty())
            out.append(p);
    }
    return out;
}

GateStatus parseState(QByteArrayView json)
{
    GateStatus s;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray(json.data(), json.size()));
    const QJsonObject o = doc.object();
    if (!doc.isObject() || o.value(QStringLiteral("v")).toInt() != 1)
        return s;
    s.present = true;
    s.updatedMs = std::max<qint64>(0, kb(o.value(QStringLiteral("updated_ms"))));
    s.waiting = unitsFrom(o.value(QStringLiteral("waiting")));
    s.running = unitsFrom(o.value(QStringLiteral("running")));
    s.recent = unitsFrom(o.value(QStringLiteral("recent")));
    s.done = o.value(QStringLiteral("done")).toInt();
    s.retried = o.value(QStringLiteral("retried")).toInt();
    s.failed = o.value(QStringLiteral("failed")).toInt();
    const QJsonObject m = o.value(QStringLiteral("memory")).toObject();
    s.limitKb = kb(m.value(QStringLiteral("limit_kb")));
    s.availableKb = kb(m.value(QStringLiteral("available_kb")));
    s.reserveKb = kb(m.value(QStringLiteral("reserve_kb")));
    s.source = m.value(QStringLiteral("source")).toString();
    return s;
}

bool isConfigureCheck(const QString& unit)
{
    // CMake's compiler checks and try_compile()s build in a scratch project named anew each time
    // (CMakeFiles/cmTC_5e8d3.dir/..., CMakeScratch/TryCompile-x/...): nothing to learn for later.
    static const QRegularExpression re(QStringLiteral("(^|/)(cmTC_[0-9a-f]+\\.dir|CMakeScratch)/"));
    return re.match(unit).hasMatch();
}

QList<UnitPeak> learn(const QList<UnitPeak>& previous, const QList<UnitPeak>& measured)
{
    QHash<QString, UnitPeak> byUnit;
    for (const UnitPeak& p : previous)
        if (!isConfigureCheck(p.unit))
            byUnit.insert(p.unit, UnitPeak { p.unit, p.kind, p.peakKb });
    QHash<QString, UnitPeak> now;
    for (const UnitPeak& p : measured) {
        if (isConfigureCheck(p.unit))
            continue;
        auto it = now.find(p.unit);
        if (it == now.end())
            now.insert(p.unit, UnitPeak { p.unit, p.kind, p.peakKb });
        else
            it->peakKb = std::max(it->peakKb, p.peakKb);
    }
    for (auto it = now.cbegin(); it != now.cend(); ++it) {
        const auto before = byUnit.constFind(it.key());
        UnitPeak next = it.value();
        if (before != byUnit.cend())
            next.peakKb = std::max(next.peakKb, before->peakKb / 2);
        byUnit.insert(it.key(), next);
    }
    QList<UnitPeak> out = byUnit.values();
    std::sort(out.begin(), out.end(), [](const UnitPeak& a, const UnitPeak& b) { return a.unit < b.unit; });
    return out;
}

} // namespace kf::memorygate
